/**
 * mrtr-claims (Redis): the store in which mrtr-flow claims each opened requestState, shared by every
 * replica, so the code after the last answer runs at most once per state across the fleet. Written into
 * your project by `mrtr-port port --claims redis`; you own it from then on. Needs the `redis` package.
 *
 * Environment:
 *   MRTR_CLAIMS_REDIS_URL  `redis://[[user]:password@]host[:port][/db]` (or `rediss://` for TLS) of a Redis
 *                          every replica shares. Required in production (NODE_ENV production or prod): the
 *                          server fails at start-up without it. Elsewhere, without it, claims stay in this
 *                          process (one warning).
 *
 * A claim is `SET mrtr-claim:<state id> 1 NX PX <ttl>`: atomic on the Redis server, so of any number of
 * concurrent replays on any replicas exactly one gets `OK`. It fails closed: while Redis is unreachable (or
 * slower than the timeout), a claim throws and the call is refused; it never completes unclaimed.
 * Claims are only as durable as the Redis: one that restarts without persistence, or fails over to a
 * replica that had not received a claim, forgets it (see mrtr-port docs/runtime.md).
 */
import { createClient } from 'redis';
import { ENV, defaultClaimStore, isProduction, type ClaimStore } from './mrtr-continuation.js';

/** How long a claim may wait for Redis (connecting, or the reply) before it fails closed. */
export const DEFAULT_CLAIM_TIMEOUT_MS = 2000;

export interface RedisClaimStoreOptions {
  /** `redis://…` or `rediss://…`. */
  url: string;
  /** Milliseconds a claim may wait for Redis before it throws (default 2000). */
  timeoutMs?: number;
}

export interface RedisClaimStore extends ClaimStore {
  /** Closes the connection; later claims throw. */
  close(): Promise<void>;
}

/**
 * A ClaimStore on Redis. It connects at once and reconnects by itself; a claim made while it is not
 * connected waits up to `timeoutMs` for the connection, then throws. An open connection does not keep the
 * process alive, but retrying an unreachable Redis does: `close()` the store to let a script exit then.
 * Connection errors are logged on stderr once per outage, never with the URL (it may hold a password).
 */
export function createRedisClaimStore(options: RedisClaimStoreOptions): RedisClaimStore {
  const url = checkedUrl(options.url, 'createRedisClaimStore: url');
  const timeoutMs = options.timeoutMs ?? DEFAULT_CLAIM_TIMEOUT_MS;
  if (!(Number.isInteger(timeoutMs) && timeoutMs > 0)) throw new RangeError('createRedisClaimStore: timeoutMs must be a positive whole number');
  const client = createClient({
    url,
    // While disconnected a claim fails at once instead of queueing for a reconnect that may never come.
    disableOfflineQueue: true,
    commandOptions: { timeout: timeoutMs },
    socket: { connectTimeout: timeoutMs, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** Math.min(retries, 5), 1000) },
  });
  let outage = false;
  client.on('error', (error: unknown) => {
    if (outage) return;
    outage = true;
    const reason = error instanceof Error ? error.message : String(error);
    console.error(`[mrtr-claims] the Redis claim store is unreachable (${reason}): calls that must claim are refused until it is back`);
  });
  let ready: Promise<void> | undefined;
  client.on('ready', () => {
    if (outage) console.error('[mrtr-claims] the Redis claim store is reachable again');
    outage = false;
  });
  const whenReady = (): Promise<void> => (ready ??= new Promise<void>((resolve) => client.once('ready', () => ((ready = undefined), resolve()))));
  let closed = false;
  client.connect().catch(() => undefined); // failures surface as 'error' events and as failing claims
  client.unref();

  return {
    async claim(key: string, ttlSeconds: number): Promise<boolean> {
      if (closed) throw new Error('the Redis claim store is closed');
      if (!(Number.isFinite(ttlSeconds) && ttlSeconds > 0)) throw new RangeError('claim: ttlSeconds must be a positive number');
      if (!client.isReady) await withTimeout(whenReady(), timeoutMs, `the Redis claim store is not connected (waited ${timeoutMs} ms)`);
      const reply = await client.set(key, '1', { condition: 'NX', expiration: { type: 'PX', value: Math.ceil(ttlSeconds * 1000) } });
      return reply === 'OK';
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      if (client.isReady) await client.close();
      else client.destroy();
    },
  };
}

let fromEnvironment: ClaimStore | undefined;

/** The store mrtr-flow claims opened states in: Redis at MRTR_CLAIMS_REDIS_URL, read on first use. */
export const claimStore: ClaimStore = {
  claim: (key, ttlSeconds) => (fromEnvironment ??= claimStoreFromEnvironment()).claim(key, ttlSeconds),
};

function claimStoreFromEnvironment(): ClaimStore {
  const env = (globalThis as unknown as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const url = env?.[ENV.claimsRedisUrl]?.trim();
  if (url) return createRedisClaimStore({ url: checkedUrl(url, ENV.claimsRedisUrl) });
  if (isProduction(env)) {
    throw new Error(
      `${ENV.claimsRedisUrl} is not set: in production every replica must claim requestStates in the same Redis, ` +
        `or a replayed final round completes once per replica. Set it to redis://host:port (rediss:// for TLS).`,
    );
  }
  console.warn(
    `[mrtr-claims] ${ENV.claimsRedisUrl} is not set: claims are recorded in this process only. ` +
      `Set it on every replica so a replayed final round cannot complete twice.`,
  );
  return defaultClaimStore();
}

/** The URL if it is a redis: or rediss: URL; otherwise an Error naming `label`, never quoting the URL. */
function checkedUrl(url: unknown, label: string): string {
  let protocol: string | undefined;
  try {
    protocol = typeof url === 'string' ? new URL(url).protocol : undefined;
  } catch {
    protocol = undefined;
  }
  if (protocol !== 'redis:' && protocol !== 'rediss:') {
    throw new Error(`${label} must be a redis:// or rediss:// URL (e.g. redis://redis.internal:6379)`);
  }
  return url as string;
}

function withTimeout(promise: Promise<void>, ms: number, message: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(message)), ms);
    promise.then(
      () => (clearTimeout(timer), resolve()),
      (error: unknown) => (clearTimeout(timer), reject(error)),
    );
  });
}

// In production a missing or malformed MRTR_CLAIMS_REDIS_URL fails here, when the server starts.
if (isProduction()) fromEnvironment ??= claimStoreFromEnvironment();
