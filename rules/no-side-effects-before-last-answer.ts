import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { MRTR_API } from '../src/vocabulary.js';
import { propertyName, unwrap } from './lib/expressions.js';
import { FLOW_HINT, flowExportOf } from './lib/flow-runtime.js';
import { closure, nextAskInSource, reachesAnAsk, trackRounds } from './lib/round-paths.js';
import type { Frame, PathEvent } from './lib/round-paths.js';
import { EFFECT_OPTION_PROPERTIES, effectPatterns, within } from './lib/side-effects.js';
import { isReplayedCollectionWrite } from './lib/collection-writes.js';
import { arrayReadFrom, arraysChangedBy } from './lib/array-writes.js';
import { findVariable } from './lib/resolve.js';
import { createRule } from './create-rule.js';

export type Options = [{ pureCallees?: string[]; effectCallees?: string[] }];
export type MessageIds = 'beforeAsk' | 'duringAsk' | 'beforeFlowAsk' | 'arrayWriteAcrossAsk';

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
      arrayWriteAcrossAsk:
        'This memoized call changes `{{array}}` in place, and `{{array}}` is read after the answer at line {{askLine}} (line {{readLine}}): the change runs once, on the replica of the round that made it, and the round that reads it may run on another replica, which never saw it (made again each round, it would add again). Make the change after the last answer, or keep the array in a store every replica shares.',
    },
    schema: [
      {
        type: 'object',
        additionalProperties: false,
        properties: EFFECT_OPTION_PROPERTIES,
      },
    ],
  },
  defaultOptions: [{}],
  create(context, [options]) {
    const { sourceCode } = context;
    // Plain-text prefilter: without an input-required value or the runtime in the file there is nothing to judge.
    if (!mentionsAsk(sourceCode.text)) return {};
    const reported = new Set<TSESTree.Node>();
    const { listeners } = trackRounds(sourceCode, {
      patterns: effectPatterns(options),
      onAskingFunctionEnd: (frame) => {
        judge(frame);
        judgeArrayWrites(frame);
      },
      markOf: (call) => (flowExportOf(sourceCode, call.callee) === 'once' ? ONCE : undefined),
    });
    return listeners;

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
        // `requestState: \`step:${++mints}\``: a counter folded into the state is a per-round nonce; each round mints its own.
        if (insideAsk && isStateNonce(effect.node, insideAsk.builtBy ?? insideAsk.node)) continue;
        if (insideAsk) {
          report(effect, 'duringAsk', insideAsk);
          continue;
        }
        const reached = reachesAnAsk(frame, effect, reachesAsk);
        if (reached) {
          const ask = reached === true ? nextAskInSource(frame, effect.node) : reached;
          // replayed, `token = await once(…)` writes again the value the journal holds: the same on every round
          if (ask.kind === 'flow' && isReplayStableWrite(sourceCode, effect.node)) continue;
          // `cache.set(repo, await once(…))` on a Map declared here: made again each round, the same entry
          if (ask.kind === 'flow' && isReplayedCollectionWrite(sourceCode, effect.node, (e) => isOnceAwait(sourceCode, e))) continue;
          report(effect, ask.kind === 'flow' ? 'beforeFlowAsk' : 'beforeAsk', ask);
        } else if (effect.segments.some((s) => afterAsk.has(s))) {
          // e.g. a `finally` block: it runs after the ask's `return`, on the asking round.
          report(effect, 'duringAsk', nextAskInSource(frame, effect.node, true));
        }
      }
    }

    /** `await once(() => history.push(e))`, then a runtime ask, then `history` read: reported at the memo. */
    function judgeArrayWrites(frame: Frame): void {
      for (const memo of frame.marks) {
        if (memo.tag !== ONCE || memo.node.type !== AST_NODE_TYPES.CallExpression) continue;
        const thunk = memo.node.arguments[0];
        if (!thunk) continue;
        const ask = frame.asks.filter((a) => a.kind === 'flow' && a.node.range[0] >= memo.node.range[1]).sort((a, b) => a.node.range[0] - b.node.range[0])[0];
        if (!ask) continue;
        for (const array of arraysChangedBy(sourceCode, thunk, frame.node)) {
          const read = arrayReadFrom(array, frame.node, ask.node.range[1]);
          if (!read) continue;
          context.report({
            node: memo.node,
            messageId: 'arrayWriteAcrossAsk',
            data: { array: array.text, askLine: String(ask.node.loc.start.line), readLine: String(read.loc.start.line) },
          });
          break;
        }
      }
    }

    function report(effect: PathEvent & { readonly what: string }, messageId: MessageIds, ask: PathEvent): void {
      reported.add(effect.node);
      context.report({
        node: effect.node,
        messageId,
        data: { what: effect.what, askLine: String(ask.node.loc.start.line) },
      });
    }
  },
});

/** The mark of a `once(…)` call (judgeArrayWrites). */
const ONCE = 'once';

function mentionsAsk(text: string): boolean {
  return text.includes(MRTR_API.inputRequired) || text.includes(MRTR_API.resultType) || text.includes(FLOW_HINT);
}

/** A write (`++n`, `n += 1`) inside the `requestState` value of the ask it is part of. */
function isStateNonce(node: TSESTree.Node, ask: TSESTree.Node): boolean {
  if (node.type !== AST_NODE_TYPES.UpdateExpression && node.type !== AST_NODE_TYPES.AssignmentExpression) return false;
  for (let current: TSESTree.Node | undefined = node.parent; current && current !== ask; current = current.parent) {
    if (current.type === AST_NODE_TYPES.Property && propertyName(current.key, current.computed) === 'requestState') return true;
  }
  return false;
}

/**
 * `x = await once(…)`, `x = <literal>` or `x = <parameter>`: a plain assignment whose value is the same on every round, so
 * making it again on a replay (as the port does, so that whichever replica runs the next round holds what
 * the call wrote) changes nothing. A write that adds to the old value (`n++`, `n += 1`) is not one.
 */
function isReplayStableWrite(sourceCode: Parameters<typeof flowExportOf>[0], node: TSESTree.Node): boolean {
  if (node.type !== AST_NODE_TYPES.AssignmentExpression || node.operator !== '=') return false;
  const value = unwrap(node.right);
  if (value.type === AST_NODE_TYPES.Literal) return true;
  if (value.type === AST_NODE_TYPES.TemplateLiteral) return value.expressions.length === 0;
  if (value.type === AST_NODE_TYPES.Identifier) return value.name === 'undefined' || isUnchangedParameter(sourceCode, value);
  return isOnceAwait(sourceCode, value);
}

/** A parameter never assigned (`slots[index] = name` with the handler's `name`): the request's arguments are the same on every round. */
function isUnchangedParameter(sourceCode: Parameters<typeof flowExportOf>[0], id: TSESTree.Identifier): boolean {
  const variable = findVariable(sourceCode, id);
  return variable?.defs.length === 1 && variable.defs[0].type === 'Parameter' && variable.references.every((r) => !r.isWrite());
}

/** `await once(…)`: the journalled value, the same on every round. */
function isOnceAwait(sourceCode: Parameters<typeof flowExportOf>[0], node: TSESTree.Node): boolean {
  return node.type === AST_NODE_TYPES.AwaitExpression && node.argument.type === AST_NODE_TYPES.CallExpression && flowExportOf(sourceCode, node.argument.callee) === 'once';
}
