/**
 * mrtr-continuation: sealed, bound, expiring `requestState` for MCP Multi Round-Trip Requests
 * (protocol revision 2026-07-28), plus the two helpers ported handlers call.
 *
 * Written into your project by mrtr-port; you own it from then on. No dependencies: WebCrypto only, so it
 * runs on Node >= 20, workers and edge runtimes alike.
 *
 * The client echoes `requestState` verbatim, so it is attacker-controlled input. `seal` encrypts it with
 * AES-256-GCM (the client can neither read nor change it) and binds it to the audience, the principal,
 * the request (method, tool/prompt/resource name, digest of the arguments) and the step; `open` answers
 * `undefined` for anything that is not exactly that, and never throws.
 *
 * Environment (read once, on first use; in production also on import):
 *   MRTR_STATE_KEYS         comma-separated secrets, each >= 32 bytes; the first seals, all open (rotation).
 *                           The same value on every replica. Required in production (NODE_ENV=production
 *                           or prod, any case).
 *   MRTR_STATE_TTL_SECONDS  how long a sealed state stays valid: whole seconds, 1 to 86400 (default 300).
 *   MRTR_STATE_AUDIENCE     this server's name; states sealed for another audience do not open (default 'mcp-server').
 *   MCP_ALLOWED_ROOTS       roots served by `rootsFromConfig()` instead of asking the client (`roots/list`).
 *
 * Wire format: `v1.<key id>.<base64url(nonce[12] | ciphertext | tag[16])>`; see mrtr-port docs/runtime.md.
 */

// ---------------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------------

/** What seal/open read from a handler context. A `@modelcontextprotocol/server` ServerContext fits. */
export interface ContinuationContext {
  mcpReq: { method: string };
  /** The principal: `authInfo.clientId` and every claim in `authInfo.extra` except the per-token ones
   *  (`iat`, `exp`, `nbf`, `auth_time`, `jti`), with their types (`sub: 42` is not `sub: '42'`). */
  http?: { authInfo?: { clientId?: unknown; extra?: Record<string, unknown> } };
}

/** The request a state is minted for. Only a digest of it goes into the state, never the arguments. */
export interface Bind {
  readonly method: string;
  readonly name: string;
  readonly args: unknown;
}

/** What a handler seals: the step (question) it is asking, the bind, and answers carried from earlier rounds. */
export interface SealedPayload {
  step: string;
  bind: Bind;
  [carried: string]: unknown;
}

/** An opened state: its payload, and what `claimOnce` needs to let it complete at most once. */
export interface OpenedState<T> {
  /** The sealed payload minus `bind`: `{ step, ...carried }`. */
  payload: T;
  /** Unique per sealed state: a random nonce sealed inside it (never derived from client input). */
  id: string;
  /** When the state dies, in unix seconds (millisecond precision, so possibly fractional). */
  expiresAt: number;
}

/** What `open` and `openState` read from the handler context. */
export type OpenContext = ContinuationContext & { mcpReq: { requestState?: () => unknown } };

export interface Continuation {
  /** A sealed `requestState` string for `payload`; `payload.bind` is stored as a digest only. */
  seal(ctx: ContinuationContext, payload: SealedPayload): Promise<string>;
  /** The payload (minus `bind`) if the state is valid, unexpired, from this audience/principal and minted
   *  for exactly this bind; otherwise undefined. `ctx.mcpReq.requestState()` gives the raw wire string. */
  open<T extends { step: string } = { step: string; [k: string]: unknown }>(ctx: OpenContext, bind: Bind): Promise<T | undefined>;
  /** Like `open`, with the state's id and expiry for `claimOnce`. Never throws. */
  openState<T = { step: string; [k: string]: unknown }>(ctx: OpenContext, bind: Bind): Promise<OpenedState<T> | undefined>;
}

export interface ContinuationOptions {
  /** Secrets, each at least 32 bytes (UTF-8). The first seals; every one opens. */
  keys: readonly string[];
  /** Validity of a sealed state, in seconds: more than 0, at most 86400 (default 300). */
  ttlSeconds?: number;
  /** This server's name: a state sealed for another audience does not open (default 'mcp-server'). */
  audience?: string;
  /** Tolerated clock difference between replicas, in seconds (default 5): how far in the future a state may be
   *  dated, and how much longer than its state a claim lives. Never extends a state past its expiry. */
  clockSlackSeconds?: number;
  /** Clock in milliseconds since the epoch (default `Date.now`); injectable for tests. */
  now?: () => number;
}

/**
 * `bind` for this request: the method from `ctx`, the tool/prompt/resource name and its arguments (or
 * `undefined` when it has none). The arguments must be JSON: a non-finite number, a bigint, a Date or
 * another non-plain object throws a TypeError naming where it is, here and at seal (bind the request's
 * arguments as they came off the wire, before a schema coerces them).
 */
export function bindRequest(ctx: ContinuationContext, name: string, args: unknown): Bind {
  if (typeof name !== 'string') throw new TypeError('bindRequest: name must be a string');
  if (args !== undefined) canonicalJson(args, 'bindRequest: args');
  return Object.freeze({ method: String(ctx.mcpReq.method), name, args });
}

export const DEFAULT_TTL_SECONDS = 300;
/** The longest TTL a state may have (one day): claims must outlive states, so states must not live for ever. */
export const MAX_TTL_SECONDS = 86_400;
export const DEFAULT_CLOCK_SLACK_SECONDS = 5;
export const DEFAULT_AUDIENCE = 'mcp-server';
export const MIN_SECRET_BYTES = 32;
/** Longest wire state accepted or produced: bigger input is rejected before any decoding. */
export const MAX_STATE_CHARS = 64 * 1024;

export const ENV = {
  keys: 'MRTR_STATE_KEYS',
  ttl: 'MRTR_STATE_TTL_SECONDS',
  audience: 'MRTR_STATE_AUDIENCE',
  roots: 'MCP_ALLOWED_ROOTS',
  /** Read by the Redis claim store (mrtr-claims-redis), not by this file. */
  claimsRedisUrl: 'MRTR_CLAIMS_REDIS_URL',
} as const;

/** A continuation over explicit keys. Throws on bad options (short key, bad TTL); never reads the environment. */
export function createContinuation(options: ContinuationOptions): Continuation {
  const config = checkOptions(options, 'createContinuation: keys');
  const sealer = new Sealer(config);
  const api: Continuation = {
    seal: (ctx, payload) => sealer.seal(ctx, payload),
    open: async (ctx, bind) => (await sealer.openState<never>(ctx, bind))?.payload,
    openState: (ctx, bind) => sealer.openState(ctx, bind),
  };
  sealers.set(api, () => sealer);
  return api;
}

/**
 * The default continuation, configured from the environment on first use. With NODE_ENV=production this
 * module already validated the configuration on import (a missing or short key throws there); elsewhere,
 * without MRTR_STATE_KEYS, it seals with a per-process random key and warns once on stderr.
 */
export const continuation: Continuation = {
  seal: async (ctx, payload) => defaultSealer().seal(ctx, payload),
  open: async (ctx, bind) => (await openWithDefault<never>(ctx, bind))?.payload,
  openState: (ctx, bind) => openWithDefault(ctx, bind),
};

async function openWithDefault<T>(ctx: OpenContext, bind: Bind): Promise<OpenedState<T> | undefined> {
  let sealer: Sealer;
  try {
    sealer = defaultSealer();
  } catch {
    return undefined; // a configuration error surfaces from seal and at start-up, never from open
  }
  return sealer.openState<T>(ctx, bind);
}

/** What the default continuation runs with; never the secrets. */
export interface ContinuationStatus {
  keyCount: number;
  /** True when no MRTR_STATE_KEYS was set outside production: states die with this process. */
  ephemeralKey: boolean;
  ttlSeconds: number;
  audience: string;
}

/**
 * Configures the default continuation from the environment now instead of on first use, and says how.
 * Throws an Error naming the variable when MRTR_STATE_KEYS is missing in production, or when any variable
 * is malformed. Optional: in production the same check already runs when this module is imported.
 */
export function assertContinuationConfigured(): ContinuationStatus {
  const sealer = defaultSealer();
  const { keys, ttlMs, audience } = sealer.config;
  return { keyCount: keys.length, ephemeralKey: sealer.ephemeral, ttlSeconds: ttlMs / 1000, audience };
}

/** The handle `ctx.mcpReq.requestState()` yields when `requestStateVerifier` is the SDK's verify seam. */
export interface VerifiedRequestState {
  readonly verified: true;
}

/**
 * For `new McpServer(info, { requestState: { verify: requestStateVerifier() } })`: the SDK then rejects a
 * forged, expired, foreign-audience or foreign-principal state with -32602 before the handler runs. It cannot
 * check the bind (the arguments are not in the context), so handlers still call `continuation.open(ctx, bind)`,
 * which accepts the opaque handle this verifier resolves with.
 */
export function requestStateVerifier(
  target: Continuation = continuation,
): (state: string, ctx: ContinuationContext) => Promise<VerifiedRequestState> {
  const sealerOf = sealers.get(target);
  if (sealerOf === undefined) throw new TypeError('requestStateVerifier: not a continuation from this module');
  return async (state, ctx) => {
    let envelope: Envelope | undefined;
    let sealer: Sealer | undefined;
    try {
      sealer = sealerOf();
      envelope = await sealer.unseal(state, ctx);
    } catch {
      envelope = undefined;
    }
    if (envelope === undefined || sealer === undefined) throw new Error('invalid requestState'); // no reason, no payload
    const handle: VerifiedRequestState = Object.freeze({ verified: true as const });
    verifiedStates.set(handle, { sealer, raw: state, envelope });
    return handle;
  };
}

// ---------------------------------------------------------------------------------------------------
// At-most-once guard
// ---------------------------------------------------------------------------------------------------

/**
 * Where `claimOnce` records claims. `claim` must be atomic across every replica that shares the store:
 * record `key` for `ttlSeconds` (a whole number, at least 1) unless it is already recorded and unexpired,
 * and answer whether THIS call recorded it. When the store cannot tell (unreachable, timed out), throw:
 * never answer true on error. Keys are opaque, at most 200 characters. Redis: `SET key 1 NX PX ttl`
 * (mrtr-claims-redis). SQL: a unique key and an expiry column, expired rows deleted in the same
 * transaction, `ON CONFLICT DO NOTHING`; one row inserted means true. `claimStoreConformance` (mrtr-port)
 * checks a store.
 */
export interface ClaimStore {
  claim(key: string, ttlSeconds: number): boolean | Promise<boolean>;
}

/** A single-process ClaimStore. With several replicas use a shared store (see ClaimStore). */
export class MemoryClaimStore implements ClaimStore {
  private readonly expiries = new Map<string, number>();
  private readonly now: () => number;
  private readonly maxEntries: number;

  constructor(options: { now?: () => number; maxEntries?: number } = {}) {
    this.now = options.now ?? Date.now;
    this.maxEntries = options.maxEntries ?? 100_000;
  }

  claim(key: string, ttlSeconds: number): boolean {
    const now = this.now();
    const expiry = this.expiries.get(key);
    if (expiry !== undefined && expiry > now) return false;
    if (expiry === undefined && this.expiries.size >= this.maxEntries) {
      for (const [k, e] of this.expiries) if (e <= now) this.expiries.delete(k);
      // Failing closed: forgetting a live claim would let a replay through.
      if (this.expiries.size >= this.maxEntries) throw new Error('MemoryClaimStore is full: raise maxEntries or use a shared store');
    }
    this.expiries.set(key, now + ttlSeconds * 1000);
    return true;
  }
}

/** Prefix of every key `claimOnce` hands a store, so claims share a Redis or a table with other data safely. */
export const CLAIM_KEY_PREFIX = 'mrtr-claim:';

let processClaimStore: MemoryClaimStore | undefined;
let warnedMemoryClaims = false;

/**
 * The per-process MemoryClaimStore `claimOnce` uses when given no store. In production (NODE_ENV
 * production or prod) the first call warns once on stderr that its claims do not span replicas; the
 * generated mrtr-claims file calls it at start-up, so the warning comes when the server starts.
 */
export function defaultClaimStore(): ClaimStore {
  if (processClaimStore === undefined) {
    processClaimStore = new MemoryClaimStore();
    if (!warnedMemoryClaims && isProduction(processEnv())) {
      warnedMemoryClaims = true;
      console.warn(
        '[mrtr-continuation] claims are recorded in this process only (MemoryClaimStore): with more than one replica, ' +
          'a replayed final round can complete once on each. Port with `--claims redis` and set MRTR_CLAIMS_REDIS_URL, ' +
          'or pass a shared ClaimStore.',
      );
    }
  }
  return processClaimStore;
}

/**
 * Claims an opened state for completion: true the first time, false for every replay of the same state
 * (on any replica sharing the store) for as long as it could still open. Guard the code after the last
 * answer with it. The claim lives for the state's remaining lifetime plus the clock slack of the
 * continuation that opened it (a replica whose clock lags still opens the state that long). A store error
 * rejects (the side effect must not run); the store then may or may not hold the claim, so a replay of
 * that state may be refused too: the user starts the call again.
 */
export async function claimOnce(opened: OpenedState<unknown>, options: { store?: ClaimStore } = {}): Promise<boolean> {
  const { id, expiresAt } = isRecord(opened) ? opened : ({} as Record<string, unknown>);
  if (typeof id !== 'string' || !STATE_ID.test(id) || typeof expiresAt !== 'number' || !Number.isFinite(expiresAt)) {
    throw new TypeError('claimOnce: pass the state continuation.openState() returned');
  }
  const clock = openers.get(opened) ?? { now: Date.now, slackMs: DEFAULT_CLOCK_SLACK_SECONDS * 1000 };
  const remainingMs = Math.max(0, expiresAt * 1000 - clock.now());
  const ttlSeconds = Math.max(1, Math.ceil((remainingMs + clock.slackMs) / 1000));
  const store = options.store ?? defaultClaimStore();
  let claimed: unknown;
  try {
    claimed = await store.claim(`${CLAIM_KEY_PREFIX}${id}`, ttlSeconds);
  } catch (error) {
    // the cause as ES2022's `{ cause }` option sets it, written so the helper type-checks with an older `lib`
    throw Object.defineProperty(new Error('claimOnce: the claim store failed, so the call must not complete'), 'cause', { value: error, writable: true, configurable: true });
  }
  return claimed === true;
}

// ---------------------------------------------------------------------------------------------------
// Elicitation answers and configured roots
// ---------------------------------------------------------------------------------------------------

export type ElicitAnswer =
  | { action: 'accept'; content: Record<string, string | number | boolean | string[]> }
  | { action: 'decline'; content?: undefined }
  | { action: 'cancel'; content?: undefined };

type FlatValue = string | number | boolean | string[];

/** The current round's answer to `key` as an ElicitResult-shaped value, or undefined when it is missing,
 *  not an elicitation answer (`{ action }` structurally, as the SDK's `inputResponse` does), or an accept whose
 *  content does not satisfy the FLAT elicitation `requestedSchema` (properties of type string (minLength,
 *  maxLength, format email/uri/date/date-time loosely), number/integer (minimum/maximum), boolean, enum /
 *  oneOf const, array of enum strings; `required`). Unknown extra properties are dropped. Never throws.
 *  A Standard Schema (e.g. zod) is accepted too and validated synchronously. */
export function elicitationAnswer(responses: unknown, key: string, requestedSchema: unknown): ElicitAnswer | undefined {
  try {
    if (!isRecord(responses) || typeof key !== 'string' || !Object.prototype.hasOwnProperty.call(responses, key)) return undefined;
    const entry = responses[key];
    if (!isRecord(entry)) return undefined;
    const { action, content: sent } = entry;
    if (action === 'decline' || action === 'cancel') return { action };
    if (action !== 'accept') return undefined;
    const content = sent === undefined ? {} : sent; // an accept of a form with no required field
    if (!isRecord(content)) return undefined;
    const accepted = isStandardSchema(requestedSchema)
      ? viaStandardSchema(content, requestedSchema)
      : viaFlatSchema(content, requestedSchema);
    return accepted === undefined ? undefined : { action: 'accept', content: accepted };
  } catch {
    return undefined;
  }
}

/** Roots from configuration instead of `roots/list`: `MCP_ALLOWED_ROOTS`, comma-separated root URIs
 *  (`file:///srv/data`) or absolute paths (turned into file:// URIs), shaped like the legacy ListRootsResult.
 *  Empty/unset → `{ roots: [] }`. A relative path is an Error naming the variable. */
export function rootsFromConfig(env: Record<string, string | undefined> | undefined = processEnv()): {
  roots: { uri: string; name?: string }[];
} {
  const configured = env?.[ENV.roots] ?? '';
  const roots: { uri: string }[] = [];
  const seen = new Set<string>();
  configured.split(',').forEach((part, index) => {
    const entry = part.trim();
    if (entry === '') return;
    const uri = rootUri(entry);
    if (uri === undefined) {
      throw new Error(`${ENV.roots} entry ${index + 1} (${JSON.stringify(entry)}) is neither a URI such as file:///srv/data nor an absolute path`);
    }
    if (!seen.has(uri)) {
      seen.add(uri);
      roots.push({ uri });
    }
  });
  return { roots };
}

// ---------------------------------------------------------------------------------------------------
// Sealing: payload checks, bind digest, freshness and open, the same whatever protects the wire string
// ---------------------------------------------------------------------------------------------------

interface Config {
  keys: readonly string[];
  ttlMs: number;
  slackMs: number;
  audience: string;
  now: () => number;
}

/** The protected payload: state id (random), bind digest, issued/expiry (ms), and the payload without `bind`. */
interface Envelope {
  n: string;
  d: string;
  i: number;
  e: number;
  p: { step: string; [carried: string]: unknown };
}

/** A state id: 16 random bytes, base64url. */
const STATE_ID = /^[A-Za-z0-9_-]{22}$/;
const STATE_ID_BYTES = 16;

/** How an envelope becomes a wire string and back: the one part that differs between helper variants. */
interface Codec {
  /** The wire string for `envelope` (`json` is its serialization), bound to ctx's audience and principal. */
  seal(ctx: ContinuationContext, envelope: Envelope, json: string): Promise<string>;
  /** The decoded envelope if `state` is authentic and bound to ctx's audience and principal, else undefined. */
  unseal(state: string, ctx: ContinuationContext): Promise<unknown>;
}

class Sealer {
  readonly config: Config;
  readonly ephemeral: boolean;
  private readonly codec: Codec;

  constructor(config: Config, ephemeral = false) {
    this.config = config;
    this.ephemeral = ephemeral;
    this.codec = createCodec(config);
  }

  async seal(ctx: ContinuationContext, payload: SealedPayload): Promise<string> {
    if (!isRecord(payload) || typeof payload.step !== 'string') throw new TypeError('continuation.seal: payload.step must be a string');
    const { bind, ...carried } = payload;
    if (!isBind(bind)) throw new TypeError('continuation.seal: payload.bind must come from bindRequest()');
    const issued = this.config.now();
    const id = base64UrlEncode(webCrypto().getRandomValues(new Uint8Array(STATE_ID_BYTES)));
    const digest = await bindDigest(bind, 'continuation.seal: bind.args');
    const envelope: Envelope = { n: id, d: digest, i: issued, e: issued + this.config.ttlMs, p: carried as Envelope['p'] };
    let json: string;
    try {
      json = JSON.stringify(envelope);
    } catch {
      throw new TypeError('continuation.seal: the carried payload must be JSON-serializable'); // never echo the payload
    }
    principalOf(ctx, 'continuation.seal'); // an authInfo the principal cannot bind is an error here, not a silent mismatch
    const state = await this.codec.seal(ctx, envelope, json);
    if (state.length > MAX_STATE_CHARS) {
      throw new RangeError(`continuation.seal: the sealed state is ${state.length} characters, over the ${MAX_STATE_CHARS} limit; carry ids instead of content`);
    }
    return state;
  }

  async openState<T>(ctx: OpenContext, bind: Bind): Promise<OpenedState<T> | undefined> {
    try {
      const value = stateValue(ctx);
      let envelopePromise: Promise<Envelope | undefined>;
      if (typeof value === 'string') envelopePromise = this.unseal(value, ctx);
      else {
        const verified = typeof value === 'object' && value !== null ? verifiedStates.get(value) : undefined;
        if (verified === undefined) return undefined;
        envelopePromise =
          verified.sealer === this && this.fresh(verified.envelope) ? Promise.resolve(verified.envelope) : this.unseal(verified.raw, ctx);
      }
      const [envelope, digest] = await Promise.all([envelopePromise, bindDigest(bind, 'continuation.open: bind.args')]);
      if (envelope === undefined || !constantTimeEqual(envelope.d, digest)) return undefined;
      const opened: OpenedState<T> = { payload: { ...envelope.p } as T, id: envelope.n, expiresAt: envelope.e / 1000 };
      openers.set(opened, { now: this.config.now, slackMs: this.config.slackMs });
      return opened;
    } catch {
      return undefined;
    }
  }

  /** The envelope of a well-formed, authentic, current state for this audience and principal, else undefined. */
  async unseal(state: unknown, ctx: ContinuationContext): Promise<Envelope | undefined> {
    if (typeof state !== 'string' || state.length > MAX_STATE_CHARS) return undefined;
    const envelope = parseEnvelope(await this.codec.unseal(state, ctx));
    return envelope !== undefined && this.fresh(envelope) ? envelope : undefined;
  }

  /** Dead at its expiry on every replica; the slack only lets a state dated a little in the future open. */
  private fresh(envelope: Envelope): boolean {
    const now = this.config.now();
    return now < envelope.e && envelope.i <= now + this.config.slackMs;
  }
}

function parseEnvelope(value: unknown): Envelope | undefined {
  if (!isRecord(value)) return undefined;
  const { n, d, i, e, p } = value;
  if (typeof n !== 'string' || !STATE_ID.test(n) || typeof d !== 'string' || !Number.isFinite(i) || !Number.isFinite(e) || !isRecord(p)) {
    return undefined;
  }
  const { step } = p;
  return typeof step === 'string' ? { n, d, i: i as number, e: e as number, p: { ...p, step } } : undefined;
}

// #region codec: AES-256-GCM with HKDF-derived keys (the SDK-codec variant of this file differs only here)

const WIRE_VERSION = 'v1';
const HKDF_SALT = 'mrtr-continuation/v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID_BYTES = 8;
const KEY_ID_CHARS = 11; // base64url of 8 bytes

interface DerivedKey {
  id: string;
  key: unknown;
}

/** `v1.<key id>.<base64url(nonce | ciphertext | tag)>`; audience and principal are associated data. */
function createCodec(config: Config): Codec {
  let derived: Promise<DerivedKey[]> | undefined;
  const keys = (): Promise<DerivedKey[]> => (derived ??= Promise.all(config.keys.map(deriveKey)));
  // Authenticated, not stored: a different audience or principal fails the tag check.
  const aad = (keyId: string, ctx: ContinuationContext): Uint8Array =>
    utf8(JSON.stringify([HKDF_SALT, keyId, config.audience, principalOf(ctx)]));
  return {
    async seal(ctx, _envelope, json) {
      const [sealing] = await keys();
      if (sealing === undefined) throw new RangeError('continuation.seal: no key');
      const nonce = webCrypto().getRandomValues(new Uint8Array(NONCE_BYTES));
      const ciphertext = await webCrypto().subtle.encrypt(
        { name: 'AES-GCM', iv: nonce, additionalData: aad(sealing.id, ctx), tagLength: TAG_BYTES * 8 },
        sealing.key,
        utf8(json),
      );
      const body = new Uint8Array(NONCE_BYTES + ciphertext.byteLength);
      body.set(nonce, 0);
      body.set(new Uint8Array(ciphertext), NONCE_BYTES);
      return `${WIRE_VERSION}.${sealing.id}.${base64UrlEncode(body)}`;
    },
    async unseal(state, ctx) {
      // Every check before decryption looks only at attacker-supplied bytes, never at secret ones.
      const parts = state.split('.');
      if (parts.length !== 3) return undefined;
      const [version, keyId = '', encoded = ''] = parts;
      if (version !== WIRE_VERSION || keyId.length !== KEY_ID_CHARS) return undefined;
      const body = base64UrlDecode(encoded);
      if (body === undefined || body.length < NONCE_BYTES + TAG_BYTES + 2) return undefined;
      for (const candidate of await keys()) {
        if (candidate.id !== keyId) continue;
        try {
          const plaintext = await webCrypto().subtle.decrypt(
            { name: 'AES-GCM', iv: body.subarray(0, NONCE_BYTES), additionalData: aad(keyId, ctx), tagLength: TAG_BYTES * 8 },
            candidate.key,
            body.subarray(NONCE_BYTES),
          );
          return JSON.parse(new TextDecoder().decode(plaintext)) as unknown;
        } catch {
          continue; // tampered, or another key with a colliding id: the tag check failed
        }
      }
      return undefined;
    },
  };
}

/** Per-purpose keys from one secret (HKDF-SHA-256): the AES-256-GCM key, and a public key id. */
async function deriveKey(secret: string): Promise<DerivedKey> {
  const subtle = webCrypto().subtle;
  const base = await subtle.importKey('raw', utf8(secret), 'HKDF', false, ['deriveKey', 'deriveBits']);
  const hkdf = (info: string) => ({ name: 'HKDF', hash: 'SHA-256', salt: utf8(HKDF_SALT), info: utf8(info) });
  const [key, id] = await Promise.all([
    subtle.deriveKey(hkdf('requestState/aes-256-gcm'), base, { name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']),
    subtle.deriveBits(hkdf('requestState/key-id'), base, KEY_ID_BYTES * 8),
  ]);
  return { key, id: base64UrlEncode(new Uint8Array(id)) };
}

// #endregion codec

/** Per bind, the last digest: a round opens and seals with one bind, so it is hashed once (unless changed). */
const digests = new WeakMap<Bind, { json: string; digest: Promise<string> }>();

/** SHA-256 over the canonical JSON of method, name and arguments (absent: a two-element list), the request
 *  identity, never the arguments. Throws a TypeError naming `label` when the arguments are not JSON. */
function bindDigest(bind: Bind, label: string): Promise<string> {
  const request = `${JSON.stringify(bind.method)},${JSON.stringify(bind.name)}`;
  const json = bind.args === undefined ? `[${request}]` : `[${request},${canonicalJson(bind.args, label)}]`;
  const cached = digests.get(bind);
  if (cached?.json === json) return cached.digest;
  const digest = sha256(utf8(json)).then(base64UrlEncode);
  digests.set(bind, { json, digest });
  return digest;
}

function isBind(value: unknown): value is Bind {
  if (!isRecord(value)) return false;
  const { method, name } = value;
  return typeof method === 'string' && typeof name === 'string' && 'args' in value;
}

/** Claims that change with every token of one user, not between users: binding them would break a flow
 *  at a token refresh and tell no one apart. */
const PER_TOKEN_CLAIMS = new Set(['iat', 'exp', 'nbf', 'auth_time', 'jti']);

/**
 * The principal a state is bound to, as one string: null without `authInfo`, otherwise the typed encoding
 * of `clientId` and of every claim in `authInfo.extra` but the per-token ones. The token, its scopes and
 * expiry are not identity. Throws a TypeError naming `label` for a value it cannot encode (a function, a
 * class instance, a cycle); `open` turns that into undefined.
 */
function principalOf(ctx: ContinuationContext, label = 'continuation.open'): string | null {
  const auth: unknown = ctx.http?.authInfo;
  if (auth === undefined || auth === null) return null;
  if (!isRecord(auth)) throw new TypeError(`${label}: ctx.http.authInfo must be an object`);
  const { clientId, extra } = auth;
  const claims: Record<string, unknown> = {};
  if (extra !== undefined) {
    if (!isRecord(extra)) throw new TypeError(`${label}: authInfo.extra must be an object`);
    for (const name of Object.keys(extra)) if (!PER_TOKEN_CLAIMS.has(name)) claims[name] = extra[name];
  }
  return typedJson({ clientId, extra: claims }, `${label}: authInfo`);
}

/** What `ctx.mcpReq.requestState()` yields: the wire string, a verify-seam handle, or anything else. */
function stateValue(ctx: { mcpReq: { requestState?: () => unknown } }): unknown {
  const accessor = ctx.mcpReq.requestState;
  return typeof accessor === 'function' ? accessor.call(ctx.mcpReq) : undefined;
}

/** Compares two strings in time that depends on their length only. */
function constantTimeEqual(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i % (b.length || 1));
  return diff === 0;
}

/**
 * JSON with sorted object keys and no undefined members, so equal arguments always digest alike, and
 * different arguments never do: anything JSON cannot carry exactly (a non-finite number, a bigint, an
 * undefined array item, a function, a Date or another non-plain object) is a TypeError naming where it is,
 * never a silent `null`. Negative zero is written `-0` (still JSON), apart from `0`.
 */
export function canonicalJson(value: unknown, label = 'canonicalJson'): string {
  const ancestors = new Set<object>();
  const fail = (path: string, what: string): never => {
    throw new TypeError(`${label}: ${path} is ${what}, not a JSON value`);
  };
  const walk = (v: unknown, path: string): string => {
    switch (typeof v) {
      case 'string':
        return JSON.stringify(v);
      case 'number':
        if (!Number.isFinite(v)) return fail(path, String(v));
        return Object.is(v, -0) ? '-0' : JSON.stringify(v);
      case 'boolean':
        return v ? 'true' : 'false';
      case 'object':
        break;
      default:
        return fail(path, `a ${typeof v}`);
    }
    if (v === null) return 'null';
    const object = v as object;
    if (ancestors.has(object)) fail(path, 'a cycle');
    ancestors.add(object);
    let out: string;
    if (Array.isArray(object)) {
      const items: string[] = [];
      for (let i = 0; i < object.length; i++) items.push(walk(object[i], `${path}[${i}]`));
      out = `[${items.join(',')}]`;
    } else {
      const proto: unknown = Object.getPrototypeOf(object);
      if (proto !== Object.prototype && proto !== null) fail(path, `a ${kindOf(object)}`);
      const members: string[] = [];
      for (const key of Object.keys(object).sort()) {
        const member: unknown = (object as Record<string, unknown>)[key];
        if (member !== undefined) members.push(`${JSON.stringify(key)}:${walk(member, `${path}.${key}`)}`);
      }
      out = `{${members.join(',')}}`;
    }
    ancestors.delete(object);
    return out;
  };
  return walk(value, '$');
}

/**
 * An injective JSON encoding of a value that keeps types apart: strings, finite numbers, booleans and
 * null as themselves; everything else as a list tagged by its first item (arrays `["a", …]`, objects
 * `["o", key, value, …]` with sorted keys, `["n", "NaN"]`, `["-0"]`, `["i", bigint]`, `["d", Date ms]`,
 * `["u", URL]`, `["x"]` for an undefined item). Undefined members are dropped, as if absent.
 */
function typedJson(value: unknown, label: string): string {
  const ancestors = new Set<object>();
  const walk = (v: unknown, path: string): unknown => {
    switch (typeof v) {
      case 'string':
      case 'boolean':
        return v;
      case 'number':
        if (Object.is(v, -0)) return ['-0'];
        return Number.isFinite(v) ? v : ['n', String(v)];
      case 'bigint':
        return ['i', v.toString()];
      case 'undefined':
        return ['x'];
      case 'object':
        break;
      default:
        throw new TypeError(`${label}${path} is a ${typeof v}: the principal binds JSON values, bigints, Dates and URLs`);
    }
    if (v === null) return null;
    if (v instanceof Date) return ['d', String(v.getTime())];
    if (typeof URL === 'function' && v instanceof URL) return ['u', v.href];
    if (ancestors.has(v)) throw new TypeError(`${label}${path} contains a cycle`);
    const proto: unknown = Object.getPrototypeOf(v);
    if (!Array.isArray(v) && proto !== Object.prototype && proto !== null) {
      throw new TypeError(`${label}${path} is a ${kindOf(v)}: the principal binds JSON values, bigints, Dates and URLs`);
    }
    ancestors.add(v);
    let out: unknown[];
    if (Array.isArray(v)) {
      out = ['a'];
      for (let i = 0; i < v.length; i++) out.push(walk(v[i], `${path}[${i}]`));
    } else {
      out = ['o'];
      for (const key of Object.keys(v).sort()) {
        const member: unknown = (v as Record<string, unknown>)[key];
        if (member !== undefined) out.push(key, walk(member, `${path}.${key}`));
      }
    }
    ancestors.delete(v);
    return out;
  };
  return JSON.stringify(walk(value, ''));
}

/** A short name for the kind of a non-plain object, for error messages (never its content). */
function kindOf(object: object): string {
  const name: unknown = (object as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== '' ? name : 'non-plain object';
}

// ---------------------------------------------------------------------------------------------------
// Configuration
// ---------------------------------------------------------------------------------------------------

/** Sealers behind each Continuation of this module (the verify seam needs the one behind the API object). */
const sealers = new WeakMap<Continuation, () => Sealer>();
/** Handles resolved by requestStateVerifier: only this module can mint one, so a client cannot forge it. */
const verifiedStates = new WeakMap<object, { sealer: Sealer; raw: string; envelope: Envelope }>();
sealers.set(continuation, defaultSealer);
/** The clock and slack of the continuation behind each OpenedState, for the TTL of its claim. */
const openers = new WeakMap<object, { now: () => number; slackMs: number }>();

function checkOptions(options: ContinuationOptions, keysLabel: string): Config {
  if (!isRecord(options)) throw new TypeError('createContinuation: options must be an object');
  const { keys } = options;
  if (!Array.isArray(keys) || keys.length === 0) throw new RangeError(`${keysLabel} must hold at least one secret`);
  keys.forEach((secret: unknown, index: number) => {
    if (typeof secret !== 'string') throw new TypeError(`${keysLabel}: secret ${index + 1} is not a string`);
    const bytes = utf8(secret).length;
    if (bytes < MIN_SECRET_BYTES) {
      throw new RangeError(`${keysLabel}: secret ${index + 1} of ${keys.length} is ${bytes} bytes; each must be at least ${MIN_SECRET_BYTES} bytes`);
    }
  });
  const ttlSeconds = options.ttlSeconds ?? DEFAULT_TTL_SECONDS;
  if (typeof ttlSeconds !== 'number' || !(ttlSeconds > 0 && ttlSeconds <= MAX_TTL_SECONDS)) {
    throw new RangeError(`createContinuation: ttlSeconds must be more than 0 and at most ${MAX_TTL_SECONDS}`);
  }
  const slack = options.clockSlackSeconds ?? DEFAULT_CLOCK_SLACK_SECONDS;
  if (typeof slack !== 'number' || !Number.isFinite(slack) || slack < 0) {
    throw new RangeError('createContinuation: clockSlackSeconds must be a non-negative number');
  }
  const audience = options.audience ?? DEFAULT_AUDIENCE;
  if (typeof audience !== 'string') throw new TypeError('createContinuation: audience must be a string');
  const now = options.now ?? Date.now;
  if (typeof now !== 'function') throw new TypeError('createContinuation: now must be a function');
  webCrypto(); // fail at configuration, not at the first request, on a platform without WebCrypto
  return { keys: [...keys], ttlMs: ttlSeconds * 1000, slackMs: slack * 1000, audience, now };
}

let defaultInstance: Sealer | undefined;
let warnedEphemeral = false;

function defaultSealer(): Sealer {
  defaultInstance ??= sealerFromEnv(processEnv() ?? {});
  return defaultInstance;
}

function sealerFromEnv(env: Record<string, string | undefined>): Sealer {
  const keys = (env[ENV.keys] ?? '')
    .split(',')
    .map((secret) => secret.trim())
    .filter((secret) => secret !== '');
  const production = isProduction(env);
  const ttlText = env[ENV.ttl]?.trim();
  const ttlSeconds = ttlText ? Number(ttlText) : DEFAULT_TTL_SECONDS;
  if (ttlText && !(/^[0-9]+$/.test(ttlText) && ttlSeconds >= 1 && ttlSeconds <= MAX_TTL_SECONDS)) {
    throw new Error(`${ENV.ttl} must be a whole number of seconds from 1 to ${MAX_TTL_SECONDS} (got ${JSON.stringify(ttlText)})`);
  }
  const audience = env[ENV.audience]?.trim() || DEFAULT_AUDIENCE;
  if (keys.length === 0) {
    if (production) {
      throw new Error(
        `${ENV.keys} is not set: in production (NODE_ENV=${env['NODE_ENV'] ?? ''}) every replica must seal requestState with the same secret. ` +
          `Set ${ENV.keys} to one or more comma-separated secrets of at least ${MIN_SECRET_BYTES} bytes (e.g. \`openssl rand -base64 48\`).`,
      );
    }
    const random = base64UrlEncode(webCrypto().getRandomValues(new Uint8Array(32)));
    if (!warnedEphemeral) {
      warnedEphemeral = true;
      console.warn(
        `[mrtr-continuation] ${ENV.keys} is not set: sealing requestState with a per-process random key. ` +
          `Multi-round requests will not survive a restart or reach another replica; set ${ENV.keys} on every replica.`,
      );
    }
    return new Sealer(checkOptions({ keys: [random], ttlSeconds, audience }, ENV.keys), true);
  }
  return new Sealer(checkOptions({ keys, ttlSeconds, audience }, ENV.keys));
}

/** Whether this runs in production: NODE_ENV `production` or `prod`, in any case, spaces around ignored. */
export function isProduction(env: Record<string, string | undefined> | undefined = processEnv()): boolean {
  return /^(production|prod)$/i.test(env?.['NODE_ENV']?.trim() ?? '');
}

function processEnv(): Record<string, string | undefined> | undefined {
  // `process` is absent on workers and edge runtimes; guard it without depending on Node's types.
  const host = globalThis as unknown as { process?: { env?: Record<string, string | undefined> } };
  return host.process?.env;
}

// ---------------------------------------------------------------------------------------------------
// Platform: WebCrypto (typed here so the file needs neither DOM nor Node type declarations), bytes
// ---------------------------------------------------------------------------------------------------

interface SubtleLike {
  importKey(format: 'raw', keyData: Uint8Array, algorithm: string, extractable: boolean, usages: string[]): Promise<unknown>;
  deriveKey(algorithm: object, baseKey: unknown, derivedKeyType: object, extractable: boolean, usages: string[]): Promise<unknown>;
  deriveBits(algorithm: object, baseKey: unknown, length: number): Promise<ArrayBuffer>;
  encrypt(algorithm: object, key: unknown, data: Uint8Array): Promise<ArrayBuffer>;
  decrypt(algorithm: object, key: unknown, data: Uint8Array): Promise<ArrayBuffer>;
  digest(algorithm: string, data: Uint8Array): Promise<ArrayBuffer>;
}

interface CryptoLike {
  subtle: SubtleLike;
  getRandomValues<A extends Uint8Array>(array: A): A;
}

function webCrypto(): CryptoLike {
  const crypto = (globalThis as unknown as { crypto?: CryptoLike }).crypto;
  if (crypto?.subtle === undefined) throw new TypeError('mrtr-continuation needs the Web Crypto API (globalThis.crypto.subtle)');
  return crypto;
}

async function sha256(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await webCrypto().subtle.digest('SHA-256', bytes));
}

const encoder = new TextEncoder();
function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const B64URL_INDEX = new Int16Array(128).fill(-1);
for (let i = 0; i < B64URL.length; i++) B64URL_INDEX[B64URL.charCodeAt(i)] = i;

function base64UrlEncode(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  const at = (index: number): number => bytes[index] ?? 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (at(i) << 16) | (at(i + 1) << 8) | at(i + 2);
    out += B64URL.charAt(n >> 18) + B64URL.charAt((n >> 12) & 63) + B64URL.charAt((n >> 6) & 63) + B64URL.charAt(n & 63);
  }
  if (i < bytes.length) {
    const n = (at(i) << 16) | (at(i + 1) << 8);
    out += B64URL.charAt(n >> 18) + B64URL.charAt((n >> 12) & 63);
    if (i + 1 < bytes.length) out += B64URL.charAt((n >> 6) & 63);
  }
  return out;
}

/** Strict base64url without padding: any other character, a bad length or non-zero spare bits → undefined. */
function base64UrlDecode(text: string): Uint8Array | undefined {
  if (text.length % 4 === 1) return undefined;
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let bits = 0;
  let buffered = 0;
  let o = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? (B64URL_INDEX[code] ?? -1) : -1;
    if (value < 0) return undefined;
    buffered = (buffered << 6) | value;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (buffered >> bits) & 0xff;
      buffered &= (1 << bits) - 1;
    }
  }
  if (buffered !== 0) return undefined; // non-canonical: two encodings must never decode alike
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Elicitation content validation (flat schemas only)
// ---------------------------------------------------------------------------------------------------

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface StandardSchemaLike {
  '~standard': { validate: (value: unknown) => unknown };
}

function isStandardSchema(schema: unknown): schema is StandardSchemaLike {
  if ((typeof schema !== 'object' && typeof schema !== 'function') || schema === null) return false;
  const standard = (schema as { '~standard'?: unknown })['~standard'];
  if (!isRecord(standard)) return false;
  const { validate } = standard;
  return typeof validate === 'function';
}

function viaStandardSchema(content: Record<string, unknown>, schema: StandardSchemaLike): Record<string, FlatValue> | undefined {
  const result = schema['~standard'].validate(content);
  if (!isRecord(result)) return undefined;
  const { then, issues, value: output } = result;
  if (typeof then === 'function' || issues !== undefined || !isRecord(output)) return undefined; // async schemas are not supported
  const entries: [string, FlatValue][] = [];
  for (const [name, value] of Object.entries(output)) {
    if (value === undefined) continue;
    if (!isFlatValue(value)) return undefined;
    entries.push([name, Array.isArray(value) ? [...value] : value]);
  }
  return Object.fromEntries(entries);
}

function isFlatValue(value: unknown): value is FlatValue {
  return (
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value)) ||
    (Array.isArray(value) && value.every((item) => typeof item === 'string'))
  );
}

function viaFlatSchema(content: Record<string, unknown>, schema: unknown): Record<string, FlatValue> | undefined {
  if (!isRecord(schema)) return undefined;
  const { type, properties = {}, required = [] } = schema;
  if ((type !== undefined && type !== 'object') || !isRecord(properties) || !Array.isArray(required)) return undefined;
  for (const name of required) {
    if (typeof name !== 'string' || !Object.prototype.hasOwnProperty.call(content, name) || content[name] === undefined) return undefined;
  }
  const entries: [string, FlatValue][] = [];
  for (const [name, property] of Object.entries(properties)) {
    if (!Object.prototype.hasOwnProperty.call(content, name) || content[name] === undefined) continue;
    const value = flatValue(content[name], property);
    if (value === undefined) return undefined;
    entries.push([name, value]);
  }
  return Object.fromEntries(entries); // own data properties only, even for a key named __proto__
}

function flatValue(value: unknown, schema: unknown): FlatValue | undefined {
  if (!isRecord(schema)) return undefined;
  const { type: declared, minimum, maximum, items, minItems, maxItems } = schema;
  const type = declared ?? (choices(schema, 'oneOf') !== undefined ? 'string' : undefined);
  switch (type) {
    case 'string':
      return typeof value === 'string' && stringFits(value, schema) ? value : undefined;
    case 'number':
    case 'integer':
      if (typeof value !== 'number' || !Number.isFinite(value) || (type === 'integer' && !Number.isInteger(value))) return undefined;
      if (typeof minimum === 'number' && value < minimum) return undefined;
      if (typeof maximum === 'number' && value > maximum) return undefined;
      return value;
    case 'boolean':
      return typeof value === 'boolean' ? value : undefined;
    case 'array': {
      if (!Array.isArray(value) || !value.every((item): item is string => typeof item === 'string')) return undefined;
      const allowed = isRecord(items) ? choices(items, 'anyOf') : undefined;
      if (allowed !== undefined && !value.every((item) => allowed.includes(item))) return undefined;
      if (typeof minItems === 'number' && value.length < minItems) return undefined;
      if (typeof maxItems === 'number' && value.length > maxItems) return undefined;
      return [...value];
    }
    default:
      return undefined; // not a flat elicitation type: cannot vouch for it
  }
}

function stringFits(value: string, schema: Record<string, unknown>): boolean {
  const { minLength, maxLength, format } = schema;
  const allowed = choices(schema, 'oneOf');
  if (allowed !== undefined && !allowed.includes(value)) return false;
  const length = [...value].length; // JSON Schema counts code points
  if (typeof minLength === 'number' && length < minLength) return false;
  if (typeof maxLength === 'number' && length > maxLength) return false;
  switch (format) {
    case 'email':
      return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
    case 'uri':
      return /^[A-Za-z][A-Za-z0-9+.-]*:\S*$/.test(value);
    case 'date':
      return isDate(value);
    case 'date-time': {
      const match = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:\d{2})?$/.exec(value);
      if (match === null) return false;
      const [, date = '', hours, minutes, seconds] = match;
      return isDate(date) && Number(hours) < 24 && Number(minutes) < 60 && Number(seconds ?? 0) <= 60;
    }
    default:
      return true; // unknown formats are annotations (JSON Schema)
  }
}

function isDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (match === null) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The allowed values of an `enum` or of `oneOf`/`anyOf` `const` options; undefined when unrestricted. */
function choices(schema: Record<string, unknown>, optionsKey: 'oneOf' | 'anyOf'): unknown[] | undefined {
  const { enum: listed, [optionsKey]: options } = schema;
  if (Array.isArray(listed)) return listed;
  if (!Array.isArray(options)) return undefined;
  return options.flatMap((option: unknown) => {
    if (!isRecord(option)) return [];
    const { const: constant } = option;
    return constant === undefined ? [] : [constant];
  });
}

function rootUri(entry: string): string | undefined {
  const drive = /^([A-Za-z]):[\\/](.*)$/.exec(entry);
  if (drive !== null) return `file:///${drive[1] ?? ''}:/${encodePath((drive[2] ?? '').replace(/\\/g, '/'))}`;
  if (entry.startsWith('/')) return `file://${encodePath(entry)}`;
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(entry)) return entry;
  return undefined;
}

function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

// In production a missing or short key fails here, when the server imports its handlers at start-up.
if (isProduction(processEnv())) defaultSealer();
