/**
 * The plan of one file: what the transform (`transforms/resumable-handlers.ts`) edits, as positions in
 * the file's text (UTF-16 offsets of the text without its BOM). The analyzer decides every shape; the
 * transform only checks that each position still holds the node the plan expects, and applies it.
 * Contract: docs/engine.md, "The plan".
 */
import type { FLOW_ASK_NAMES, FlowRuntimeName } from '../../vocabulary.js';
import type { ReasonId } from '../reasons.js';

/** The runtime functions a ported file calls (`src/runtime/mrtr-flow.ts`). */
export type RuntimeName = FlowRuntimeName;

export type AskRuntime = (typeof FLOW_ASK_NAMES)[number];

export interface Span {
  start: number;
  end: number;
}

/** `resumable(name, <start..end>)` around a registration's handler argument. */
export interface PlanWrap extends Span {
  /** Source text of the registration's name expression; null for a low-level `setRequestHandler`. */
  name: string | null;
  /** Source text of the receiver whose `getClientCapabilities()` answers on 2025 connections (`server.server`). */
  capabilities?: string;
}

/** A legacy call (or `throw` statement) that becomes a call of the runtime. */
export interface PlanAsk extends Span {
  runtime: AskRuntime;
  /** The argument kept: the params (elicit, sample), the request object (inputRequest), the list (URL error). */
  params?: Span;
  /** A raw request's result schema (`send(request, ElicitResultSchema)`), kept as `inputRequest`'s second argument: the answer keeps the legacy type. */
  resultSchema?: Span;
  /** `throw new UrlElicitationRequiredError(list)` (the span is the statement): becomes `return urlElicitationRequired(list)`. */
  statementThrow?: boolean;
}

/**
 * Independent sibling asks asked in one round (siblings.ts): before the first `if`,
 * `const <name> = await Promise.all([c1 ? ask1(p1) : undefined, …]);`, and each member's `await` of
 * its legacy call becomes `<name>[i]!` (`<name>[i]` in JavaScript).
 */
export interface PlanBatch {
  /** Start of the first `if` statement of the group. */
  at: number;
  name: string;
  members: { condition: Span; awaited: Span; ask: PlanAsk }[];
}

/** `E` → `await once(() => E)`. */
export interface PlanMemo extends Span {
  /** The thunk must be `async` (E itself awaits). */
  async: boolean;
  /** Start of an `await` right before E that `await once(…)` replaces. */
  awaitStart?: number;
  /** The replacement needs parentheses where it stands (`(await once(() => f())).x`). */
  parens: boolean;
  /** Objects E may change in place, restored on replay: `once(() => fill(order), order)`. */
  mutables?: string[];
  /**
   * Names E reads whose narrowing a closure would lose (narrowing.ts): handed to the thunk by an arrow
   * around it, `await ((x) => once(() => f(x)))(x)`.
   */
  narrowed?: string[];
  /**
   * Property paths E reads that a check narrowed (`r.content` after `if (r.content.type === 'text')`),
   * handed in the same way under a fresh name that replaces them in the thunk:
   * `await ((content) => once(() => Ok(content.text)))(r.content)`.
   */
  narrowedPaths?: { start: number; end: number; param: string }[];
  /** A read of outer state narrowed past null/undefined (outer-state.ts): `(await once(() => token))!`. */
  nonNull?: boolean;
  /** A read of outer state narrowed otherwise (`typeof`, a discriminant, `instanceof`; outer-state.ts): the narrowed type, `(await once(() => mode) as 'live')`. */
  cast?: string;
  /**
   * Locals of the function E assigns from inside (`fetch(u).then((r) => { total = r.status; })`): their
   * values after E ran are restored on replay, `once(() => E, binding(() => total, (v) => { total = v; }))`.
   */
  restored?: string[];
}

/**
 * A read of data after the answer of a value the journal cannot carry (projected-values.ts), taken right
 * after the statement that makes the value: `const <name> = await once(() => <read>);` is inserted at
 * `at`, on a line of its own indented like `indentFrom`, and each use becomes `<name>`.
 */
export interface PlanSnapshot {
  /** The end of the statement that makes the value. */
  at: number;
  /** The start of that statement (its indentation is the snapshot's). */
  indentFrom: number;
  name: string;
  /** The read whose text is the thunk. */
  read: Span;
  uses: Span[];
}

/** `catch (e) {` gets `if (isSuspension(e)) throw e;` first. */
export interface PlanCatchGuard {
  /** Offset of the catch block's `{`. */
  blockStart: number;
  /** The catch binding's name; null when there is none and the plan adds `binding` at `paramAt`. */
  binding: string | null;
  /** Where `(name)` goes in a `catch {` without a binding (right after `catch`). */
  paramAt?: number;
  /** The name to bind when adding one, or when `pattern` is replaced. */
  fresh?: string;
  /** A destructuring binding (`catch ({ message })`): replaced by `fresh`, then destructured after the guard. */
  pattern?: Span;
}

/** `finally { … }` runs only when the round did not stop to ask: `finally { if (!suspended()) { … } }`. */
export interface PlanFinallyGuard {
  blockStart: number;
  blockEnd: number;
  /** Runs of its statements to guard, each `if (!suspended()) { … }`; absent: the whole block. */
  runs?: Span[];
}

/** `X.getClientCapabilities()` → `(clientCapabilities() ?? X.getClientCapabilities())`. */
export type PlanCapabilityRead = Span;

/** `async` added to a path function that did not have it (it now awaits `once`). */
export interface PlanAsyncInsert {
  at: number;
}

/**
 * A declaration the port leaves unread (unread.ts), edited so the output builds under
 * `noUnusedLocals` / `noUnusedParameters`: [start, end) becomes `text` (a removal, `()`, or a
 * `_`-prefixed name), where a node of `expect.kind` named `expect.name` starts at `expect.at`.
 * Applied only with the edits that drop its last read (the asks, and the retired roots requests).
 */
export interface PlanUnread extends Span {
  text: string;
  expect: { at: number; kind: 'parameter' | 'binding-element' | 'import-specifier' | 'import-clause' | 'import' | 'type' | 'member'; name: string };
}

export interface PlanMarker {
  /** 1-based line of the statement, in the original text. */
  line: number;
  reason: ReasonId;
  message: string;
}

/** A live read written `(read as type)`. */
export interface PlanCastRead extends Span {
  type: string;
}

export interface FilePlan {
  /** Relative to the working directory, `/`-separated. */
  file: string;
  wraps: PlanWrap[];
  asks: PlanAsk[];
  batches: PlanBatch[];
  memos: PlanMemo[];
  /** Reads of data after the answer, taken before the ask (projected-values.ts). */
  snapshots: PlanSnapshot[];
  catchGuards: PlanCatchGuard[];
  finallyGuards: PlanFinallyGuard[];
  capabilityReads: PlanCapabilityRead[];
  asyncInserts: PlanAsyncInsert[];
  /** Offsets right after a live read of outer state a memo now reads, where a `!` keeps its narrowing (outer-state.ts). */
  nonNullReads: number[];
  /** Live reads of outer state narrowed (`typeof`, a discriminant) by a check now memoized: `(mode as 'live')` keeps the type (outer-state.ts). */
  castReads: PlanCastRead[];
  /** Declarations whose last read the port drops (see PlanUnread). */
  unread: PlanUnread[];
  /** Roots requests the retire-roots transform replaces with `rootsFromConfig()` (with `--roots config`): no round, no plan edit. */
  retiredRoots: Span[];
  markers: PlanMarker[];
  /** What the port report should say about the file (an ask that takes one round per loop iteration). */
  notes: string[];
  /** Runtime names the file now uses, each with the local name it is imported under (`inputRequest` → `inputRequest2` on a clash). */
  runtimeImports: { name: RuntimeName; local: string }[];
}

export function emptyPlan(file: string): FilePlan {
  return { file, wraps: [], asks: [], batches: [], memos: [], snapshots: [], catchGuards: [], finallyGuards: [], capabilityReads: [], asyncInserts: [], nonNullReads: [], castReads: [], unread: [], retiredRoots: [], markers: [], notes: [], runtimeImports: [] };
}

/** Does the plan change any code (markers alone do not need the runtime)? */
export function planEdits(plan: FilePlan | undefined): number {
  if (!plan) return 0;
  return (
    plan.wraps.length +
    plan.asks.length +
    plan.batches.length +
    plan.memos.length +
    plan.snapshots.length +
    plan.catchGuards.length +
    plan.finallyGuards.length +
    plan.capabilityReads.length +
    plan.asyncInserts.length +
    plan.nonNullReads.length +
    plan.castReads.length +
    plan.retiredRoots.length
  );
}
