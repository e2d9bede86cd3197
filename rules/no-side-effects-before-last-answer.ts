import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { MRTR_API } from '../src/vocabulary.js';
import { unwrap, unwrapAwait } from './lib/expressions.js';
import { isInputRequiredCall, isInputRequiredObject } from './lib/mrtr-shapes.js';
import { localFunction, returnedExpressions, singleValueOf } from './lib/resolve.js';
import type { FunctionNode } from './lib/resolve.js';
import { FLOW_HINT, isFlowAsk, isOnceThunk } from './lib/flow-runtime.js';
import { callEffect, compilePatterns, targetText, within, writesOutside } from './lib/side-effects.js';
import type { CallEffect, EffectPatterns } from './lib/side-effects.js';
import { createRule } from './create-rule.js';

export type Options = [{ pureCallees?: string[]; effectCallees?: string[] }];
export type MessageIds = 'beforeAsk' | 'duringAsk' | 'beforeFlowAsk';

type CodePath = TSESLint.CodePath;
type Segment = TSESLint.CodePathSegment;

/** One function's code path while it is being walked: its live segments, asks and side effects. */
interface Frame {
  readonly node: TSESTree.Node;
  readonly current: Set<Segment>;
  readonly asks: Event[];
  /** Possible side effects; judged only if the function turns out to ask (most never do). */
  readonly candidates: Candidate[];
}

interface Candidate extends Event {
  /** What the effect is, seen from function `fn`, or undefined when it is none there. */
  readonly describe: (fn: TSESTree.Node) => string | undefined;
}

interface Event {
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

export default createRule<Options, MessageIds>({
  name: 'no-side-effects-before-last-answer',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow side effects on paths that can still return `inputRequired(...)`.',
      recommended: 'recommended',
      requiresTypeChecking: false,
    },
    messages: {
      beforeAsk:
        'This {{what}} runs on every round: the handler can still return inputRequired(...) after it (line {{askLine}}) and is re-entered from the top with the answer. Move it after the last answer is read, or make it idempotent and list it in `pureCallees`.',
      duringAsk:
        'This {{what}} runs on the round that returns inputRequired(...) (line {{askLine}}), so it runs again on every round. Compute it after the last answer is read.',
      beforeFlowAsk:
        'This {{what}} runs again on every round until the answer at line {{askLine}} arrives: a resumable handler replays from the top, and only `once(() => ...)` calls are taken from the journal. Wrap it: `await once(() => ...)`, or move it after the last answer.',
    },
    schema: [
      {
        type: 'object',
        additionalProperties: false,
        properties: {
          pureCallees: {
            type: 'array',
            items: { type: 'string' },
            description:
              'Callee patterns that only read (`*` matches anything; a pattern with a dot matches the whole callee, e.g. `db.users.select*`, without one the method name).',
          },
          effectCallees: {
            type: 'array',
            items: { type: 'string' },
            description: 'Callee patterns that always have a side effect, awaited or not; they win over `pureCallees` and the built-in reads.',
          },
        },
      },
    ],
  },
  defaultOptions: [{}],
  create(context, [options]) {
    const { sourceCode } = context;
    // Plain-text prefilter: without an input-required value in the file there is nothing to judge.
    if (!mentionsAsk(sourceCode.text)) return {};
    const patterns: EffectPatterns = {
      pure: compilePatterns(options.pureCallees ?? []),
      effect: compilePatterns(options.effectCallees ?? []),
    };
    const usesFlow = sourceCode.text.includes(FLOW_HINT);
    const frames: Frame[] = [];
    const reported = new Set<TSESTree.Node>();
    let order = 0;

    // Code-path events are not in typescript-eslint's listener types (typescript-eslint#6993).
    const codePathListeners = {
      onCodePathStart(_codePath: CodePath, node: TSESTree.Node): void {
        frames.push({ node, current: new Set(), asks: [], candidates: [] });
      },
      onCodePathEnd(): void {
        const frame = frames.pop();
        if (frame && frame.asks.length > 0) judge(frame);
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

    return {
      ...(codePathListeners as unknown as TSESLint.RuleListener),
      CallExpression(node): void {
        if (recordAsk(node)) return;
        if (usesFlow && isFlowAsk(sourceCode, node)) {
          recordFlowAsk(node);
          return;
        }
        // Classified at most once, and only if some function on the lift chain turns out to ask.
        let classified = false;
        let effect: CallEffect | undefined;
        recordCandidate(node, (fn) => {
          if (!classified) {
            effect = callEffect(sourceCode, node, patterns);
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
          frame.asks.push({ node: returned, builtBy: unwrapAwait(value), segments: live(frame), order: order++ });
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

    /** Records `node` as an ask when it is an input_required value the current function returns. */
    function recordAsk(node: TSESTree.CallExpression | TSESTree.ObjectExpression): boolean {
      const frame = frames.at(-1);
      // Position first: it is cheap, and most calls are not returned (the helper lookup needs scopes).
      if (!frame || !isReturnedBy(node, frame.node)) return false;
      const isAsk =
        node.type === AST_NODE_TYPES.ObjectExpression || isInputRequiredCall(node) || callsAskingHelper(node);
      if (!isAsk) return false;
      frame.asks.push({ node, kind: 'return', segments: live(frame), order: order++ });
      return true;
    }

    /**
     * A runtime ask suspends the round wherever it is, so it is an ask of its own function and, when that
     * function is a callback run in place (`Promise.all(items.map(async (i) => elicit(...)))`), of the
     * enclosing ones too.
     */
    function recordFlowAsk(node: TSESTree.CallExpression): void {
      const at = order++;
      for (let i = frames.length - 1; i >= 0; i--) {
        const frame = frames[i];
        const segments = live(frame);
        if (segments.length === 0) return;
        frame.asks.push({ node, kind: 'flow', segments, order: at });
        if (!runsWhereWritten(frame.node)) return;
      }
    }

    function recordWrite(node: TSESTree.Node, target: TSESTree.Node, verb: string): void {
      recordCandidate(node, (fn) =>
        writesOutside(sourceCode, target, fn) ? `${verb} \`${targetText(sourceCode, target)}\`` : undefined,
      );
    }

    /**
     * Records a possible side effect in the function it is written in and, when that function is a
     * callback run by the call it is passed to (or an IIFE), in the enclosing functions too.
     */
    function recordCandidate(node: TSESTree.Node, describe: Candidate['describe']): void {
      const at = order++;
      for (let i = frames.length - 1; i >= 0; i--) {
        const frame = frames[i];
        const segments = live(frame);
        if (segments.length === 0) return;
        frame.candidates.push({ node, segments, order: at, describe });
        // `once(() => E)` runs E once per call (replayed from the journal after): not an effect of the rounds.
        if (!runsWhereWritten(frame.node) || (usesFlow && isOnceThunk(sourceCode, frame.node))) return;
      }
    }

    /** Decides once the function's graph is complete (react-hooks' rules-of-hooks does the same). */
    function judge(frame: Frame): void {
      const askSegments = new Set(frame.asks.flatMap((a) => a.segments));
      const reachesAsk = closure(askSegments, (s) => s.prevSegments);
      // Only a returned ask has an "after" on the asking round (a `finally`); after a runtime ask the code
      // simply continues on the round that has the answer.
      const returnSegments = frame.asks.filter((a) => a.kind !== 'flow').flatMap((a) => a.segments);
      const afterAsk = closure(new Set(returnSegments.flatMap((s) => s.nextSegments)), (s) => s.nextSegments);
      for (const candidate of frame.candidates) {
        if (reported.has(candidate.node)) continue;
        const what = candidate.describe(frame.node);
        if (what === undefined) continue;
        // The call that builds a held ask (`const r = await askHelper(); … return r`) is the ask, not an effect.
        if (frame.asks.some((a) => a.builtBy === candidate.node)) continue;
        const effect = { ...candidate, what };
        const insideAsk = frame.asks.find((a) => within(effect.node, a.builtBy ?? a.node));
        if (insideAsk) {
          report(effect, 'duringAsk', insideAsk);
          continue;
        }
        const laterAsk = frame.asks.find(
          (a) => a.order > effect.order && a.segments.some((s) => effect.segments.includes(s)),
        );
        const canStillAsk =
          laterAsk !== undefined || effect.segments.some((s) => s.nextSegments.some((n) => reachesAsk.has(n)));
        if (canStillAsk) {
          const ask = laterAsk ?? nextAskInSource(frame, effect.node);
          report(effect, ask.kind === 'flow' ? 'beforeFlowAsk' : 'beforeAsk', ask);
        } else if (effect.segments.some((s) => afterAsk.has(s))) {
          // e.g. a `finally` block: it runs after the ask's `return`, on the asking round.
          report(effect, 'duringAsk', nextAskInSource(frame, effect.node, true));
        }
      }
    }

    function report(effect: Event & { readonly what: string }, messageId: MessageIds, ask: Event): void {
      reported.add(effect.node);
      context.report({
        node: effect.node,
        messageId,
        data: { what: effect.what, askLine: String(ask.node.loc.start.line) },
      });
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
  },
});

function mentionsAsk(text: string): boolean {
  return text.includes(MRTR_API.inputRequired) || text.includes(MRTR_API.resultType) || text.includes(FLOW_HINT);
}

/** The live, reachable segments of a frame right now. */
function live(frame: Frame): Segment[] {
  return [...frame.current].filter((s) => s.reachable);
}

/** Segments reachable from `start` by `step`, `start` included. */
function closure(start: Set<Segment>, step: (s: Segment) => readonly Segment[]): Set<Segment> {
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

/** The first ask after `node` in the source (or, if none, the first ask), for messages. */
function nextAskInSource(frame: Frame, node: TSESTree.Node, before = false): Event {
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

function enclosingFunction(node: TSESTree.Node): FunctionNode | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (
      current.type === AST_NODE_TYPES.FunctionDeclaration ||
      current.type === AST_NODE_TYPES.FunctionExpression ||
      current.type === AST_NODE_TYPES.ArrowFunctionExpression
    ) {
      return current;
    }
  }
  return undefined;
}
