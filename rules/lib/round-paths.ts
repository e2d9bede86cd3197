/**
 * What runs on which round, from ESLint's code-path analysis: for each function, the asks it returns
 * (`inputRequired(...)`, a hand-built `{ resultType: 'input_required' }`, a local helper returning one),
 * the runtime asks it awaits (`await elicit(...)`), and the possible side effects on its paths, each with
 * the code-path segments live at that point. A rule decides, once a function's graph is complete, which
 * effects can still reach an ask (they run every round) and which cannot (they run on the final round).
 *
 * Shared by `no-side-effects-before-last-answer` and `require-at-most-once-final-round`.
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { unwrap, unwrapAwait } from './expressions.js';
import { FLOW_HINT, isBindingAccessor, isFlowAsk, isOnceThunk, isResumableHandler } from './flow-runtime.js';
import { isInputRequiredCall, isInputRequiredObject } from './mrtr-shapes.js';
import { enclosingFunction, localFunction, returnedExpressions, singleValueOf, type FunctionNode } from './resolve.js';
import { callEffect, targetText, writesOutside } from './side-effects.js';
import type { CallEffect, EffectPatterns } from './side-effects.js';

export type Segment = TSESLint.CodePathSegment;

/** One function's code path while it is being walked: its live segments, asks, marks and side effects. */
export interface Frame {
  readonly node: TSESTree.Node;
  readonly codePath: TSESLint.CodePath;
  readonly current: Set<Segment>;
  readonly asks: PathEvent[];
  /** Calls a rule tags (`claim`, `answer`, …), recorded where they are written. */
  readonly marks: (PathEvent & { readonly tag: string })[];
  /** Possible side effects; judged only if the function turns out to ask (most never do). */
  readonly candidates: Candidate[];
}

export interface Candidate extends PathEvent {
  /** What the effect is, seen from function `fn`, or undefined when it is none there. */
  readonly describe: (fn: TSESTree.Node) => string | undefined;
}

export interface PathEvent {
  readonly node: TSESTree.Node;
  /** For asks: a returned input_required value, or a call of the runtime (`await elicit(...)`) that suspends the round. */
  readonly kind?: 'return' | 'flow';
  /** For asks: the expression that builds the input-required value (the ask itself, or a variable's initialiser). */
  readonly builtBy?: TSESTree.Node;
  /** Every live segment at the event (a `finally` block runs on several paths at once). */
  readonly segments: readonly Segment[];
  /** Traversal order: within one segment, execution order. */
  readonly order: number;
}

export interface RoundTrackerOptions {
  readonly patterns: EffectPatterns;
  /** Called when a function's graph is complete and it asks (returned or runtime asks). */
  readonly onAskingFunctionEnd: (frame: Frame) => void;
  /** Called when any function's graph is complete (a rule that follows helpers keeps their frames). */
  readonly onFunctionEnd?: (frame: Frame) => void;
  /** Tags a call a rule wants to know about (it is then recorded in `frame.marks`), or undefined. */
  readonly markOf?: (call: TSESTree.CallExpression) => string | undefined;
}

/** The listeners that fill the frames; spread them into a rule's listener object. */
export function trackRounds(
  sourceCode: Readonly<TSESLint.SourceCode>,
  options: RoundTrackerOptions,
): { listeners: TSESLint.RuleListener; recordMark: (tag: string, node: TSESTree.Node) => void } {
  const usesFlow = sourceCode.text.includes(FLOW_HINT);
  const frames: Frame[] = [];
  let order = 0;

  // Code-path events are not in typescript-eslint's listener types (typescript-eslint#6993).
  const codePathListeners = {
    onCodePathStart(codePath: TSESLint.CodePath, node: TSESTree.Node): void {
      frames.push({ node, codePath, current: new Set(), asks: [], marks: [], candidates: [] });
    },
    onCodePathEnd(): void {
      const frame = frames.pop();
      if (frame) options.onFunctionEnd?.(frame);
      if (frame && frame.asks.length > 0) options.onAskingFunctionEnd(frame);
    },
    onCodePathSegmentStart(segment: Segment): void {
      frames.at(-1)?.current.add(segment);
    },
    onCodePathSegmentEnd(segment: Segment): void {
      frames.at(-1)?.current.delete(segment);
    },
    onUnreachableCodePathSegmentStart(segment: Segment): void {
      frames.at(-1)?.current.add(segment);
    },
    onUnreachableCodePathSegmentEnd(segment: Segment): void {
      frames.at(-1)?.current.delete(segment);
    },
  };

  const listeners: TSESLint.RuleListener = {
    ...(codePathListeners as unknown as TSESLint.RuleListener),
    CallExpression(node): void {
      if (recordAsk(node)) return;
      if (usesFlow && isFlowAsk(sourceCode, node)) {
        recordLifted(node, (frame, segments, at) => frame.asks.push({ node, kind: 'flow', segments, order: at }));
        return;
      }
      const tag = options.markOf?.(node);
      if (tag !== undefined) recordMark(tag, node);
      // Classified at most once, and only if some function on the lift chain turns out to ask.
      let classified = false;
      let effect: CallEffect | undefined;
      recordCandidate(node, (fn) => {
        if (!classified) {
          effect = callEffect(sourceCode, node, options.patterns);
          classified = true;
        }
        if (!effect) return undefined;
        return !effect.mutates || writesOutside(sourceCode, effect.mutates, fn) ? effect.what : undefined;
      });
    },
    ObjectExpression(node): void {
      if (isInputRequiredObject(node)) recordAsk(node);
    },
    ReturnStatement(node): void {
      // `const result = inputRequired(...); return result;`: the ask happens at the return.
      const frame = frames.at(-1);
      const returned = node.argument && unwrapAwait(node.argument);
      if (!frame || returned?.type !== AST_NODE_TYPES.Identifier) return;
      const value = singleValueOf(sourceCode, returned);
      if (value && askExpressions(value).some((e) => isAskValue(e, 0))) {
        frame.asks.push({ node: returned, kind: 'return', builtBy: unwrapAwait(value), segments: live(frame), order: order++ });
      }
    },
    AssignmentExpression(node): void {
      recordWrite(node, node.left, 'assignment to');
    },
    UpdateExpression(node): void {
      recordWrite(node, node.argument, 'update of');
    },
    UnaryExpression(node): void {
      if (node.operator === 'delete') recordWrite(node, node.argument, 'delete of');
    },
  };
  return { listeners, recordMark };

  /** Records `node` as an ask when it is an input_required value the current function returns. */
  function recordAsk(node: TSESTree.CallExpression | TSESTree.ObjectExpression): boolean {
    const frame = frames.at(-1);
    // Position first: it is cheap, and most calls are not returned (the helper lookup needs scopes).
    if (!frame || !isReturnedBy(node, frame.node)) return false;
    const isAsk = node.type === AST_NODE_TYPES.ObjectExpression || isInputRequiredCall(node) || callsAskingHelper(node);
    if (!isAsk) return false;
    frame.asks.push({ node, kind: 'return', segments: live(frame), order: order++ });
    return true;
  }

  function recordMark(tag: string, node: TSESTree.Node): void {
    recordLifted(node, (frame, segments, at) => frame.marks.push({ node, tag, segments, order: at }));
  }

  function recordWrite(node: TSESTree.Node, target: TSESTree.Node, verb: string): void {
    recordCandidate(node, (fn) => (writesOutside(sourceCode, target, fn) ? `${verb} \`${targetText(sourceCode, target)}\`` : undefined));
  }

  function recordCandidate(node: TSESTree.Node, describe: Candidate['describe']): void {
    recordLifted(node, (frame, segments, at) => frame.candidates.push({ node, segments, order: at, describe }));
  }

  /**
   * Records an event in the function it is written in and, when that function is a callback run by the
   * call it is passed to (or an IIFE), in the enclosing functions too: a runtime ask or an effect in
   * `Promise.all(items.map(async (i) => …))` happens in the handler. `once(() => E)` stops the lift: E is
   * memoized, it runs once per call and is replayed from the journal after.
   */
  function recordLifted(node: TSESTree.Node, push: (frame: Frame, segments: Segment[], at: number) => void): void {
    const at = order++;
    for (let i = frames.length - 1; i >= 0; i--) {
      const frame = frames[i];
      const segments = live(frame);
      if (segments.length === 0) return;
      push(frame, segments, at);
      // a resumable handler runs when its request comes, not where it is written: its asks are its own
      if (!runsWhereWritten(frame.node) || (usesFlow && (isOnceThunk(sourceCode, frame.node) || isBindingAccessor(sourceCode, frame.node) || isResumableHandler(sourceCode, frame.node as FunctionNode)))) return;
    }
  }

  /** `return askAgain()` where `askAgain` is a local function returning input_required. */
  function callsAskingHelper(call: TSESTree.CallExpression, depth = 0): boolean {
    const fn = localFunction(sourceCode, unwrap(call.callee));
    if (!fn || depth > 3) return false;
    return returnedExpressions(fn).some((value) => askExpressions(value).some((e) => isAskValue(e, depth + 1)));
  }

  function isAskValue(node: TSESTree.Node, depth: number): boolean {
    if (node.type === AST_NODE_TYPES.ObjectExpression) return isInputRequiredObject(node);
    if (node.type !== AST_NODE_TYPES.CallExpression) return false;
    return isInputRequiredCall(node) || callsAskingHelper(node, depth);
  }
}

/** The live, reachable segments of a frame right now. */
function live(frame: Frame): Segment[] {
  return [...frame.current].filter((s) => s.reachable);
}

/** Segments reachable from `start` by `step`, `start` included. */
export function closure(start: Set<Segment>, step: (s: Segment) => readonly Segment[]): Set<Segment> {
  const seen = new Set(start);
  const queue = [...start];
  while (queue.length > 0) {
    for (const next of step(queue.pop() as Segment)) {
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return seen;
}

/** Can this event still reach one of the frame's asks (a later ask in its segment, or through the graph)? */
export function reachesAnAsk(frame: Frame, event: PathEvent, reachesAsk: Set<Segment>): PathEvent | true | undefined {
  const laterAsk = frame.asks.find((a) => a.order > event.order && a.segments.some((s) => event.segments.includes(s)));
  if (laterAsk) return laterAsk;
  return event.segments.some((s) => s.nextSegments.some((n) => reachesAsk.has(n))) ? true : undefined;
}

/** The first ask after `node` in the source (or, with `before`, the last one before it; else the first ask), for messages. */
export function nextAskInSource(frame: Frame, node: TSESTree.Node, before = false): PathEvent {
  const sorted = [...frame.asks].sort((a, b) => a.node.range[0] - b.node.range[0]);
  if (before) return sorted.filter((a) => a.node.range[0] < node.range[0]).at(-1) ?? sorted[0];
  return sorted.find((a) => a.node.range[0] > node.range[0]) ?? sorted[0];
}

/** The values a returned expression may evaluate to: through `await`, casts, `?:`, `&&`/`||`/`??`. */
function askExpressions(node: TSESTree.Node): TSESTree.Node[] {
  const n = unwrap(node);
  switch (n.type) {
    case AST_NODE_TYPES.AwaitExpression:
      return askExpressions(n.argument);
    case AST_NODE_TYPES.ConditionalExpression:
      return [...askExpressions(n.consequent), ...askExpressions(n.alternate)];
    case AST_NODE_TYPES.LogicalExpression:
      return [...askExpressions(n.left), ...askExpressions(n.right)];
    case AST_NODE_TYPES.SequenceExpression:
      return askExpressions(n.expressions[n.expressions.length - 1]);
    default:
      return [n];
  }
}

/** Is `node` what `fn` returns: the argument of one of its `return`s, or its expression body? */
function isReturnedBy(node: TSESTree.Node, fn: TSESTree.Node): boolean {
  let current: TSESTree.Node = node;
  for (let parent = node.parent; parent; current = parent, parent = parent.parent) {
    switch (parent.type) {
      case AST_NODE_TYPES.AwaitExpression:
      case AST_NODE_TYPES.TSAsExpression:
      case AST_NODE_TYPES.TSSatisfiesExpression:
      case AST_NODE_TYPES.TSNonNullExpression:
      case AST_NODE_TYPES.ChainExpression:
        continue;
      case AST_NODE_TYPES.ConditionalExpression:
        if (parent.test === current) return false;
        continue;
      case AST_NODE_TYPES.LogicalExpression:
        continue;
      case AST_NODE_TYPES.SequenceExpression:
        if (parent.expressions[parent.expressions.length - 1] !== current) return false;
        continue;
      case AST_NODE_TYPES.ReturnStatement:
        return enclosingFunction(parent) === fn;
      case AST_NODE_TYPES.ArrowFunctionExpression:
        return parent === fn && parent.body === current;
      default:
        return false;
    }
  }
  return false;
}

/** Does this function run during the call it is written in: a callback argument or an IIFE? */
function runsWhereWritten(fn: TSESTree.Node): boolean {
  if (fn.type !== AST_NODE_TYPES.ArrowFunctionExpression && fn.type !== AST_NODE_TYPES.FunctionExpression) return false;
  let value: TSESTree.Node = fn;
  while (
    value.parent &&
    (value.parent.type === AST_NODE_TYPES.TSAsExpression || value.parent.type === AST_NODE_TYPES.TSNonNullExpression)
  ) {
    value = value.parent;
  }
  const parent = value.parent;
  if (parent?.type === AST_NODE_TYPES.CallExpression) return true;
  return parent?.type === AST_NODE_TYPES.NewExpression && parent.arguments.includes(value as TSESTree.CallExpressionArgument);
}
