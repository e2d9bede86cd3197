// The Redis claim store against a real redis-server (started here on a free loopback port): the
// conformance test, claim TTL boundaries read back from Redis, and the store dying mid-run.
import { describe, it, expect, beforeAll, afterAll, vi } from 'vitest';
import { createClient } from 'redis';
import { createRedisClaimStore, type RedisClaimStore } from '../../src/runtime/mrtr-claims-redis.js';
import { claimStoreConformance } from '../../src/runtime/claim-store-conformance.js';
import { bindRequest, claimOnce, createContinuation, type Continuation, type OpenedState } from '../../src/runtime/mrtr-continuation.js';
import { CONFORMANCE_CHECKS, KEY_A, context } from './helpers.js';
import { freePort, startRedis, type RedisServer } from './redis-server.js';

let redis: RedisServer;
const stores: RedisClaimStore[] = [];
function store(url = redis.url, timeoutMs?: number): RedisClaimStore {
  const made = createRedisClaimStore(timeoutMs === undefined ? { url } : { url, timeoutMs });
  stores.push(made);
  return made;
}

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  for (const s of stores) await s.close();
  await redis?.stop();
});

async function openedState(c: Continuation): Promise<OpenedState<unknown>> {
  const ctx = context();
  const state = await c.seal(ctx, { step: 'confirm', bind: bindRequest(ctx, 'refund', { id: 1 }) });
  const retry = context(state);
  return (await c.openState(retry, bindRequest(retry, 'refund', { id: 1 })))!;
}

describe('the Redis claim store', () => {
  it('passes the claim store conformance test (4 clients, one Redis; a closed port fails closed)', async () => {
    const deadUrl = `redis://127.0.0.1:${await freePort()}`;
    vi.spyOn(console, 'error').mockImplementation(() => {}); // the unreachable store logs its outage
    const passed = await claimStoreConformance({
      make: () => store(),
      unreachable: () => store(deadUrl, 300),
      release: (s) => (s as RedisClaimStore).close(),
    });
    expect(passed).toEqual(CONFORMANCE_CHECKS);
    vi.restoreAllMocks();
  });

  it('claims with SET NX PX: the key holds the TTL claimOnce chose, read back from Redis', async () => {
    const c = createContinuation({ keys: [KEY_A], ttlSeconds: 3600, clockSlackSeconds: 5 });
    const opened = await openedState(c);
    expect(await claimOnce(opened, { store: store() })).toBe(true);
    const raw = createClient({ url: redis.url });
    await raw.connect();
    try {
      const pttl = await raw.pTTL(`mrtr-claim:${opened.id}`);
      const remainingMs = opened.expiresAt * 1000 - Date.now();
      expect(pttl).toBeGreaterThanOrEqual(remainingMs + 5000 - 1000); // the state's own life + slack (minus test latency)
      expect(pttl).toBeLessThanOrEqual(3605 * 1000);
      expect(await raw.get(`mrtr-claim:${opened.id}`)).toBe('1');
    } finally {
      await raw.close();
    }
  });

  // 3 s rather than 1 s: at load 30 on two cores, connecting a client alone has taken longer than a second
  it('TTL boundaries: a 3 s state with no slack is claimed for at most 3 s, refused within it, gone after it', async () => {
    const c = createContinuation({ keys: [KEY_A], ttlSeconds: 3, clockSlackSeconds: 0 });
    const s = store();
    const other = store(); // another replica
    const raw = createClient({ url: redis.url });
    await raw.connect();
    try {
      const opened = await openedState(c);
      const start = Date.now(); // after the seal: the state dies at or before start + 3 s
      expect(await claimOnce(opened, { store: s })).toBe(true);
      const pttl = await raw.pTTL(`mrtr-claim:${opened.id}`);
      expect(pttl).toBeGreaterThan(0);
      expect(pttl).toBeLessThanOrEqual(3000);
      expect(await claimOnce(opened, { store: other })).toBe(false); // within the state's life
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, start + 3200 - Date.now())));
      expect(await raw.exists(`mrtr-claim:${opened.id}`)).toBe(0); // the state is dead by now, and so is its claim
    } finally {
      await raw.close();
    }
  });

  it('rejects a URL that is not redis:// or rediss://, without quoting it', () => {
    expect(() => createRedisClaimStore({ url: 'http://user:hunter2@host:6379' })).toThrow(/must be a redis:\/\/ or rediss:\/\/ URL/);
    expect(() => createRedisClaimStore({ url: 'http://user:hunter2@host:6379' })).not.toThrow(/hunter2/);
    expect(() => createRedisClaimStore({ url: 'not a url' })).toThrow(/redis:\/\//);
    expect(() => createRedisClaimStore({ url: redis.url, timeoutMs: 0 })).toThrow(RangeError);
  });

  it('a closed store refuses to claim', async () => {
    const s = createRedisClaimStore({ url: redis.url });
    await s.close();
    await expect(s.claim('mrtr-claim:closed', 5)).rejects.toThrow(/closed/);
  });
});

describe('the store killed mid-run', () => {
  it('claims fail closed while it is down; with an fsync-always AOF it comes back knowing every claim it acknowledged', async () => {
    const durable = await startRedis({ persistent: true });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const s = createRedisClaimStore({ url: durable.url, timeoutMs: 500 });
    const c = createContinuation({ keys: [KEY_A] });
    let effects = 0;
    /** The final round of a call: claim, then the side effect. A failed claim refuses the call. */
    const finalRound = async (opened: OpenedState<unknown>): Promise<'done' | 'replayed' | 'refused'> => {
      try {
        if (!(await claimOnce(opened, { store: s }))) return 'replayed';
      } catch {
        return 'refused';
      }
      effects++;
      return 'done';
    };
    try {
      const before = await Promise.all(Array.from({ length: 20 }, () => openedState(c)));
      expect(await Promise.all(before.map(finalRound))).toEqual(before.map(() => 'done'));

      // Kill it while replays and new final rounds are in flight.
      const inFlight = [...before, ...(await Promise.all(Array.from({ length: 20 }, () => openedState(c))))];
      const racing = Promise.all(inFlight.map(finalRound));
      await durable.kill();
      const raced = await racing;
      expect(raced.slice(0, 20).every((r) => r !== 'done')).toBe(true); // a replay never completes again

      const during = await Promise.all([...before, ...inFlight].map(finalRound));
      expect(during.every((r) => r === 'refused')).toBe(true); // fail closed: no claim, no side effect
      expect(errors).toHaveBeenCalledWith(expect.stringMatching(/Redis claim store is unreachable/));

      await durable.restart();
      await new Promise((resolve) => setTimeout(resolve, 1500)); // the store reconnects by itself
      const after = await Promise.all(inFlight.map(finalRound));
      const completedBefore = raced.filter((r) => r === 'done').length;
      // Whatever was claimed before the kill stays claimed; what the kill refused may complete now, once.
      expect(after.slice(0, 20).every((r) => r === 'replayed')).toBe(true);
      expect(effects).toBe(20 + completedBefore + after.filter((r) => r === 'done').length);
      const again = await Promise.all(inFlight.map(finalRound));
      expect(again.every((r) => r === 'replayed')).toBe(true);
      expect(effects).toBeLessThanOrEqual(inFlight.length); // nothing ran twice
    } finally {
      await s.close();
      await durable.stop();
      vi.restoreAllMocks();
    }
  });

  it('why a deployment needs that persistence: a Redis restarted empty forgets its claims', async () => {
    const volatile = await startRedis();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const s = createRedisClaimStore({ url: volatile.url, timeoutMs: 500 });
    try {
      const opened = await openedState(createContinuation({ keys: [KEY_A] }));
      expect(await claimOnce(opened, { store: s })).toBe(true);
      await volatile.kill();
      await volatile.restart();
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(await claimOnce(opened, { store: s })).toBe(true); // the replay would complete a second time
    } finally {
      await s.close();
      await volatile.stop();
      vi.restoreAllMocks();
    }
  });
});
