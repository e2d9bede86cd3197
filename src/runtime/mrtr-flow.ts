/**
 * mrtr-flow: runs a legacy MCP handler across Multi Round-Trip Requests (protocol revision 2026-07-28)
 * so that it behaves as it did when it could `await` the client: every statement's effect happens once
 * per completed call, in order, with the same values, whichever replica serves each round.
 *
 * Written into your project by mrtr-port next to `mrtr-continuation`, which seals the state; you own it
 * from then on. A ported handler looks like the legacy one:
 *
 *   server.registerTool('refund', cfg, resumable('refund', async ({ orderId }, ctx) => {
 *     const order = await once(() => orders.get(orderId));       // runs once; later rounds replay the value
 *     const answer = await elicit({ message: `Refund ${order.total}?`, requestedSchema });
 *     if (answer.action !== 'accept') return declined(answer.action);
 *     await payments.refund(order.id);                           // runs once: after the answer, claimed
 *     return refunded();
 *   }));
 *
 * How: `resumable` runs the handler with a journal. The first ask registers an input request and stops
 * the round (a *suspension*); the journal of what ran (values of `once`, answers so far) is sealed into
 * `requestState` and the handler returns `input_required`. The client retries with the answers; the
 * handler runs again from the top, *replaying*: `once` returns the journalled value without running,
 * answered asks return their answers. At the pending ask the answer is validated; if it is valid the
 * state is claimed (at most once) and the rest runs live; if it is missing or invalid the same question
 * is asked again and nothing re-runs. See mrtr-port docs/engine.md.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { CLIENT_CAPABILITIES_META_KEY, inputRequired } from '@modelcontextprotocol/server';
import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageRequestParamsBase,
  CreateMessageRequestParamsWithTools,
  CreateMessageResult,
  CreateMessageResultWithTools,
  ElicitRequestFormParams,
  ElicitRequestURLParams,
  ElicitResult,
  InputRequest,
  InputRequiredResult,
  ListRootsResult,
  StandardSchemaV1,
} from '@modelcontextprotocol/server';
import {
  bindRequest,
  claimOnce,
  continuation as defaultContinuation,
  elicitationAnswer,
  type Bind,
  type Continuation,
  type ContinuationContext,
  type OpenedState,
} from './mrtr-continuation.js';
import { claimStore } from './mrtr-claims.js';

// ---------------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------------

export interface ResumableOptions {
  /** The connection's client capabilities, for requests that carry none (2025-era connections):
   *  e.g. `() => server.server.getClientCapabilities()`. The 2026-07-28 envelope wins when present. */
  capabilities?: () => ClientCapabilities | undefined;
  /** The continuation that seals the journal (default: the environment-configured one). */
  continuation?: Continuation;
}

/**
 * Wraps a tool, prompt or resource handler (the function given to `registerTool`, `registerPrompt`,
 * `registerResource` or a low-level `setRequestHandler` for tools/call, prompts/get, resources/read)
 * so that its asks become rounds. `name` is the registered name (bound into the state); `undefined`
 * for a low-level handler, which takes it from `request.params`. The type is the handler's own.
 */
export function resumable<F extends (...params: never[]) => unknown>(name: string | undefined, handler: F, options: ResumableOptions = {}): F {
  if (typeof handler !== 'function') throw new TypeError('resumable: the handler must be a function');
  const wrapped = async function (this: unknown, ...params: unknown[]): Promise<unknown> {
    const ctx = params[params.length - 1];
    const run = (): unknown => (handler as unknown as (...p: unknown[]) => unknown).apply(this, params);
    if (!isServerContext(ctx)) return run(); // not called by the SDK (a test calling it directly)
    const bind = bindOf(ctx, name, params.slice(0, -1));
    const sealer = options.continuation ?? defaultContinuation;
    const opened = await openJournal(sealer, ctx, bind);
    if (opened === 'invalid') throw new FlowStateError();
    // typed anew: without strictNullChecks (a user's `strict: false`) `state = undefined` below would
    // widen it back to the declared type, 'invalid' included, and this file would not build there
    let state: OpenedJournal | undefined = opened;
    if (state && isRestartRound(state)) {
      // the round answers URL steps the legacy code demanded by throwing: the legacy client then retried
      // the whole call, so the handler runs again from the start once every step is accepted
      const outcome = await restartRound(state, ctx, bind, sealer);
      if (outcome !== 'restart') return outcome;
      state = undefined;
    }
    {
      const flow = new Flow(ctx, bind, state, options);
      try {
        const result = await flows.run(flow, run);
        if (flow.suspension) return await flow.suspend(sealer);
        if (flow.replaying) throw new FlowDivergedError('the handler finished before reaching the question this round answers');
        return result;
      } catch (error) {
        // a suspension wins over whatever the code did with it (a wrapper that turned it into an error result)
        if (flow.suspension) return await flow.suspend(sealer);
        throw error;
      }
    }
  };
  Object.defineProperty(wrapped, 'length', { value: handler.length });
  Object.defineProperty(wrapped, 'name', { value: handler.name });
  return wrapped as unknown as F;
}

/**
 * Runs `compute` once per call: on the round that reaches it first; later rounds get the value it
 * produced (or the error it threw) from the sealed journal. `mutables` are objects `compute` changes in
 * place (an argument it fills in); their state after it ran is restored on later rounds. One may be
 * absent (a low-level request's optional `arguments`): then there is nothing to restore.
 * Outside a resumable handler it just runs `compute`.
 */
export async function once<T>(compute: () => T | PromiseLike<T>, ...mutables: (object | null | undefined)[]): Promise<T> {
  const flow = flows.getStore();
  if (!flow) return await compute();
  return flow.once(compute, mutables);
}

/**
 * A local variable `compute` assigns (a callback's `total = r.status`), for `once(compute, binding(…))`:
 * its value after `compute` ran is journalled and assigned again on later rounds, which skip `compute`.
 */
export function binding<T>(get: () => T, set: (value: T) => void): object {
  return new LocalBinding(get, set);
}

class LocalBinding<T> {
  readonly get: () => T;
  readonly set: (value: T) => void;
  constructor(get: () => T, set: (value: T) => void) {
    this.get = get;
    this.set = set;
  }
}

/** The legacy `elicitInput` (form or URL mode), as a round: resolves with this call's answer. */
export async function elicit(params: ElicitRequestFormParams | ElicitRequestURLParams): Promise<ElicitResult> {
  return currentFlow('elicit').ask(params.mode === 'url' ? 'url' : 'form', params);
}

/** The legacy `createMessage` / `requestSampling`, as a round. */
export function sample(params: CreateMessageRequestParamsBase): Promise<CreateMessageResult>;
export function sample(params: CreateMessageRequestParamsWithTools): Promise<CreateMessageResultWithTools>;
export function sample(params: CreateMessageRequestParams): Promise<CreateMessageResult | CreateMessageResultWithTools>;
export async function sample(params: CreateMessageRequestParams): Promise<CreateMessageResult | CreateMessageResultWithTools> {
  return currentFlow('sample').ask('sampling', params);
}

/** The legacy `listRoots`, as a round. */
export async function listRoots(): Promise<ListRootsResult> {
  return currentFlow('listRoots').ask('roots', {});
}

type InputMethod = 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
interface InputResults {
  'elicitation/create': ElicitResult;
  'sampling/createMessage': CreateMessageResult | CreateMessageResultWithTools;
  'roots/list': ListRootsResult;
}

/**
 * A raw legacy request (`ctx.mcpReq.send`, `extra.sendRequest`, `server.request`) of one of the three
 * methods. With the result schema the legacy call passed (`send(request, ElicitResultSchema)`,
 * `request(request, z.any())`), the answer is checked against it and has its output type, as it had.
 */
export function inputRequest<M extends InputMethod>(request: { method: M; params?: Record<string, unknown> }): Promise<InputResults[M]>;
export function inputRequest<S extends StandardSchemaV1>(request: { method: string; params?: Record<string, unknown> }, resultSchema: S): Promise<StandardSchemaV1.InferOutput<S>>;
export async function inputRequest(request: { method: string; params?: Record<string, unknown> }, resultSchema?: StandardSchemaV1): Promise<unknown> {
  const params = request.params ?? {};
  let answer: unknown;
  switch (request.method) {
    case 'elicitation/create':
      answer = await elicit(params as unknown as ElicitRequestFormParams);
      break;
    case 'sampling/createMessage':
      answer = await sample(params as unknown as CreateMessageRequestParams);
      break;
    case 'roots/list':
      answer = await listRoots();
      break;
    default:
      throw new TypeError(`inputRequest: ${JSON.stringify(String((request as { method: unknown }).method))} is not a request the server may ask the client`);
  }
  // the legacy call parsed the result with its schema (and failed on a mismatch): so does this one
  const standard = (resultSchema as Partial<StandardSchemaV1> | undefined)?.['~standard'];
  if (!standard) return answer;
  const checked = await standard.validate(answer);
  if (checked.issues) throw new TypeError(`inputRequest: the answer to ${request.method} does not match the result schema: ${checked.issues.map((i) => i.message).join('; ')}`);
  // a cast, not narrowing: without strictNullChecks (a user's `strict: false`) `issues` does not narrow the result
  return (checked as StandardSchemaV1.SuccessResult<unknown>).value;
}

/**
 * The legacy `throw new UrlElicitationRequiredError([...])`: asks every URL step in one round. When all
 * are accepted the handler runs again from the start (the legacy client retried the whole call); a decline
 * or cancel fails the call. Never resolves: write it `return urlElicitationRequired(list)`. The list is the
 * legacy error's own (`mode: 'url'` included, as `UrlElicitationRequiredError` required it).
 */
export async function urlElicitationRequired(elicitations: readonly (ElicitRequestURLParams | Omit<ElicitRequestURLParams, 'mode'>)[]): Promise<never> {
  const flow = currentFlow('urlElicitationRequired');
  for (const e of elicitations) flow.askRestart({ message: e.message, url: e.url });
  throw flow.suspensionError();
}

/** The request's client capabilities (the 2026-07-28 envelope, else the connection's), or undefined. */
export function clientCapabilities(): ClientCapabilities | undefined {
  return flows.getStore()?.capabilities();
}

/** True for the error an ask throws to stop the round: a `catch` on the way must rethrow it. */
export function isSuspension(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[SUSPENSION] === true;
}

/** True once the current round stopped to ask: a `finally` with side effects runs only when it is false. */
export function suspended(): boolean {
  return flows.getStore()?.suspension !== undefined;
}

/** The call's journal no longer matches the code (it changed between rounds, or something ran differently). */
export class FlowDivergedError extends Error {
  constructor(detail: string) {
    super(`This request's saved progress does not match the server's code (${detail}); call it again to start over.`);
    this.name = 'FlowDivergedError';
  }
}

/** The request carries a requestState that does not open here, or answers without one. */
export class FlowStateError extends Error {
  constructor() {
    super('Invalid or expired requestState: it was not issued for this request (or has expired); call it again to start over.');
    this.name = 'FlowStateError';
  }
}

/** The state this round carries was already used to complete a round: a replay. */
export class FlowReplayedError extends Error {
  constructor() {
    super('This request was already answered: its requestState cannot be used again. Call it again to start over.');
    this.name = 'FlowReplayedError';
  }
}

/** A value the journal could not carry was read on a later round. */
export class NotCarriedError extends Error {
  constructor(what: string) {
    super(`A value computed before the question (${what}) cannot travel in requestState, so it is not available after the answer; compute it after the answer or port this handler by hand.`);
    this.name = 'NotCarriedError';
  }
}

// ---------------------------------------------------------------------------------------------------
// The flow of one call, within one round
// ---------------------------------------------------------------------------------------------------

const SUSPENSION = Symbol.for('mrtr-flow.suspension');
const flows = new AsyncLocalStorage<Flow>();

/** A handler context as the SDK passes it (the last parameter). */
interface HandlerContext extends ContinuationContext {
  mcpReq: {
    method: string;
    envelope?: unknown;
    inputResponses?: Record<string, unknown>;
    requestState?: () => unknown;
  };
}

type AskKind = 'form' | 'url' | 'sampling' | 'roots';
const KEY_PREFIX: Record<AskKind, string> = { form: 'elicit', url: 'url', sampling: 'sample', roots: 'roots' };

/** A journal entry: a `once` (value, error or not-carried marker) or an ask (its key, params digest, answer). */
type Entry =
  | { t: 'o'; s: string; v?: unknown; e?: { name: string; message: string }; m?: unknown }
  | { t: 'a'; k: string; q: string; r?: unknown; u?: UrlStep };

/** A URL step the legacy code demanded by throwing: kept so it can be asked again without replaying. */
interface UrlStep {
  message: string;
  url: string;
}

interface OpenedJournal {
  entries: Entry[];
  /** The opened state, for claimOnce (its sealed id and expiry). */
  state: OpenedState<unknown>;
}

class Flow {
  readonly entries: Entry[];
  /** Entries to replay before the call is live again; the rest are appended this round. */
  readonly replayEnd: number;
  cursor = 0;
  suspension: Error | undefined;
  private readonly requests: Record<string, InputRequest> = {};
  /** Computations still running when the round stops: their values are sealed too. */
  private readonly inflight: Promise<unknown>[] = [];
  private claimed: Promise<void> | undefined;

  constructor(
    readonly ctx: HandlerContext,
    readonly bind: Bind,
    private readonly opened: OpenedJournal | undefined,
    private readonly options: ResumableOptions,
  ) {
    this.entries = opened ? opened.entries.map((e) => ({ ...e })) : [];
    this.replayEnd = this.entries.length;
  }

  get replaying(): boolean {
    return this.cursor < this.replayEnd;
  }

  async once<T>(compute: () => T | PromiseLike<T>, mutables: readonly (object | null | undefined)[]): Promise<T> {
    if (this.suspension) throw this.suspension; // nothing runs after the round stopped to ask
    const site = siteOf(compute);
    if (this.replaying) {
      const entry = this.entries[this.cursor];
      if (!entry || entry.t !== 'o' || entry.s !== site) throw new FlowDivergedError('a computation before the question is not the one that ran');
      this.cursor++;
      if (entry.m !== undefined) restoreMutables(mutables, decodeValue(entry.m));
      if (entry.e) throw Object.assign(new Error(entry.e.message), { name: entry.e.name });
      return decodeValue(entry.v) as T;
    }
    const entry: Extract<Entry, { t: 'o' }> = { t: 'o', s: site };
    this.entries.push(entry); // reserved now: concurrent computations keep their call order
    const running = (async () => {
      try {
        const value = await compute();
        entry.v = encodeLenient(value, describeSite(compute));
        if (mutables.length > 0) entry.m = encodeLenient(mutables.map((m) => (m instanceof LocalBinding ? m.get() : m)), 'an argument changed in place');
        return value;
      } catch (error) {
        entry.e = { name: error instanceof Error ? error.name : 'Error', message: error instanceof Error ? error.message : String(error) };
        throw error;
      }
    })();
    this.inflight.push(running.catch(() => undefined));
    return running;
  }

  async ask(kind: AskKind, params: object): Promise<never> {
    const outcome = this.step(kind, params);
    if (outcome.pending) throw this.suspensionError();
    await this.goLive();
    return outcome.answer as never;
  }

  /** One ask, without stopping: its answer (journalled or this round's), or pending (registered). */
  step(kind: AskKind, params: object): { pending: true; answer?: undefined } | { pending: false; answer: unknown } {
    const q = digestOf(kind, params);
    if (this.replaying) {
      const entry = this.entries[this.cursor];
      if (!entry || entry.t !== 'a' || entry.q !== q) throw new FlowDivergedError('the question asked is not the one that was answered');
      this.cursor++;
      if (entry.r !== undefined) return { pending: false, answer: decodeValue(entry.r) };
      // read even when an ask started next to it stopped this round (Promise.all): a valid answer to it is
      // kept, so only the question left unanswered, or answered invalidly, is asked again
      const answer = readAnswer(kind, this.ctx.mcpReq.inputResponses, entry.k, params);
      if (answer === undefined) {
        // missing, foreign or invalid: ask the same question again; the journal is sealed again unchanged
        this.register(entry.k, kind, params);
        return { pending: true };
      }
      entry.r = encodeStrict(answer);
      return { pending: false, answer };
    }
    this.checkCapability(kind, params);
    const asked = this.entries.filter((e) => e.t === 'a').length;
    const key = `${KEY_PREFIX[kind]}${asked + 1}`;
    this.entries.push({ t: 'a', k: key, q });
    this.register(key, kind, params);
    return { pending: true };
  }

  /** A URL step demanded by a thrown error: answered before the handler runs again (see restartRound). */
  askRestart(step: UrlStep): void {
    this.checkCapability('url', step);
    const asked = this.entries.filter((e) => e.t === 'a').length;
    const key = `${KEY_PREFIX.url}${asked + 1}`;
    this.entries.push({ t: 'a', k: key, q: digestOf('url', step), u: step });
    this.register(key, 'url', { ...step, mode: 'url' });
  }

  /** Before anything runs live after an answer: claim the opened state, once. A replay is refused. */
  async goLive(): Promise<void> {
    if (this.suspension) throw this.suspension;
    if (!this.opened || this.replaying) return;
    this.claimed ??= claimState(this.opened);
    await this.claimed;
    if (this.suspension) throw this.suspension;
  }

  suspensionError(): Error {
    this.suspension ??= Object.assign(new Error('mrtr-flow: the round stopped to ask the client (this error is caught by resumable)'), { [SUSPENSION]: true });
    return this.suspension;
  }

  capabilities(): ClientCapabilities | undefined {
    const envelope = this.ctx.mcpReq.envelope;
    const fromEnvelope = isRecord(envelope) ? envelope[CLIENT_CAPABILITIES_META_KEY] : undefined;
    if (isRecord(fromEnvelope)) return fromEnvelope as ClientCapabilities;
    return this.options.capabilities?.() ?? undefined;
  }

  async suspend(sealer: Continuation): Promise<InputRequiredResult> {
    await Promise.all(this.inflight); // a computation started next to the ask still completes, once, in this round
    const requestState = await sealer.seal(this.ctx, { step: `j${this.entries.length}`, bind: this.bind, j: this.entries });
    return inputRequired({ inputRequests: { ...this.requests }, requestState });
  }

  register(key: string, kind: AskKind, params: object): void {
    this.suspensionError();
    this.requests[key] = buildRequest(kind, params);
  }

  /** The legacy SDK refused an ask the client had not declared: keep its error (and so any fallback). */
  private checkCapability(kind: AskKind, params: object): void {
    const caps = this.capabilities();
    if (!caps) return; // unknown: the SDK's own gate (or the legacy shim) decides
    const elicitation = isRecord(caps.elicitation) ? caps.elicitation : undefined;
    if (kind === 'form' && !(elicitation && (isRecord(elicitation['form']) || Object.keys(elicitation).length === 0))) {
      throw new Error('Client does not support form elicitation.');
    }
    if (kind === 'url' && !(elicitation && isRecord(elicitation['url']))) throw new Error('Client does not support url elicitation.');
    if (kind === 'sampling') {
      if (!isRecord(caps.sampling)) throw new Error('Client does not support sampling (required for sampling/createMessage)');
      const p = params as Record<string, unknown>;
      if ((p['tools'] !== undefined || p['toolChoice'] !== undefined) && !isRecord(caps.sampling['tools'])) {
        throw new Error('Client does not support sampling tools capability.');
      }
    }
    if (kind === 'roots' && !isRecord(caps.roots)) throw new Error('Client does not support listing roots (required for roots/list)');
  }
}

function currentFlow(what: string): Flow {
  const flow = flows.getStore();
  if (!flow) throw new Error(`${what}() was called outside a resumable handler: wrap the handler that reaches it with resumable(name, handler)`);
  return flow;
}

function isRestartRound(state: OpenedJournal): boolean {
  const last = state.entries[state.entries.length - 1];
  return last !== undefined && last.t === 'a' && last.u !== undefined && last.r === undefined;
}

/** The answers to thrown URL steps: all accepted → 'restart'; a refusal fails the call; missing → ask again. */
async function restartRound(state: OpenedJournal, ctx: HandlerContext, bind: Bind, sealer: Continuation): Promise<'restart' | InputRequiredResult> {
  const steps = state.entries.filter((e): e is Extract<Entry, { t: 'a' }> => e.t === 'a' && e.u !== undefined && e.r === undefined);
  const answers = steps.map((e) => readAnswer('url', ctx.mcpReq.inputResponses, e.k, {}) as ElicitResult | undefined);
  if (answers.some((a) => a === undefined)) {
    const flow = new Flow(ctx, bind, state, {});
    for (const e of steps) flow.register(e.k, 'url', { ...e.u, mode: 'url' }); // the whole set again, as the legacy error listed it
    return flow.suspend(sealer);
  }
  await claimState(state);
  const refused = answers.find((a) => a!.action !== 'accept');
  if (refused) throw new Error(`The user did not complete the requested URL step (${refused.action}).`);
  return 'restart';
}

// ---------------------------------------------------------------------------------------------------
// Requests and answers
// ---------------------------------------------------------------------------------------------------

function buildRequest(kind: AskKind, params: object): InputRequest {
  switch (kind) {
    case 'form': {
      const { mode: _mode, ...form } = params as ElicitRequestFormParams;
      return inputRequired.elicit(form);
    }
    case 'url': {
      const { mode: _mode, elicitationId: _id, ...url } = params as ElicitRequestURLParams;
      return inputRequired.elicitUrl(url);
    }
    case 'sampling':
      return inputRequired.createMessage(params as CreateMessageRequestParams);
    case 'roots':
      return inputRequired.listRoots();
  }
}

/** This round's answer to `key`, shaped as the legacy call's result, or undefined (ask again). */
function readAnswer(kind: AskKind, responses: Record<string, unknown> | undefined, key: string, params: object): unknown {
  const entry = responses && Object.prototype.hasOwnProperty.call(responses, key) ? responses[key] : undefined;
  if (!isRecord(entry)) return undefined;
  switch (kind) {
    case 'form':
      return elicitationAnswer(responses, key, (params as ElicitRequestFormParams).requestedSchema);
    case 'url': {
      const action = entry['action'];
      return action === 'accept' || action === 'decline' || action === 'cancel' ? { action } : undefined;
    }
    case 'sampling': {
      const { role, content, model } = entry;
      if ((role !== 'assistant' && role !== 'user') || !(isRecord(content) || Array.isArray(content))) return undefined;
      return { ...entry, model: typeof model === 'string' ? model : '' };
    }
    case 'roots': {
      const roots = entry['roots'];
      if (!Array.isArray(roots) || !roots.every((r) => isRecord(r) && typeof r['uri'] === 'string')) return undefined;
      return { roots: roots.map((r: Record<string, unknown>) => (typeof r['name'] === 'string' ? { uri: r['uri'], name: r['name'] } : { uri: r['uri'] })) };
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Binding, sealing, claiming
// ---------------------------------------------------------------------------------------------------

function isServerContext(value: unknown): value is HandlerContext {
  return isRecord(value) && isRecord(value['mcpReq']) && typeof value['mcpReq']['method'] === 'string';
}

/** The bind: the registered name (or the low-level request's), and the arguments (everything but ctx). */
function bindOf(ctx: HandlerContext, name: string | undefined, args: readonly unknown[]): Bind {
  if (name !== undefined) return bindRequest(ctx, String(name), bindable(args.length === 1 ? args[0] : [...args]));
  const request = isRecord(args[0]) ? args[0] : {};
  const params = isRecord(request['params']) ? request['params'] : {};
  const { _meta: _m, inputResponses: _i, requestState: _s, ...rest } = params;
  const named = rest['name'] ?? rest['uri'];
  return bindRequest(ctx, typeof named === 'string' ? named : '', bindable(rest));
}

/**
 * Arguments as JSON for the digest. The SDK hands the handler parsed arguments, which a schema may have
 * turned into values JSON has no form for (a resource's URL, `z.coerce.date()`, a bigint): they are
 * written in the journal's tagged encoding, which is deterministic and tells them apart.
 */
function bindable(value: unknown): unknown {
  return encodeLenient(value, 'the arguments');
}

/**
 * The journal this request carries; undefined for a first round; 'invalid' when it carries a state that
 * does not open here (tampered, expired, another request, principal or server) or answers without a state:
 * refused before anything runs, so an attack never re-runs the code before the question.
 */
async function openJournal(sealer: Continuation, ctx: HandlerContext, bind: Bind): Promise<OpenedJournal | undefined | 'invalid'> {
  const raw = ctx.mcpReq.requestState?.();
  if (raw === undefined || raw === null) {
    const answers = ctx.mcpReq.inputResponses;
    return answers && Object.keys(answers).length > 0 ? 'invalid' : undefined;
  }
  const state = await sealer.openState<{ step: string; j?: unknown }>(ctx, bind);
  const payload = state?.payload;
  if (!state || !payload || !Array.isArray(payload.j) || !payload.j.every(isEntry)) return 'invalid';
  return { entries: payload.j, state };
}

function isEntry(value: unknown): value is Entry {
  if (!isRecord(value)) return false;
  if (value['t'] === 'o') return typeof value['s'] === 'string';
  return value['t'] === 'a' && typeof value['k'] === 'string' && typeof value['q'] === 'string';
}

/** At most once per sealed state, on every replica that shares the claim store (./mrtr-claims.js: memory, or Redis with `port --claims redis`). */
async function claimState(opened: OpenedJournal): Promise<void> {
  if (!(await claimOnce(opened.state, { store: claimStore }))) throw new FlowReplayedError();
}

// ---------------------------------------------------------------------------------------------------
// Journal values: JSON, plus tagged Date, Map, Set, BigInt, undefined, non-finite numbers, Uint8Array,
// URL and Error. Anything else (class instances, functions, cycles) is not carried.
// ---------------------------------------------------------------------------------------------------

const TAG = '$mrtr';

class NotCarryable extends Error {
  constructor(readonly what: string) {
    super(what);
  }
}

/** Encodes for the journal; a part that cannot be carried becomes a marker read back as a poisoned value. */
function encodeLenient(value: unknown, site: string): unknown {
  return encode(value, new Set(), site);
}

/** Encodes an answer; it came as JSON, so everything in it can be carried. */
function encodeStrict(value: unknown): unknown {
  return encode(value, new Set(), undefined);
}

function encode(value: unknown, ancestors: Set<object>, site: string | undefined): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0) ? value : { [TAG]: 'n', v: String(Object.is(value, -0) ? '-0' : value) };
    case 'undefined':
      return { [TAG]: 'u' };
    case 'bigint':
      return { [TAG]: 'b', v: value.toString() };
    case 'object':
      break;
    default:
      return notCarried(typeof value, site);
  }
  if (value === null) return null;
  if (ancestors.has(value)) return notCarried('a cyclic value', site);
  if (value instanceof Date) return { [TAG]: 'd', v: Number.isNaN(value.getTime()) ? null : value.toISOString() };
  if (value instanceof URL) return { [TAG]: 'url', v: value.href };
  if (value instanceof Uint8Array) return { [TAG]: 'y', v: base64(value) };
  if (value instanceof Error) return { [TAG]: 'e', v: { name: value.name, message: value.message } };
  ancestors.add(value);
  try {
    if (value instanceof Map) return { [TAG]: 'm', v: [...value].map(([k, v]) => [encode(k, ancestors, site), encode(v, ancestors, site)]) };
    if (value instanceof Set) return { [TAG]: 's', v: [...value].map((v) => encode(v, ancestors, site)) };
    if (Array.isArray(value)) return Array.from(value, (v) => encode(v, ancestors, site));
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return notCarried(`a ${(value as object).constructor?.name || 'class'} instance`, site);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = encode(v, ancestors, site);
    return Object.prototype.hasOwnProperty.call(out, TAG) ? { [TAG]: 'o', v: out } : out;
  } finally {
    ancestors.delete(value);
  }
}

function notCarried(what: string, site: string | undefined): unknown {
  if (site === undefined) throw new NotCarryable(what);
  return { [TAG]: 'x', v: `${what} from ${site}` };
}

function decodeValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decodeValue);
  if (!isRecord(value)) return value;
  if (!Object.prototype.hasOwnProperty.call(value, TAG)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decodeValue(v)]));
  const v = value['v'];
  switch (value[TAG]) {
    case 'n':
      return v === '-0' ? -0 : Number(v);
    case 'u':
      return undefined;
    case 'b':
      return BigInt(String(v));
    case 'd':
      return new Date(typeof v === 'string' ? v : Number.NaN);
    case 'url':
      return new URL(String(v));
    case 'y':
      return unbase64(String(v));
    case 'e':
      return Object.assign(new Error(String(isRecord(v) ? v['message'] : '')), { name: String(isRecord(v) ? v['name'] : 'Error') });
    case 'm':
      return new Map((v as unknown[][]).map(([k, x]) => [decodeValue(k), decodeValue(x)]));
    case 's':
      return new Set((v as unknown[]).map(decodeValue));
    case 'o':
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, decodeValue(x)]));
    case 'x':
      return poisoned(String(v));
    default:
      throw new FlowDivergedError('the journal holds a value of an unknown kind');
  }
}

/** The stand-ins `poisoned` made, so restoring an argument in place can tell them from values. */
const POISONED = new WeakSet<object>();

/** Stands for a value that was not carried: any use says which one and why. */
function poisoned(what: string): unknown {
  const fail = (): never => {
    throw new NotCarriedError(what);
  };
  // not a thenable (`then` reads undefined), so it can be returned and awaited; any other use fails
  const get = (_target: unknown, key: string | symbol): unknown => (key === 'then' ? undefined : fail());
  const stand = new Proxy(function notCarried() {}, { get, apply: fail, construct: fail, has: fail, set: fail, ownKeys: fail, getPrototypeOf: fail });
  POISONED.add(stand);
  return stand;
}

function isPoisoned(value: unknown): boolean {
  return typeof value === 'function' && POISONED.has(value);
}

/**
 * Puts the journalled state of the arguments a memoized call changed back into this round's objects.
 * A part that could not travel (a handle, a class instance, a function: journalled as not carried) keeps
 * this round's live value: the round made its own, and the journal has nothing to put in its place.
 */
function restoreMutables(targets: readonly (object | null | undefined)[], states: unknown): void {
  if (!Array.isArray(states)) return;
  targets.forEach((target, i) => {
    const state = states[i];
    if (target instanceof LocalBinding) target.set(isPoisoned(state) ? target.get() : state);
    else restoreInPlace(target, state);
  });
}

function restoreInPlace(target: unknown, state: unknown): void {
  if (Array.isArray(target) && Array.isArray(state)) {
    const live = [...target];
    target.splice(0, target.length, ...state.map((v, i) => restoredValue(live[i], v)));
  } else if (target instanceof Map && state instanceof Map) {
    const live = new Map(target);
    target.clear();
    for (const [k, v] of state) target.set(k, restoredValue(live.get(k), v));
  } else if (target instanceof Set && state instanceof Set) {
    target.clear();
    for (const v of state) if (!isPoisoned(v)) target.add(v);
  } else if (isPlainRecord(target) && isPlainRecord(state)) {
    for (const k of Object.keys(target)) if (!Object.prototype.hasOwnProperty.call(state, k)) delete target[k];
    for (const [k, v] of Object.entries(state)) target[k] = restoredValue(target[k], v);
  }
}

/** The value a slot gets back: the live one for a part not carried; a live plain object, array or Map restored in place. */
function restoredValue(live: unknown, state: unknown): unknown {
  if (isPoisoned(state)) return live;
  if ((isPlainRecord(live) && isPlainRecord(state)) || (Array.isArray(live) && Array.isArray(state)) || (live instanceof Map && state instanceof Map)) {
    restoreInPlace(live, state);
    return live;
  }
  return state;
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

// ---------------------------------------------------------------------------------------------------
// Digests (divergence checks inside the sealed journal, not security: the state is sealed)
// ---------------------------------------------------------------------------------------------------

function siteOf(compute: () => unknown): string {
  return hash(String(compute));
}

function describeSite(compute: () => unknown): string {
  const text = String(compute).replace(/\s+/g, ' ');
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function digestOf(kind: AskKind, params: object): string {
  return hash(`${kind}:${stableText(params, new Set())}`);
}

/** Deterministic text of any value (sorted keys; functions and class instances by their kind only). */
function stableText(value: unknown, ancestors: Set<object>): string {
  if (value === null || typeof value !== 'object') return typeof value === 'function' ? '[function]' : typeof value === 'bigint' ? `${value}n` : JSON.stringify(value) ?? 'undefined';
  if (ancestors.has(value)) return '[cycle]';
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return `[${value.map((v) => stableText(v, ancestors)).join(',')}]`;
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return `[${(value as object).constructor?.name ?? 'object'}]`;
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${stableText((value as Record<string, unknown>)[k], ancestors)}`).join(',')}}`;
  } finally {
    ancestors.delete(value);
  }
}

/** cyrb53: a fast 53-bit string hash. */
function hash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

function base64(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

function unbase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
