/**
 * One function on the flow path of a ported handler (the handler, a helper it awaits, a callback it
 * awaits), and what the plan changes in it:
 * - memos: every effect that can run before one of its ask points (docs/engine.md "What is memoized");
 * - catch guards on `try`s around an ask point, finally guards on effectful `finally` blocks;
 * (the capability reads of the flow, here and in the functions it calls, are capabilities.ts's);
 * - `async` when it now awaits and was not async.
 * An ask point is an ask, a call of another function on the path, or a callback on the path.
 */
import ts from '../../typescript.cjs';
import { enclosingFunction, isFunctionLike, isLoop, memberChain, outerParent, unwrap } from '../ast.js';
import type { FileIndex } from '../file-index.js';
import type { ReasonId } from '../reasons.js';
import { BUILTIN_MUTATOR_NAMES, BUILTIN_MUTATORS, GLOBAL_OBJECTS, REPLAYED_COLLECTION_WRITES, TIMER_STARTS } from './builtins.js';
import { carryableValue, isDataType, isObjectValue, isPromiseValue } from './carry.js';
import { isAssignment, isEffect, rootIdentifier, shadowed, type EffectJudge } from './effects.js';
import { heldAcrossAsk, heldPromise, type HeldContext } from './held-values.js';
import { aliasedStateRead, collectionKind } from './aliased-state.js';
import { arrayWriteAcrossAsk, type ArrayWriteAcrossAsk } from './array-writes.js';
import { projectedReads, type SnapshotRead } from './projected-values.js';
import { isPureBuiltinCall, mayBePureBuiltinCall } from './pure-builtins.js';
import { narrowedPaths, narrowedReads } from './narrowing.js';
import { OuterStateReads, rootsAssignedByText, wholeChainOf, type OuterStateRead } from './outer-state.js';
import { isWrite } from './references.js';
import { leavesWithoutAsking } from './leaves.js';
import type { PlanCatchGuard, PlanFinallyGuard, PlanMemo, PlanSnapshot } from './model.js';
import { bindingNames, freshName, FunctionScope, type InitializerOracle, type Role } from './scope.js';

export interface AskPoint {
  node: ts.Node;
  /** Where this function is past the answer. */
  awaitEnd: number;
  /** Awaited through `Promise.allSettled` (or enters a function that is): a stopped round runs on. */
  settled: boolean;
  /** The path function this ask point enters (a helper call, a callback), if any. */
  enters?: ts.FunctionLikeDeclaration;
}

export interface Recomputed {
  /** The statement to mark. */
  statement: ts.Node;
  names: string[];
}

export interface FunctionEdits {
  memos: PlanMemo[];
  /** Reads of data after the answer of a value the journal cannot carry, taken right after it is made (projected-values.ts). */
  snapshots: PlanSnapshot[];
  catchGuards: PlanCatchGuard[];
  finallyGuards: PlanFinallyGuard[];
  asyncAt?: number;
  /** After these live reads of outer state a `!` keeps their narrowing (outer-state.ts). */
  nonNullReads: number[];
  /** Live reads of outer state narrowed by a check now memoized, each with the type it keeps: `(mode as 'live')`. */
  castReads: { start: number; end: number; type: string }[];
  recomputed: Recomputed[];
  /** Why the function cannot be ported as planned (the handler is then left as it was). */
  blocking: { reason: ReasonId; detail: string }[];
}

const CAPABILITY_GETTER = 'getClientCapabilities';

export class FlowFunction {
  readonly askPoints = new Map<ts.Node, AskPoint>();
  /** A helper or callback: all of its code can run before a caller's later ask. */
  helper = false;
  /** The handler's parameter roles (context / data), when it is a registered handler. */
  handlerKind = false;
  /** Its scope once planned (a callback's scope sees the names of the function around it). */
  scope: FunctionScope | undefined;

  constructor(
    readonly fn: ts.FunctionLikeDeclaration,
    readonly file: FileIndex,
    /** For a callback on the path: the path function it is written in. */
    readonly parent?: FlowFunction,
    /** For a mapped callback (`items.map(async (item) => …)`): what it maps over (its parameters are its elements). */
    readonly mapped?: ts.Expression,
  ) {}

  addAskPoint(point: AskPoint): void {
    const known = this.askPoints.get(point.node);
    if (known) {
      known.settled ||= point.settled;
      known.awaitEnd = Math.max(known.awaitEnd, point.awaitEnd);
    } else {
      this.askPoints.set(point.node, point);
    }
  }

  edits(context: PlanningContext): FunctionEdits {
    return new FunctionPlanner(this, context).run();
  }
}

export interface PlanningContext {
  /** Every legacy site of the file (never memoized, nor anything around it, even one this plan does not port). */
  legacy: ReadonlySet<ts.Node>;
  /** Legacy calls another transform replaces in place (roots from configuration): never memoized themselves. */
  replaced: ReadonlySet<ts.Node>;
  /** Each ask this plan rewrites, with the one argument it keeps (only that runs before the ask). */
  kept: ReadonlyMap<ts.Node, ts.Node | undefined>;
  /** The checker, when the program holds this file (built on first use: most functions never need it). */
  checker(): ts.TypeChecker | undefined;
  /** Does a path function keep running after a stopped round (`Promise.allSettled` of asks inside)? */
  swallowing(fn: ts.FunctionLikeDeclaration): boolean;
  /** Can an ask follow, in the same round, once this path function has returned (a caller's later ask)? */
  asksAfterReturn(fn: ts.FunctionLikeDeclaration): boolean;
  /** The calls into a helper on the path from the path functions that make them (planned before it). */
  callers?(fn: ts.FunctionLikeDeclaration): readonly { flow: FlowFunction; call: ts.Node }[];
  /** A helper's parameters whose functions (written by its callers) are planned as callbacks: their calls run each round (index.ts enteredCallbacks). */
  enteredParameters?(fn: ts.FunctionLikeDeclaration): ReadonlySet<string> | undefined;
  /**
   * Only `blocking` is read (analyze, check: the verdicts): the memos, guards, `!`s and
   * marks are not recorded. Everything that can refuse the function still runs (the walk for effects
   * before an ask, each effect's judgement, `async`), and so does every question the skipped parts would
   * have asked that a later judgement could depend on: a name's role, once asked, is kept (a callback's
   * scope reads its parent's), and the checker asked for a file is counted in the report.
   */
  verdictsOnly?: boolean;
}

class FunctionPlanner {
  private readonly blocked = new Set<ts.Node>();
  /** Ancestors of the ask points and legacy sites only (what the catch and finally guards are for). */
  private readonly asking = new Set<ts.Node>();
  private readonly loopsWithAsks: ts.Node[] = [];
  private lastAwaitEnd = -1;
  private settledFrom = Infinity;
  private readonly scope: FunctionScope;
  private readonly judge: EffectJudge;
  private readonly memoized = new Map<ts.Node, boolean>();
  private readonly aliased = new Map<ts.Node, boolean>();
  /** isReplayedWrite's answers. */
  private readonly replayed = new Map<ts.Node, boolean>();
  /** Reads of a value the journal cannot carry, memoized so that a later round never uses it (projected-values.ts). */
  private readonly projected = new Set<ts.Node>();
  /** Uses after the answer that now read a snapshot (projected-values.ts): left alone by the walk. */
  private readonly snapshotted = new Set<ts.Node>();
  private readonly snapshotNames: string[] = [];
  /** Functions of the file called before an ask: does each read outer state the file writes (callReadsWrittenState)? */
  private readonly stateReaders = new Map<ts.FunctionLikeDeclaration, boolean>();
  private readonly outerState: OuterStateReads;
  private readonly out: FunctionEdits = { memos: [], snapshots: [], catchGuards: [], finallyGuards: [], nonNullReads: [], castReads: [], recomputed: [], blocking: [] };
  private readonly outerStateMemos: ts.Expression[] = [];
  /** Outer arrays already named by an `array-write-across-ask` entry. */
  private readonly arraysWrittenAcross = new Set<string>();
  /** Effects memoized (`out.memos` holds them unless only verdicts are asked for). */
  private memoCount = 0;

  constructor(
    private readonly flow: FlowFunction,
    private readonly context: PlanningContext,
  ) {
    const { legacy, swallowing } = context;
    const checker = (): ts.TypeChecker | undefined => context.checker();
    const fn = flow.fn;
    const markUp = (node: ts.Node): void => {
      for (let n: ts.Node | undefined = node; n && n !== fn; n = n.parent) {
        if (this.blocked.has(n)) break;
        this.blocked.add(n);
      }
    };
    for (const [node, point] of flow.askPoints) {
      markUp(node);
      this.lastAwaitEnd = Math.max(this.lastAwaitEnd, point.awaitEnd);
      if (point.settled || (point.enters && swallowing(point.enters))) this.settledFrom = Math.min(this.settledFrom, point.awaitEnd);
      for (let n: ts.Node | undefined = node.parent; n && n !== fn; n = n.parent) if (isLoop(n) && !this.loopsWithAsks.includes(n)) this.loopsWithAsks.push(n);
    }
    for (const node of legacy) if (node.pos >= fn.pos && node.end <= fn.end) markUp(node);
    for (const n of this.blocked) this.asking.add(n);
    // a call of a parameter whose functions are planned as callbacks runs each round (never memoized, nor
    // anything around it), their own effects being memoized where they are written
    const entered = context.enteredParameters?.(fn);
    if (entered && entered.size > 0 && fn.body) {
      const visit = (n: ts.Node): void => {
        if (n !== fn && isFunctionLike(n)) return;
        if (ts.isCallExpression(n) && ts.isIdentifier(unwrap(n.expression)) && entered.has((unwrap(n.expression) as ts.Identifier).text)) markUp(n);
        ts.forEachChild(n, visit);
      };
      visit(fn.body);
    }

    const typed = <T>(ask: (c: ts.TypeChecker) => T): T | undefined => {
      const c = checker();
      return c ? ask(c) : undefined;
    };
    const oracle: InitializerOracle = {
      isAnswer: (e) => ts.isAwaitExpression(e) && this.blocked.has(e),
      isMemoized: (e) => this.isMemoizedValue(e),
      isDataType: (node) => typed((c) => isDataType(c.getTypeAtLocation(node), c)) ?? false,
      isContextType: (node) => typed((c) => isContextType(c.getTypeAtLocation(node))) ?? false,
    };
    const imported = new Set(flow.file.imports.keys());
    this.judge = {
      imported,
      moduleFunction: (name) => moduleFunction(flow.file, name),
      oracle,
      visiting: new Set(),
      isDataReceiver: (e) => typed((c) => isDataType(c.getTypeAtLocation(e), c)) ?? false,
      isPureBuiltinCall: (call) => mayBePureBuiltinCall(call) && (typed((c) => isPureBuiltinCall(call, c, (e) => this.outerState.mayBeWritten(e))) ?? false),
    };
    this.scope = new FunctionScope(fn, oracle, flow.parent?.scope, (index, param) => this.paramRole(index, param));
    flow.scope = this.scope;
    this.outerState = new OuterStateReads({
      fn,
      isLocal: (name) => this.scope.isLocal(name),
      imported,
      checker,
      typed: isTypeScript(flow.file),
    });
  }

  /** A registered handler's last parameter (of two or more) is the context; the others are the request's data. */
  private paramRole(index: number, param: ts.ParameterDeclaration): Role | undefined {
    const { parent, mapped } = this.flow;
    if (parent) return mapped && parent.scope?.roleOfValue(mapped) !== 'data' ? 'other' : 'data';
    if (!this.flow.handlerKind) return this.helperParamRole(index, param);
    const count = this.flow.fn.parameters.length;
    if (count >= 2) return index === count - 1 ? 'context' : 'data';
    return undefined;
  }

  /**
   * A helper's parameter holds what its callers on the path pass there: local data only when every
   * caller passes data (the request's arguments, a literal, a memoized value); a store, a client or a
   * module's collection handed in is not, so calls on it (`store.create(…)`, `tickets.push(…)`) are
   * effects. Undefined (judged by name and type) when a caller is not known or not planned yet.
   */
  private helperParamRole(index: number, param: ts.ParameterDeclaration): Role | undefined {
    const calls = this.context.callers?.(this.flow.fn) ?? [];
    if (calls.length === 0 || param.dotDotDotToken) return undefined;
    const roles = new Set<Role>();
    for (const { flow, call: node } of calls) {
      const call = ts.isCallExpression(node) ? node : undefined;
      if (!call || !flow.scope || call.arguments.some((a) => ts.isSpreadElement(a))) return undefined;
      const callee = unwrap(call.expression);
      // `helper.call(thisArg, …)` / `.apply`: the arguments are not in place
      if (ts.isPropertyAccessExpression(callee) && (callee.name.text === 'call' || callee.name.text === 'apply')) return undefined;
      const arg = call.arguments[index];
      roles.add(arg === undefined ? 'data' : flow.scope.roleOfValue(arg));
    }
    // state that is not the callers' own (module state, `this.x`): calls on it and writes to it are
    // effects even when its type is an array or a map; another value that cannot travel: `other`.
    // Data or a context: the name and type heuristics decide, as before
    if (roles.has('nonlocal')) return 'nonlocal';
    return roles.has('other') ? 'other' : undefined;
  }

  run(): FunctionEdits {
    const fn = this.flow.fn;
    if (fn.body) this.visit(fn.body);
    // memoized outer state read live later: a `!` or a cast (edits only), or a narrowing the port cannot
    // write (a verdict, in both modes)
    const editing = !this.context.verdictsOnly;
    for (const read of this.outerState.narrowedLiveReads(this.outerStateMemos)) {
      if (read.nonNull) {
        if (editing) this.out.nonNullReads.push(read.node.end);
      } else if (read.cast) {
        if (editing) this.out.castReads.push({ start: read.node.getStart(), end: read.node.end, type: read.cast });
      } else if (read.unkept) this.out.blocking.push(unkeptNarrowing(read.node));
    }
    for (const p of fn.parameters) if (p.initializer && this.hasEffect(p.initializer)) this.out.recomputed.push({ statement: p, names: bindingNames(p.name) });
    if (this.context.verdictsOnly) this.finallyEffects();
    else this.guards();
    if ((this.memoCount > 0 || this.needsAsyncForAsks()) && !isAsync(fn)) this.makeAsync();
    return this.out;
  }

  /** `throw new UrlElicitationRequiredError(…)` becomes `return urlElicitationRequired(…)`: a promise only an async function may return for a throw. */
  private needsAsyncForAsks(): boolean {
    for (const node of this.flow.askPoints.keys()) if (ts.isThrowStatement(node)) return true;
    return false;
  }

  private visit(node: ts.Node): void {
    if (isFunctionLike(node) || ts.isClassLike(node) || ts.isTypeNode(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return;
    if (this.runsOnlyAfterEveryAsk(node)) return;
    if (this.context.replaced.has(node) || this.snapshotted.has(node)) return;
    if (this.context.kept.has(node)) {
      // the receiver and the request options go; only the kept argument runs before the ask
      const kept = this.context.kept.get(node);
      if (kept) this.visit(kept);
      return;
    }
    if (ts.isVariableDeclaration(node)) {
      if (node.initializer) this.visit(node.initializer);
      return;
    }
    if (ts.isCallExpression(node) && !this.blocked.has(node) && this.isReplayedWrite(node)) {
      // made again each round: only what it writes with runs once
      this.visitArguments(node);
      return;
    }
    if (ts.isExpression(node) && !this.blocked.has(node) && this.isCandidate(node)) {
      this.take(node as ts.Expression);
      return;
    }
    if (isAssignment(node) && !this.blocked.has(node)) {
      // a local write: only its value can hold effects (the target of `x = …` is a name)
      this.visitTarget(node.left);
      this.visit(node.right);
      return;
    }
    ts.forEachChild(node, (c) => this.visit(c));
  }

  /** Computed keys and indexes in an assignment target run too (`cache[await key()] = v`). */
  private visitTarget(target: ts.Expression): void {
    const t = unwrap(target);
    if (ts.isElementAccessExpression(t)) {
      this.visitTarget(t.expression);
      this.visit(t.argumentExpression);
    } else if (ts.isPropertyAccessExpression(t)) {
      this.visitTarget(t.expression);
    } else if (!ts.isIdentifier(t)) {
      ts.forEachChild(t, (c) => this.visit(c));
    }
  }

  /**
   * `cache.set(key, E)` on a built-in `Map`/`Set`/`WeakMap`/`WeakSet` the function does not own, before an
   * ask: made again on each round with its journalled arguments, as a plain assignment `X = E` is, so the
   * replica that runs a later round holds the entry too (memoized whole, only the first round's replica
   * did, and a read after the answer found nothing elsewhere). Only writes whose repetition changes nothing
   * (`set`, `add`, `delete` of the same values); a `push` adds again and stays memoized. The receiver is a
   * plain chain (`cache`, `this.sessions`), typed by the checker: without one, or for another class with
   * such a method, the call is memoized as before.
   */
  private isReplayedWrite(call: ts.CallExpression): boolean {
    if (!replayableCallee(call)) return false;
    // asked by the walk and again by isCandidate (the scope's questions): judged once
    let known = this.replayed.get(call);
    if (known === undefined) {
      // the cheap questions before the checker's
      known = this.canRunBeforeAnAsk(call) && isEffect(call, this.scope, this.judge) && this.writesReplayableCollection(call);
      this.replayed.set(call, known);
    }
    return known;
  }

  /** `cache.set(…)`, `seen.add(…)`, `held.delete(…)` on a built-in collection (by the checker's type) whose method repeats to no effect. */
  private writesReplayableCollection(call: ts.CallExpression): boolean {
    const callee = replayableCallee(call);
    if (!callee) return false;
    const kind = collectionKind(callee.expression, this.context.checker());
    return kind !== undefined && REPLAYED_COLLECTION_WRITES.get(callee.name.text)!.has(kind);
  }

  /** An effect here that can run before an ask point of this function. */
  private isCandidate(node: ts.Node): boolean {
    if (this.projected.has(node)) return this.canRunBeforeAnAsk(node);
    if (!isEffect(node, this.scope, this.judge)) return !!this.outerRead(node) || (ts.isCallExpression(node) && this.callReadsWrittenState(node));
    // `token = E` on outer state: E is memoized, and the write made again each round with its journalled
    // value, so whichever replica runs a later round holds what this call wrote (a write that adds to the
    // old value, `n++`, `n += k`, `c ??= E`, is memoized whole: made again, it would count twice)
    if (isAssignment(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken) return false;
    if (ts.isCallExpression(node) && this.isReplayedWrite(node)) return false;
    if (isCapabilityRead(node)) return false;
    if (!this.canRunBeforeAnAsk(node)) return false;
    // asked last: the checker is consulted only for what would otherwise be memoized (as carry() is)
    return !this.isNarrowingCall(node);
  }

  /**
   * A call of a type guard or an assertion function (`x is T`, `asserts x`): memoized, TypeScript would no
   * longer narrow by it (`once(() => isName(n))` is a plain boolean), and the code after it stops
   * type-checking. A guard only checks its arguments: it runs again each round. TypeScript files only.
   */
  private isNarrowingCall(node: ts.Node): boolean {
    if (!ts.isCallExpression(node) || !isTypeScript(this.flow.file)) return false;
    const checker = this.context.checker();
    const signature = checker?.getResolvedSignature(node);
    return !!signature && !!checker!.getTypePredicateOfSignature(signature);
  }

  /** A read of outer state the file writes, before an ask (outer-state.ts): memoized like an effect. */
  private outerRead(node: ts.Node): OuterStateRead | undefined {
    if (!ts.isIdentifier(node) && !ts.isPropertyAccessExpression(node) && !ts.isElementAccessExpression(node)) return undefined;
    // decided once per whole chain read, which names the part to memoize (a narrowed prefix, or itself)
    const whole = wholeChainOf(node);
    if (!this.outerState.mayBeWritten(whole) || !this.canRunBeforeAnAsk(whole)) return undefined;
    const read = this.outerState.read(whole);
    return read?.target === node ? read : undefined;
  }

  /**
   * Nothing in `node` can run before an ask of this function: it starts after the last answer, ends
   * before the code that runs again after a settled round, and lies in no loop with asks. Every node in
   * it fails `canRunBeforeAnAsk`, so no effect in it is taken: the walk skips it (in a handler, most of
   * the code is what it does with the answers). By `pos`, which is at or before the node's start.
   */
  private runsOnlyAfterEveryAsk(node: ts.Node): boolean {
    if (node.pos < this.lastAwaitEnd || node.end >= this.settledFrom) return false;
    if (this.flow.helper && this.context.asksAfterReturn(this.flow.fn)) return false;
    return !this.loopsWithAsks.some((loop) => node.pos < loop.end && node.end > loop.pos);
  }

  /**
   * A call of a function of the file whose body has no effect but reads outer state the file writes
   * (`label()` returning `${config.name}#${calls}`): re-run each round, its result could differ on the
   * retry (another replica, or a write between rounds), so it is memoized like a read of that state.
   */
  private callReadsWrittenState(node: ts.CallExpression): boolean {
    const callee = unwrap(node.expression);
    if (!ts.isIdentifier(callee) || !isTypeScript(this.flow.file)) return false;
    // a file whose text writes nothing outside declarations has no such state (the cheap answer, asked first)
    const written = rootsAssignedByText(this.flow.fn.getSourceFile());
    if ((!written.all && written.names.size === 0) || !this.canRunBeforeAnAsk(node)) return false;
    const local = this.scope.localFunction(callee.text);
    const fn = local ?? (this.scope.isLocal(callee.text) || this.judge.imported.has(callee.text) ? undefined : this.judge.moduleFunction(callee.text));
    if (!fn) return false;
    // a module function's answer is the same from every caller: kept with it
    const known: Pick<WeakMap<ts.FunctionLikeDeclaration, boolean>, 'get' | 'set'> = local ? this.stateReaders : moduleStateReaders;
    let reads = known.get(fn);
    if (reads === undefined) {
      reads = readsWrittenState(fn, local ? (name) => this.scope.isLocal(name) : () => false, this.judge, () => this.context.checker(), new Set());
      known.set(fn, reads);
    }
    // a type guard runs again each round (memoized, it would no longer narrow)
    return reads && !this.isNarrowingCall(node);
  }

  private canRunBeforeAnAsk(node: ts.Node): boolean {
    // a helper's later code runs before its caller's later asks, when there are any
    if (this.flow.helper && this.context.asksAfterReturn(this.flow.fn)) return true;
    const start = node.getStart();
    if (start >= this.settledFrom) return true;
    if (this.leavesWithoutAsking(node)) return false;
    if (start < this.lastAwaitEnd) return true;
    return this.loopsWithAsks.some((loop) => node.pos >= loop.pos && node.end <= loop.end);
  }

  /** In a `return` after which this function asks nothing more (leaves.ts): runs once, on the round that returns. */
  private leavesWithoutAsking(node: ts.Node): boolean {
    return leavesWithoutAsking(node, this.flow.fn, [...this.flow.askPoints.keys()]);
  }

  /** For the scope: will this initializer be memoized (so the name holds its journalled value)? */
  private isMemoizedValue(e: ts.Expression): boolean {
    let known = this.memoized.get(e);
    if (known === undefined) {
      this.memoized.set(e, false); // re-entry (a name read in its own initializer): not memoized
      known = !this.blocked.has(e) && this.isCandidate(e) && this.carry(e) !== false && !this.isAliasedStateRead(e);
      this.memoized.set(e, known);
    }
    return known;
  }

  private carry(e: ts.Expression): boolean | undefined {
    return carryableValue(e, this.context.checker());
  }

  /** An object of outer state read before an ask and written through after an answer (aliased-state.ts): left live. */
  private isAliasedStateRead(e: ts.Expression): boolean {
    let known = this.aliased.get(e);
    if (known === undefined) {
      known = aliasedStateRead(e, declaredBy(e), { ...this.heldContext(), isLocal: (name) => this.scope.isLocal(name) });
      this.aliased.set(e, known);
    }
    return known;
  }

  private take(e: ts.Expression): void {
    if (this.isAliasedStateRead(e)) {
      // read again each round; what it is read with (a key, an index) is judged on its own
      const read = unwrap(e);
      if (ts.isCallExpression(read)) this.visitArguments(read);
      else if (ts.isElementAccessExpression(read)) this.visit(read.argumentExpression);
      return;
    }
    if (this.outerRead(e)?.unkept) {
      this.out.blocking.push(unkeptNarrowing(e));
      return;
    }
    const timer = this.timerStarted(e);
    if (timer) {
      this.out.blocking.push({ reason: 'timer-across-ask', detail: `\`${timer}\`` });
      return;
    }
    const arrayWrite = this.arrayWriteAcrossAsk(e);
    if (arrayWrite) {
      // one entry per array: its first change before the ask says enough
      if (!this.arraysWrittenAcross.has(arrayWrite.array)) this.out.blocking.push({ reason: 'array-write-across-ask', detail: arrayWrite.detail });
      this.arraysWrittenAcross.add(arrayWrite.array);
      return;
    }
    // `void job()`: started and not waited for (fire and forget). The memo holds the whole `void`
    // expression, so the thunk returns at once (the journal keeps `undefined`) and the round does not
    // wait for the job, which runs once, on the round that reaches it, as the legacy code ran it
    const discarded = voidAround(e);
    if (discarded && !this.blocked.has(discarded)) {
      this.memo(discarded);
      return;
    }
    if (ts.isCallExpression(e) || ts.isNewExpression(e) || ts.isTaggedTemplateExpression(e) || ts.isAwaitExpression(e)) {
      const carry = this.carry(e);
      const awaits = ts.isAwaitExpression(e) || containsAwait(e);
      // a closure made before the ask and called after it (types, or the function called, say so), or a
      // promise made before it and awaited after it
      const names = declaredBy(e);
      const context = this.heldContext();
      const held = (carry !== true ? heldAcrossAsk(e, names, context) : undefined) ?? heldPromise(e, names, context);
      if (held) {
        this.out.blocking.push(held);
        return;
      }
      if (carry === false) {
        const materialized = awaits ? undefined : materializing(e, this.scope, this.judge);
        if (materialized && this.carry(materialized) !== false) {
          // `[...map.keys()]`, `Array.from(set)`: the iterator is spent at once; the array is what is kept
          this.memo(materialized);
          return;
        }
        if (!awaits && !isPromiseValue(e, this.context.checker())) {
          // computed synchronously: computed again each round, for a human to confirm it has no effect
          // named by what it declares, else by what it calls (`volume.keys()` inside a larger expression)
          this.out.recomputed.push({ statement: statementOf(e), names: names.length > 0 ? names : calledName(e) });
          this.visitArguments(e);
          return;
        }
        // used only before the ask, through what the journal carries: memoized, and so is each read of it
        const projection = projectedReads(e, names, context);
        if (projection && 'reads' in projection) {
          for (const read of projection.reads) this.projected.add(read);
          this.memo(e);
          for (const snapshot of projection.snapshots) this.snapshot(snapshot);
          return;
        }
        const why = projection ? ` (${projection.why})` : '';
        this.out.blocking.push({ reason: 'not-carryable', detail: names.length > 0 ? names.map((n) => `\`${n}\``).join(', ') + why : `\`${e.getText().slice(0, 60)}\`` });
        return;
      }
    }
    this.memo(e);
  }

  /** A read of data after the answer, taken right after the value is made: `const infoSize = await once(() => info.size);`. */
  private snapshot(s: SnapshotRead): void {
    for (const use of s.uses) this.snapshotted.add(use);
    this.memoCount++;
    if (this.context.verdictsOnly) return;
    const name = freshName(this.flow.fn, snapshotName(s.read), this.snapshotNames);
    this.snapshotNames.push(name);
    this.out.snapshots.push({
      at: s.after.end,
      indentFrom: s.after.getStart(),
      name,
      read: { start: s.read.getStart(), end: s.read.end },
      uses: s.uses.map((u) => ({ start: u.getStart(), end: u.end })),
    });
  }

  /** `e` is memoized: its memo, or (verdicts only) what a verdict can depend on of it. */
  private memo(e: ts.Expression): void {
    this.memoCount++;
    if (this.context.verdictsOnly) this.memoQuestions(e);
    else this.out.memos.push(this.memoOf(e));
  }

  /**
   * Verdicts only: of what `memoOf` computes, the questions a later judgement can depend on, asked in
   * the same order: the roles of the arguments `mutablesOf` looks at (a role, once asked, is kept). Its
   * checker questions are for this file, which `take` has asked the checker for already (the report
   * counts the files it was asked for).
   */
  private memoQuestions(e: ts.Expression): void {
    if (this.outerRead(e)) {
      this.outerStateMemos.push(e); // the live reads after it are judged against it (narrowedLiveReads)
      return;
    }
    const value = ts.isAwaitExpression(e) ? e.expression : e;
    const call = unwrap(value);
    if (ts.isCallExpression(call) || ts.isNewExpression(call)) {
      for (const a of call.arguments ?? []) {
        const arg = unwrap(a);
        if (ts.isIdentifier(arg)) this.scope.role(arg.text);
      }
    }
  }

  private heldContext(): HeldContext {
    const askPoints = [...this.flow.askPoints.values()].map((p) => ({ start: p.node.getStart(), awaitEnd: p.awaitEnd }));
    return { fn: this.flow.fn, askPoints, checker: this.context.checker(), judge: this.judge };
  }

  /**
   * The global timer a call starts (`setInterval(…)`, `globalThis.setTimeout(…)`), unless a local or an
   * import takes the name. A timer started before an ask outlives the round: nothing holds it between rounds, and the next round
   * may run on another replica, so it would fire, or never be cleared, on the one that started it.
   */
  private timerStarted(e: ts.Expression): string | undefined {
    const call = unwrap(e);
    if (!ts.isCallExpression(call)) return undefined;
    const chain = memberChain(call.expression);
    const name = chain.length === 1 ? chain[0] : chain.length === 2 && GLOBAL_OBJECTS.has(chain[0]) ? chain[1] : undefined;
    if (name === undefined || !TIMER_STARTS.has(name)) return undefined;
    if (shadowed(chain[0], this.scope, this.judge)) return undefined;
    // only a kept handle is held across the ask (to be cleared after it); a timer nobody keeps is judged
    // like any other call (a URL elicitation's simulated callback, a delayed log)
    return keepsValue(e) ? chain.join('.') : undefined;
  }

  /**
   * An outer array the memoized `e` changes in place (itself or through a function it calls), which this
   * function reads after a later answer (array-writes.ts): memoized, the change holds only on the replica
   * of its round; made again, it adds again. Needs the checker (which values are arrays).
   */
  private arrayWriteAcrossAsk(e: ts.Expression): ArrayWriteAcrossAsk | undefined {
    const checker = this.context.checker();
    if (!checker || !(ts.isCallExpression(unwrap(e)) || ts.isAwaitExpression(e))) return undefined;
    return arrayWriteAcrossAsk(e, { fn: this.flow.fn, checker, isLocal: (name) => this.scope.isLocal(name), answeredAfter: (node) => this.answeredAfter(node) });
  }

  /** Where this function is past the first answer after `node`: a later ask point's end, or the start of a loop with asks around it. */
  private answeredAfter(node: ts.Node): number | undefined {
    let from: number | undefined;
    for (const point of this.flow.askPoints.values()) if (point.node.getStart() >= node.end) from = Math.min(from ?? Infinity, point.awaitEnd);
    for (const loop of this.loopsWithAsks) if (node.pos >= loop.pos && node.end <= loop.end) from = Math.min(from ?? Infinity, loop.getStart());
    return from;
  }

  /** The arguments of a value computed again each round still run before the ask: judge them on their own. */
  private visitArguments(e: ts.Expression): void {
    if (ts.isCallExpression(e) || ts.isNewExpression(e)) for (const a of e.arguments ?? []) this.visit(a);
  }

  private memoOf(e: ts.Expression): PlanMemo {
    const read = this.outerRead(e);
    if (read) {
      // the thunk reads the state itself: handing the name in (narrowed) would read it live again
      const memo: PlanMemo = { start: e.getStart(), end: e.end, async: false, parens: needsParens(e) || read.nonNull };
      if (read.nonNull && !ts.isNonNullExpression(outerParent(e).parent ?? e)) memo.nonNull = true;
      if (read.cast) {
        memo.cast = read.cast;
        memo.parens = true;
      }
      this.outerStateMemos.push(e);
      return memo;
    }
    const awaited = ts.isAwaitExpression(e) ? e : undefined;
    const value = awaited ? awaited.expression : e;
    const memo: PlanMemo = {
      start: value.getStart(),
      end: value.end,
      async: containsAwait(value),
      parens: !awaited && needsParens(e),
    };
    if (awaited) memo.awaitStart = awaited.getStart();
    const mutables = this.mutablesOf(value);
    if (mutables.length > 0) memo.mutables = mutables;
    const restored = [...this.localsAssignedIn(value), ...this.updatedOuterTarget(value)];
    if (restored.length > 0) memo.restored = restored;
    const checker = this.context.checker();
    const narrowed = checker && isTypeScript(this.flow.file) ? narrowedReads(value, checker) : [];
    if (narrowed.length > 0) memo.narrowed = narrowed;
    const paths = checker && isTypeScript(this.flow.file) ? narrowedPaths(value, checker, narrowed) : [];
    if (paths.length > 0) {
      const taken: string[] = [...narrowed];
      memo.narrowedPaths = paths.map((p) => {
        const param = freshName(this.flow.fn, p.name.text, taken);
        taken.push(param);
        return { start: p.getStart(), end: p.end, param };
      });
    }
    return memo;
  }

  /** Local objects passed to the memoized call, which it may change in place (restored on replay). */
  private mutablesOf(value: ts.Expression): string[] {
    const call = unwrap(value);
    if (!ts.isCallExpression(call) && !ts.isNewExpression(call)) return [];
    const out: string[] = [];
    for (const a of call.arguments ?? []) {
      const arg = unwrap(a);
      if (!ts.isIdentifier(arg) || out.includes(arg.text)) continue;
      if (this.scope.role(arg.text) !== 'data') continue;
      const checker = this.context.checker();
      if (!((checker && isObjectValue(arg, checker)) ?? this.isObjectBySyntax(arg.text))) continue;
      out.push(arg.text);
    }
    return out;
  }

  /**
   * Locals of the path functions that `value` assigns from inside (a callback's `total = r.status`): on
   * replay the thunk does not run, so without restoring them later code would read their old values.
   * Names `value` declares itself (a callback's parameters and locals) are its own.
   */
  private localsAssignedIn(value: ts.Expression): string[] {
    const declared = new Set<string>();
    const assigned: string[] = [];
    const visit = (n: ts.Node): void => {
      if (ts.isParameter(n) || ts.isVariableDeclaration(n) || ts.isBindingElement(n)) {
        if (ts.isIdentifier(n.name)) declared.add(n.name.text);
      } else if ((ts.isFunctionDeclaration(n) || ts.isFunctionExpression(n)) && n.name) {
        declared.add(n.name.text);
      } else if (ts.isIdentifier(n) && isWrite(n) && !assigned.includes(n.text)) {
        assigned.push(n.text);
      }
      ts.forEachChild(n, visit);
    };
    visit(value);
    return assigned.filter((name) => !declared.has(name) && this.scope.isLocal(name) && !this.scope.localFunction(name));
  }

  /**
   * `this.calls += 1`, `count++`, `total ??= 0` on state outside the function, memoized whole (made again,
   * it would count twice): its target's value after the update is restored on replay, as a plain write
   * `X = E` is made again with E's journalled value, so the replica running a later round reads what the
   * first round left (`call ${this.calls}` after the answer). Only a plain chain the journal can carry.
   */
  private updatedOuterTarget(value: ts.Expression): string[] {
    const e = unwrap(value);
    const target = isAssignment(e) && e.operatorToken.kind !== ts.SyntaxKind.EqualsToken ? e.left
      : (ts.isPrefixUnaryExpression(e) || ts.isPostfixUnaryExpression(e)) && (e.operator === ts.SyntaxKind.PlusPlusToken || e.operator === ts.SyntaxKind.MinusMinusToken) ? e.operand
      : undefined;
    if (target === undefined || !isPlainChain(target)) return [];
    const root = rootIdentifier(target);
    if (root !== undefined && this.scope.isLocal(root.text)) return []; // a local: restored by localsAssignedIn, or re-run
    return carryableValue(target, this.context.checker()) === false ? [] : [unwrap(target).getText()];
  }

  /** Without types: a name bound to an object or array literal or a new collection (a parameter may hold a primitive: left out). */
  private isObjectBySyntax(name: string): boolean {
    const fn = this.flow.fn;
    let found = false;
    const visit = (n: ts.Node): void => {
      if (found || (isFunctionLike(n) && n !== fn)) return;
      if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.name.text === name && n.initializer) {
        const init = unwrap(n.initializer);
        found = ts.isObjectLiteralExpression(init) || ts.isArrayLiteralExpression(init) || ts.isNewExpression(init);
      }
      ts.forEachChild(n, visit);
    };
    if (fn.body) visit(fn.body);
    return found;
  }

  /** With `besidesRepeatedWrites`, a write made again on each round is no effect itself (its parts may hold one). */
  private hasEffect(node: ts.Node, besidesRepeatedWrites = false): boolean {
    let found = false;
    const visit = (n: ts.Node): void => {
      if (found || isFunctionLike(n)) return;
      if (besidesRepeatedWrites && this.isRepeatedWrite(n)) {
        if (ts.isCallExpression(n)) n.arguments.forEach(visit);
        else visit(n.right);
        return;
      }
      if (ts.isExpression(n) && isEffect(n, this.scope, this.judge) && !isCapabilityRead(n)) found = true;
      else ts.forEachChild(n, visit);
    };
    visit(node);
    return found;
  }

  /**
   * Verdicts only: of `guards()`, what can change a later judgement: whether an effectful `finally`
   * follows asks (its effects' roles, the checker). Those trys hold an ask point, so they are among the
   * blocked nodes; taken in the order `guards()` walks them.
   */
  private finallyEffects(): void {
    const fn = this.flow.fn;
    const trys = [...this.asking].filter((n): n is ts.TryStatement => ts.isTryStatement(n) && enclosingFunction(n) === fn).sort((a, b) => a.pos - b.pos);
    for (const t of trys) {
      const asks = this.asking.has(t.tryBlock) || (!!t.catchClause && this.asking.has(t.catchClause.block));
      if (asks && t.finallyBlock && this.hasEffect(t.finallyBlock)) {
        this.finallyRuns(t.finallyBlock);
        this.stateHeldAcross(t);
      }
    }
  }

  private guards(): void {
    const fn = this.flow.fn;
    const visit = (n: ts.Node): void => {
      if (isFunctionLike(n) && n !== fn) return;
      if (ts.isTryStatement(n)) this.guardTry(n);
      ts.forEachChild(n, visit);
    };
    if (fn.body) visit(fn.body);
  }

  private guardTry(t: ts.TryStatement): void {
    const asksInTry = this.asking.has(t.tryBlock);
    const asksInCatch = !!t.catchClause && this.asking.has(t.catchClause.block);
    if (asksInTry && t.catchClause) {
      const clause = t.catchClause;
      const decl = clause.variableDeclaration;
      const guard: PlanCatchGuard = { blockStart: clause.block.getStart(), binding: null };
      if (decl && ts.isIdentifier(decl.name)) {
        guard.binding = decl.name.text;
      } else if (decl) {
        guard.fresh = this.freshName('error');
        guard.pattern = { start: decl.name.getStart(), end: decl.name.end };
      } else {
        guard.fresh = this.freshName('error');
        guard.paramAt = clause.getStart() + 'catch'.length;
      }
      this.out.catchGuards.push(guard);
    }
    if ((asksInTry || asksInCatch) && t.finallyBlock && this.hasEffect(t.finallyBlock)) {
      const runs = this.finallyRuns(t.finallyBlock);
      if (runs === 'whole') this.out.finallyGuards.push({ blockStart: t.finallyBlock.getStart(), blockEnd: t.finallyBlock.end });
      else if (runs.length > 0) this.out.finallyGuards.push({ blockStart: t.finallyBlock.getStart(), blockEnd: t.finallyBlock.end, runs });
      this.stateHeldAcross(t);
    }
  }

  /**
   * What of an effectful `finally` after an ask runs only on the round that completes (`suspended()` is
   * false). A write made again on each round (`held.delete(env)`, `busy = false`: a plain assignment or a
   * built-in collection's set/add/delete on state the function does not own, as before an ask) runs on
   * every round: it undoes, on the replica of a round that stops to ask, what the same round made again
   * before its ask (`held.add(env)`), which the legacy call undid in its one process. The other
   * statements are guarded in runs; `'whole'` when every statement is one (the block guarded as a whole)
   * or a guarded one declares a name (a run's block would hide it from the statements after it).
   */
  private finallyRuns(block: ts.Block): 'whole' | { start: number; end: number }[] {
    const guarded = block.statements.map((st) => this.hasEffect(st, true));
    if (guarded.every(Boolean)) return 'whole';
    const runs: { start: number; end: number }[] = [];
    for (const [i, st] of block.statements.entries()) {
      if (!guarded[i]) continue;
      if (ts.isVariableStatement(st) || ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st)) return 'whole';
      if (i > 0 && guarded[i - 1]) runs[runs.length - 1].end = st.end;
      else runs.push({ start: st.getStart(), end: st.end });
    }
    return runs;
  }

  /** A write made again on each round (`X = E` on state, `cache.set`/`seen.add`/`held.delete` on a built-in the function does not own): only its parts can hold effects. */
  private isRepeatedWrite(n: ts.Node): n is ts.BinaryExpression | ts.CallExpression {
    if (isAssignment(n)) return n.operatorToken.kind === ts.SyntaxKind.EqualsToken && isPlainChain(n.left);
    return ts.isCallExpression(n) && this.writesReplayableCollection(n);
  }

  /**
   * Outer state (a module or closure variable, a member of one, a field of `this`) the function writes
   * before an ask of `t` and writes again in `t`'s `finally`: a flag, a lock or an entry of a collection
   * held while the client answers (`busy = true; try { await ask } finally { busy = false }`,
   * `pending.set(id, notify)` … `finally { pending.delete(id) }`). Ported, the write before the ask
   * runs on a round that stops to ask and the `finally` does not (it runs once, when the call completes),
   * so a round that is never retried, or is retried on another replica, leaves the state set on the
   * replica that set it: a busy flag would refuse every later call there. Running the `finally` each
   * round instead would clear it while the client still holds the question. `state-across-ask`.
   */
  private stateHeldAcross(t: ts.TryStatement): void {
    if (!t.finallyBlock || !this.flow.fn.body) return;
    const asks = [...this.flow.askPoints.keys()].filter((n) => n.pos >= t.pos && n.end <= t.finallyBlock!.pos).map((n) => n.getStart());
    if (asks.length === 0) return;
    const firstAsk = Math.min(...asks);
    const reset = this.outerWrites(t.finallyBlock);
    if (reset.size === 0) return;
    const before = this.outerWrites(this.flow.fn.body, firstAsk, reset);
    const held = [...reset].filter((k) => before.has(k));
    if (held.length > 0) this.out.blocking.push({ reason: 'state-across-ask', detail: held.map((k) => `\`${k}\``).join(', ') });
  }

  /**
   * The outer state `node` writes (`x = …`, `x++`, `this.a.b = …`, `pending.delete(id)`), by its written
   * path; in this function's own code, before `until` when given, and only the paths in `among` when given.
   */
  private outerWrites(node: ts.Node, until = Infinity, among?: ReadonlySet<string>): Set<string> {
    const out = new Set<string>();
    const visit = (n: ts.Node): void => {
      if (n.pos >= until || (n !== this.flow.fn && isFunctionLike(n))) return;
      if (n.end <= until) {
        const key = this.writtenPath(n, among);
        if (key) out.add(key);
      }
      ts.forEachChild(n, visit);
    };
    visit(node);
    return out;
  }

  /** The outer path `n` writes: an assignment's or update's target, or the built-in collection (by the checker's type) a mutator call changes. */
  private writtenPath(n: ts.Node, among: ReadonlySet<string> | undefined): string | undefined {
    const counted = (key: string | undefined): string | undefined => (key !== undefined && (!among || among.has(key)) ? key : undefined);
    if (isAssignment(n)) return counted(this.outerPath(n.left));
    if ((ts.isPrefixUnaryExpression(n) || ts.isPostfixUnaryExpression(n)) && (n.operator === ts.SyntaxKind.PlusPlusToken || n.operator === ts.SyntaxKind.MinusMinusToken)) return counted(this.outerPath(n.operand));
    if (!ts.isCallExpression(n)) return undefined;
    const callee = unwrap(n.expression);
    if (!ts.isPropertyAccessExpression(callee) || !BUILTIN_MUTATOR_NAMES.has(callee.name.text)) return undefined;
    const key = counted(this.outerPath(callee.expression));
    if (!key) return undefined;
    // the checker only for a path that counts: `pending.delete(id)` over a `Map`, not a client's `delete`
    const kind = collectionKind(callee.expression, this.context.checker());
    return kind !== undefined && BUILTIN_MUTATORS[kind]?.includes(callee.name.text) ? key : undefined;
  }

  /** `x`, `this.a`, `state.busy`: the written path of a target that is not the function's own (not a local, not a parameter's member). */
  private outerPath(target: ts.Expression): string | undefined {
    const t = unwrap(target);
    if (!ts.isIdentifier(t) && !ts.isPropertyAccessExpression(t)) return undefined;
    const chain = memberChain(t);
    if (chain.length === 0 || chain.includes('?')) return undefined;
    if (chain[0] === 'this') return chain.length > 1 ? chain.join('.') : undefined;
    return this.scope.isLocal(chain[0]) ? undefined : chain.join('.');
  }

  /** A name the function does not use yet. */
  private freshName(base: string): string {
    return freshName(this.flow.fn, base);
  }

  private makeAsync(): void {
    const fn = this.flow.fn;
    const block = (detail: string): void => void this.out.blocking.push({ reason: 'not-async', detail });
    if (fn.asteriskToken || ts.isGetAccessor(fn) || ts.isSetAccessor(fn) || ts.isConstructorDeclaration(fn)) return block('a generator, accessor or constructor cannot become async');
    if (fn.type && !isPromiseTypeNode(fn.type)) return block(`its return type ${fn.type.getText()} is not a Promise`);
    if (ts.isArrowFunction(fn)) this.out.asyncAt = fn.getStart();
    else if (ts.isMethodDeclaration(fn)) this.out.asyncAt = fn.name.getStart();
    else {
      const keyword = fn.getChildren().find((c) => c.kind === ts.SyntaxKind.FunctionKeyword);
      if (!keyword) return block('no function keyword found');
      this.out.asyncAt = keyword.getStart();
    }
  }
}

/** Types are written only in TypeScript files (a JavaScript file has no narrowing to keep). */
function isTypeScript(file: FileIndex): boolean {
  return /\.[cm]?tsx?$/.test(file.rel);
}

function isAsync(fn: ts.FunctionLikeDeclaration): boolean {
  return !!ts.getModifiers(fn as ts.HasModifiers)?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword);
}

function isPromiseTypeNode(type: ts.TypeNode): boolean {
  return ts.isTypeReferenceNode(type) && /^(Promise|PromiseLike)$/.test(type.typeName.getText());
}

/** Is an expression's value kept: a variable's initializer, the right side of an assignment, a property's value? */
function keepsValue(e: ts.Expression): boolean {
  const outer = outerParent(e);
  const parent = outer.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.initializer === outer;
  return isAssignment(parent) && parent.right === outer;
}

/** `volume.keys(…)`, `new Worker(…)`: how a marker names a value that declares no name (a plain chain only, so no comment text). */
function calledName(e: ts.Expression): string[] {
  const call = unwrap(e);
  if (!ts.isCallExpression(call) && !ts.isNewExpression(call)) return [];
  const chain = memberChain(call.expression);
  if (chain.length === 0 || chain.some((part) => part.includes('*/'))) return [];
  return [`${ts.isNewExpression(call) ? 'new ' : ''}${chain.join('.')}(…)`];
}

/**
 * The array that spends an iterator on the spot: `[...e]` (e its only element) or `Array.from(e)` (the
 * built-in, e its first argument). Nothing else sees the iterator, so the array is the value to keep.
 */
function materializing(e: ts.Expression, scope: FunctionScope, judge: EffectJudge): ts.Expression | undefined {
  const outer = outerParent(e);
  const parent = outer.parent;
  if (ts.isSpreadElement(parent) && ts.isArrayLiteralExpression(parent.parent) && parent.parent.elements.length === 1) return parent.parent;
  if (ts.isCallExpression(parent) && parent.arguments[0] === outer) {
    const callee = memberChain(parent.expression);
    if (callee.length === 2 && callee[0] === 'Array' && callee[1] === 'from' && !shadowed('Array', scope, judge)) return parent;
  }
  return undefined;
}

/** `cache`, `this.sessions`, `store.byId`: names and member reads only, so nothing in it runs but reads. */
/** The callee of `chain.method(…)` when the method is one whose repetition can change nothing (`set`, `add`, `delete`) and the receiver a plain chain. */
function replayableCallee(call: ts.CallExpression): ts.PropertyAccessExpression | undefined {
  const callee = unwrap(call.expression);
  return ts.isPropertyAccessExpression(callee) && REPLAYED_COLLECTION_WRITES.has(callee.name.text) && isPlainChain(callee.expression) ? callee : undefined;
}

function isPlainChain(e: ts.Expression): boolean {
  let n = unwrap(e);
  while (ts.isPropertyAccessExpression(n)) n = unwrap(n.expression);
  return ts.isIdentifier(n) || n.kind === ts.SyntaxKind.ThisKeyword;
}

/** `X.getClientCapabilities()`: becomes the per-request read (capabilities.ts), never memoized. */
export function isCapabilityRead(node: ts.Node): boolean {
  return ts.isCallExpression(node) && node.arguments.length === 0 && memberChain(node.expression).at(-1) === CAPABILITY_GETTER && memberChain(node.expression).length > 1;
}

/** The checker's view of a parameter: the SDK's handler context (it has `mcpReq`, or v1's `sendRequest`). */
function isContextType(type: ts.Type): boolean {
  return !!type.getProperty('mcpReq') || !!type.getProperty('sendRequest');
}

function containsAwait(node: ts.Node): boolean {
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found || isFunctionLike(n)) return;
    if (ts.isAwaitExpression(n) || (ts.isForOfStatement(n) && n.awaitModifier)) found = true;
    else ts.forEachChild(n, visit);
  };
  ts.forEachChild(node, visit);
  return found || ts.isAwaitExpression(node);
}

/** Does `await once(…)` need parentheses where `e` stands (`(await once(() => f())).x`)? */
function needsParens(e: ts.Expression): boolean {
  const p = e.parent;
  // `E!` → `(await once(() => E))!`: written `await once(() => E)!`, the `!` would apply to the promise
  if (ts.isNonNullExpression(p)) return true;
  const outer = outerParent(e);
  if (outer !== e) return false; // already inside parentheses or a cast
  if (ts.isPropertyAccessExpression(p) || ts.isElementAccessExpression(p)) return p.expression === e;
  if (ts.isCallExpression(p) || ts.isNewExpression(p)) return p.expression === e;
  if (ts.isTaggedTemplateExpression(p)) return p.tag === e;
  if (ts.isBinaryExpression(p)) return p.operatorToken.kind === ts.SyntaxKind.AsteriskAsteriskToken && p.left === e;
  return false;
}

const moduleStateReaders = new WeakMap<ts.FunctionLikeDeclaration, boolean>();

/**
 * Does the function's body (not the closures in it) read outer state the file writes (outer-state.ts), itself
 * or through a function of the file it calls (three deep)? `outerLocal`: names local to the function around it.
 */
function readsWrittenState(fn: ts.FunctionLikeDeclaration, outerLocal: (name: string) => boolean, judge: EffectJudge, checker: () => ts.TypeChecker | undefined, seen: Set<ts.Node>): boolean {
  if (!fn.body || seen.has(fn) || seen.size >= 3) return false;
  seen.add(fn);
  const own = new Set<string>();
  const declare = (n: ts.Node): void => {
    if ((ts.isParameter(n) || ts.isVariableDeclaration(n) || ts.isBindingElement(n) || ts.isFunctionDeclaration(n)) && n.name) for (const name of bindingNames(n.name as ts.BindingName)) own.add(name);
    ts.forEachChild(n, declare);
  };
  declare(fn);
  const isLocal = (name: string): boolean => own.has(name) || outerLocal(name);
  const reads = new OuterStateReads({ fn, isLocal, imported: judge.imported, checker, typed: true });
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found || (isFunctionLike(n) && n !== fn) || ts.isTypeNode(n)) return;
    if (ts.isIdentifier(n) || ts.isPropertyAccessExpression(n) || ts.isElementAccessExpression(n)) {
      const whole = wholeChainOf(n);
      if (whole === n && reads.mayBeWritten(whole) && reads.read(whole)) {
        found = true;
        return;
      }
    }
    if (ts.isCallExpression(n)) {
      const callee = unwrap(n.expression);
      const next = ts.isIdentifier(callee) && !isLocal(callee.text) && !judge.imported.has(callee.text) ? judge.moduleFunction(callee.text) : undefined;
      if (next && readsWrittenState(next, () => false, judge, checker, seen)) {
        found = true;
        return;
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(fn.body);
  return found;
}

/** A name for a snapshot, from the words of its read: `info.mtime` → `infoMtime`, `res.headers.get('x-total')` → `resHeadersGetXTotal`. */
function snapshotName(read: ts.Expression): string {
  const words: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isIdentifier(n) || ts.isPrivateIdentifier(n)) words.push(n.text.replace(/^#/, ''));
    else if (ts.isStringLiteralLike(n) || ts.isNumericLiteral(n)) words.push(...n.text.split(/[^A-Za-z0-9]+/).filter(Boolean));
    else ts.forEachChild(n, visit);
  };
  visit(read);
  const name = words.map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1))).join('').replace(/[^\w$]/g, '').slice(0, 40);
  return /^[A-Za-z_$]/.test(name) ? name : `snapshot${name}`;
}

/** The names a declaration binds when `e` is its initializer. */
function declaredBy(e: ts.Expression): string[] {
  const outer = outerParent(e);
  const p = outer.parent;
  if (p && ts.isVariableDeclaration(p) && p.initializer === outer) return bindingNames(p.name);
  if (p && ts.isBinaryExpression(p) && p.operatorToken.kind === ts.SyntaxKind.EqualsToken && p.right === outer) {
    const root = rootIdentifier(p.left);
    return root ? [p.left.getText()] : [];
  }
  return [];
}

/** The statement a marker for `node` goes above. */
export function statementOf(node: ts.Node): ts.Node {
  for (let n: ts.Node = node; n.parent; n = n.parent) {
    const p = n.parent;
    if ((ts.isBlock(p) || ts.isSourceFile(p) || ts.isModuleBlock(p) || ts.isCaseClause(p) || ts.isDefaultClause(p)) && !ts.isBlock(n)) return n;
  }
  return node;
}

/** The function a module declares at its top level under `name` (a declaration, or a const bound to one). */
function moduleFunction(file: FileIndex, name: string): ts.FunctionLikeDeclaration | undefined {
  const candidates = file.functions.get(name) ?? [];
  const top = candidates.filter((fn) => {
    if (enclosingFunction(fn) !== undefined) return false;
    if (ts.isFunctionDeclaration(fn)) return true;
    const holder = outerParent(fn).parent;
    return (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) && !!holder && ts.isVariableDeclaration(holder);
  });
  return top.length === 1 ? top[0] : undefined;
}

/** A read of outer state whose narrowed type the port cannot write where it is read (outer-state.ts). */
function unkeptNarrowing(read: ts.Expression): { reason: ReasonId; detail: string } {
  return { reason: 'narrowed-state', detail: `\`${read.getText().slice(0, 60)}\`` };
}

/** The `void` operator whose operand `e` is (through parentheses), if any: its value is thrown away. */
function voidAround(e: ts.Expression): ts.VoidExpression | undefined {
  const p = outerParent(e).parent;
  return p && ts.isVoidExpression(p) ? p : undefined;
}
