/**
 * mrtr-continuation (SDK-codec variant, `mrtr-port port --codec sdk`): bound, expiring `requestState` for
 * MCP Multi Round-Trip Requests (protocol revision 2026-07-28), sealed with the SDK's own
 * `createRequestStateCodec` (HMAC-SHA-256), plus the two helpers ported handlers call.
 *
 * Written into your project by mrtr-port; you own it from then on. Same API and environment as the default
 * AES-256-GCM variant; the difference: the state is SIGNED, NOT ENCRYPTED, so the client can read (not change)
 * the step and the answers carried in it. Carry nothing the client must not see.
 *
 * Environment (read once, on first use; in production also on import):
 *   MRTR_STATE_KEYS         comma-separated secrets, each >= 32 bytes; the first seals, all open (rotation).
 *                           The same value on every replica. Required when NODE_ENV=production.
 *   MRTR_STATE_TTL_SECONDS  how long a sealed state stays valid (default 300).
 *   MRTR_STATE_AUDIENCE     this server's name; states sealed for another audience do not open (default 'mcp-server').
 *   MCP_ALLOWED_ROOTS       roots served by `rootsFromConfig()` instead of asking the client (`roots/list`).
 *
 * Wire format: the SDK codec's `v1.<base64url(JSON)>.<base64url(HMAC)>`; see mrtr-port docs/runtime.md.
 */
import { createRequestStateCodec } from '@modelcontextprotocol/server';

// ---------------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------------

/** What seal/open read from a handler context. A `@modelcontextprotocol/server` ServerContext fits. */
export interface ContinuationContext {
  mcpReq: { method: string };
  /** The principal: `authInfo.clientId`, and a subject from `authInfo.extra.sub` or `.subject` when present. */
  http?: { authInfo?: { clientId?: string; extra?: Record<string, unknown> } };
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

export interface Continuation {
  /** A sealed `requestState` string for `payload`; `payload.bind` is stored as a digest only. */
  seal(ctx: ContinuationContext, payload: SealedPayload): Promise<string>;
  /** The payload (minus `bind`) if the state is valid, unexpired, from this audience/principal and minted
   *  for exactly this bind; otherwise undefined. `ctx.mcpReq.requestState()` gives the raw wire string. */
  open<T extends { step: string } = { step: string; [k: string]: unknown }>(
    ctx: ContinuationContext & { mcpReq: { requestState?: () => unknown } },
    bind: Bind,
  ): Promise<T | undefined>;
}

export interface ContinuationOptions {
  /** Secrets, each at least 32 bytes (UTF-8). The first seals; every one opens. */
  keys: readonly string[];
  /** Validity of a sealed state, in seconds (default 300). */
  ttlSeconds?: number;
  /** This server's name: a state sealed for another audience does not open (default 'mcp-server'). */
  audience?: string;
  /** Tolerated clock difference between replicas, in seconds (default 5). */
  clockSlackSeconds?: number;
  /** Clock in milliseconds since the epoch (default `Date.now`); injectable for tests. */
  now?: () => number;
}

/** `bind` for this request: the method from `ctx`, the tool/prompt/resource name and its arguments. */
export function bindRequest(ctx: ContinuationContext, name: string, args: unknown): Bind {
  if (typeof name !== 'string') throw new TypeError('bindRequest: name must be a string');
  return Object.freeze({ method: String(ctx.mcpReq.method), name, args });
}

export const DEFAULT_TTL_SECONDS = 300;
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
} as const;

/** A continuation over explicit keys. Throws on bad options (short key, bad TTL); never reads the environment. */
export function createContinuation(options: ContinuationOptions): Continuation {
  const config = checkOptions(options, 'createContinuation: keys');
  const sealer = new Sealer(config);
  const api: Continuation = {
    seal: (ctx, payload) => sealer.seal(ctx, payload),
    open: (ctx, bind) => sealer.open(ctx, bind),
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
  open: async (ctx, bind) => {
    let sealer: Sealer;
    try {
      sealer = defaultSealer();
    } catch {
      return undefined; // a configuration error surfaces from seal and at start-up, never from open
    }
    return sealer.open(ctx, bind);
  },
};

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
 * Where `claimOnce` records keys. `claim` must be atomic across every replica that shares it: record `key`
 * for `ttlSeconds` unless it is already recorded and unexpired, and answer whether THIS call recorded it.
 * Redis: `SET key 1 NX EX ttl` → 'OK' means true. SQL: insert into a table with a unique key and an
 * expiry column (`ON CONFLICT DO NOTHING`, or delete expired rows first in the same transaction); one row
 * inserted means true. Keys are opaque, at most 200 characters.
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

const defaultClaimStore = new MemoryClaimStore();

/**
 * True the first time `key` is claimed within `ttlSeconds`, false on every later claim: guard a side effect
 * (a refund, an email) that a replayed, still-valid state would otherwise repeat. The default TTL outlives
 * the default continuation's states; the default store is per process.
 */
export async function claimOnce(key: string, options: { store?: ClaimStore; ttlSeconds?: number } = {}): Promise<boolean> {
  if (typeof key !== 'string' || key.length === 0 || key.length > 200) {
    throw new TypeError('claimOnce: key must be a non-empty string of at most 200 characters');
  }
  let ttlSeconds = options.ttlSeconds;
  if (ttlSeconds === undefined) {
    const { ttlMs, slackMs } = defaultSealer().config;
    ttlSeconds = Math.ceil((ttlMs + slackMs) / 1000);
  }
  if (!(Number.isFinite(ttlSeconds) && ttlSeconds > 0)) throw new RangeError('claimOnce: ttlSeconds must be a positive number');
  return (await (options.store ?? defaultClaimStore).claim(key, ttlSeconds)) === true;
}

/** A claim key for the state this request carries (a digest, so the state itself is never stored), or undefined. */
export async function stateClaimKey(ctx: { mcpReq: { requestState?: () => unknown } }): Promise<string | undefined> {
  const raw = rawState(ctx);
  if (raw === undefined) return undefined;
  return `mrtr-state:${base64UrlEncode(await sha256(utf8(raw)))}`;
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
    if (!isRecord(responses) || typeof key !== 'string' || !Object.hasOwn(responses, key)) return undefined;
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

/** The protected payload: bind digest, issued/expiry (ms), and the payload without `bind`. */
interface Envelope {
  d: string;
  i: number;
  e: number;
  p: { step: string; [carried: string]: unknown };
}

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
    const envelope: Envelope = { d: await bindDigest(bind), i: issued, e: issued + this.config.ttlMs, p: carried as Envelope['p'] };
    let json: string;
    try {
      json = JSON.stringify(envelope);
    } catch {
      throw new TypeError('continuation.seal: the carried payload must be JSON-serializable'); // never echo the payload
    }
    const state = await this.codec.seal(ctx, envelope, json);
    if (state.length > MAX_STATE_CHARS) {
      throw new RangeError(`continuation.seal: the sealed state is ${state.length} characters, over the ${MAX_STATE_CHARS} limit; carry ids instead of content`);
    }
    return state;
  }

  async open<T>(ctx: ContinuationContext & { mcpReq: { requestState?: () => unknown } }, bind: Bind): Promise<T | undefined> {
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
      const [envelope, digest] = await Promise.all([envelopePromise, bindDigest(bind)]);
      if (envelope === undefined || !constantTimeEqual(envelope.d, digest)) return undefined;
      return { ...envelope.p } as T;
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

  private fresh(envelope: Envelope): boolean {
    const now = this.config.now();
    return now <= envelope.e + this.config.slackMs && envelope.i <= now + this.config.slackMs;
  }
}

function parseEnvelope(value: unknown): Envelope | undefined {
  if (!isRecord(value)) return undefined;
  const { d, i, e, p } = value;
  if (typeof d !== 'string' || typeof i !== 'number' || typeof e !== 'number' || !isRecord(p)) return undefined;
  const { step } = p;
  return typeof step === 'string' ? { d, i, e, p: { ...p, step } } : undefined;
}

// #region codec: the SDK's createRequestStateCodec, HMAC-SHA-256 (signed, not encrypted: the client can read it)

/** One SDK codec per key: the first mints, every one verifies (rotation). */
function createCodec(config: Config): Codec {
  // The codec's own expiry is an outer bound only; the envelope's dates, read with config.now and the slack, decide.
  const ttlSeconds = Math.ceil((config.ttlMs + config.slackMs) / 1000) + 1;
  // The codec binds this tag to the state; a different audience or principal fails verification.
  const bind = (ctx: ContinuationContext): string => JSON.stringify([config.audience, ...principalOf(ctx)]);
  const codecs = config.keys.map((key) => createRequestStateCodec({ key, ttlSeconds, bind }));
  // The codec types its context as the SDK's ServerContext; it only hands it to `bind` above.
  type CodecContext = Parameters<(typeof codecs)[number]['verify']>[1];
  return {
    async seal(ctx, envelope) {
      const [minting] = codecs;
      if (minting === undefined) throw new RangeError('continuation.seal: no key');
      return minting.mint(envelope, ctx as CodecContext);
    },
    async unseal(state, ctx) {
      // The codec decodes leniently (atob): accept only the canonical spelling, so every state has exactly one.
      const [, mac = ''] = /^v1\.[A-Za-z0-9_-]+\.([A-Za-z0-9_-]{43})$/.exec(state) ?? [];
      if (base64UrlDecode(mac)?.length !== 32) return undefined;
      for (const codec of codecs) {
        try {
          return await codec.verify(state, ctx as CodecContext);
        } catch {
          continue; // forged, expired, foreign, or signed with another key: try the next key
        }
      }
      return undefined;
    },
  };
}

// #endregion codec

/** Per bind, the last digest: a round opens and seals with one bind, so it is hashed once (unless changed). */
const digests = new WeakMap<Bind, { json: string; digest: Promise<string> }>();

/** SHA-256 over the canonical JSON of method, name and arguments: the request identity, never the arguments. */
function bindDigest(bind: Bind): Promise<string> {
  const json = canonicalJson([bind.method, bind.name, bind.args]);
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

function principalOf(ctx: ContinuationContext): [string | null, string | null] {
  const auth = ctx.http?.authInfo;
  const clientId = typeof auth?.clientId === 'string' ? auth.clientId : null;
  const { sub, subject } = auth?.extra ?? {};
  return [clientId, typeof sub === 'string' ? sub : typeof subject === 'string' ? subject : null];
}

/** What `ctx.mcpReq.requestState()` yields: the wire string, a verify-seam handle, or anything else. */
function stateValue(ctx: { mcpReq: { requestState?: () => unknown } }): unknown {
  const accessor = ctx.mcpReq.requestState;
  return typeof accessor === 'function' ? accessor.call(ctx.mcpReq) : undefined;
}

function rawState(ctx: { mcpReq: { requestState?: () => unknown } }): string | undefined {
  const value = stateValue(ctx);
  if (typeof value === 'string') return value;
  return typeof value === 'object' && value !== null ? verifiedStates.get(value)?.raw : undefined;
}

/** Compares two strings in time that depends on their length only. */
function constantTimeEqual(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i % (b.length || 1));
  return diff === 0;
}

/** JSON with sorted object keys and no undefined members, so equal arguments always digest alike. */
export function canonicalJson(value: unknown): string {
  const ancestors = new Set<object>();
  const walk = (input: unknown, inArray: boolean): string | undefined => {
    let v = input;
    if (typeof v === 'object' && v !== null && typeof (v as { toJSON?: unknown }).toJSON === 'function') {
      v = (v as { toJSON: () => unknown }).toJSON();
    }
    switch (typeof v) {
      case 'string':
        return JSON.stringify(v);
      case 'number':
        return Number.isFinite(v) ? JSON.stringify(v) : 'null';
      case 'boolean':
        return v ? 'true' : 'false';
      case 'bigint':
        throw new TypeError('canonicalJson: a bigint is not a JSON value');
      case 'undefined':
      case 'function':
      case 'symbol':
        return inArray ? 'null' : undefined;
    }
    if (v === null) return 'null';
    const object = v as object;
    if (ancestors.has(object)) throw new TypeError('canonicalJson: the value contains a cycle');
    ancestors.add(object);
    let out: string;
    if (Array.isArray(object)) {
      out = `[${object.map((item) => walk(item, true)).join(',')}]`;
    } else {
      const members: string[] = [];
      for (const key of Object.keys(object).sort()) {
        const member = walk((object as Record<string, unknown>)[key], false);
        if (member !== undefined) members.push(`${JSON.stringify(key)}:${member}`);
      }
      out = `{${members.join(',')}}`;
    }
    ancestors.delete(object);
    return out;
  };
  return walk(value, false) ?? 'null';
}

// ---------------------------------------------------------------------------------------------------
// Configuration
// ---------------------------------------------------------------------------------------------------

/** Sealers behind each Continuation of this module (the verify seam needs the one behind the API object). */
const sealers = new WeakMap<Continuation, () => Sealer>();
/** Handles resolved by requestStateVerifier: only this module can mint one, so a client cannot forge it. */
const verifiedStates = new WeakMap<object, { sealer: Sealer; raw: string; envelope: Envelope }>();
sealers.set(continuation, defaultSealer);

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
  if (typeof ttlSeconds !== 'number' || !Number.isFinite(ttlSeconds) || ttlSeconds <= 0) {
    throw new RangeError('createContinuation: ttlSeconds must be a positive number');
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
  const production = env['NODE_ENV'] === 'production';
  const ttlText = env[ENV.ttl]?.trim();
  const ttlSeconds = ttlText ? Number(ttlText) : DEFAULT_TTL_SECONDS;
  if (!(Number.isFinite(ttlSeconds) && ttlSeconds > 0)) {
    throw new Error(`${ENV.ttl} must be a positive number of seconds (got ${JSON.stringify(ttlText)})`);
  }
  const audience = env[ENV.audience]?.trim() || DEFAULT_AUDIENCE;
  if (keys.length === 0) {
    if (production) {
      throw new Error(
        `${ENV.keys} is not set: with NODE_ENV=production every replica must seal requestState with the same secret. ` +
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
    if (typeof name !== 'string' || !Object.hasOwn(content, name) || content[name] === undefined) return undefined;
  }
  const entries: [string, FlatValue][] = [];
  for (const [name, property] of Object.entries(properties)) {
    if (!Object.hasOwn(content, name) || content[name] === undefined) continue;
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
if (processEnv()?.['NODE_ENV'] === 'production') defaultSealer();
