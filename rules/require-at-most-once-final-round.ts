import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { MRTR_API } from '../src/vocabulary.js';
import { CONTINUATION_ANSWER_READER } from './lib/elicit-answers.js';
import { memberPath, outermostWrapper, propertyName, unwrap } from './lib/expressions.js';
import { FLOW_HINT, isInsideResumable, isResumableHandler } from './lib/flow-runtime.js';
import type { FunctionNode } from './lib/resolve.js';
import { localFunction } from './lib/resolve.js';
import { isRepeatSafe } from './lib/repeat-safety.js';
import { closure, reachesAnAsk, trackRounds } from './lib/round-paths.js';
import type { Frame, PathEvent, Segment } from './lib/round-paths.js';
import { EFFECT_OPTION_PROPERTIES, compilePatterns, effectPatterns, within } from './lib/side-effects.js';
import type { CalleePattern } from './lib/side-effects.js';
import { createRule } from './create-rule.js';

export type Options = [{ claimCallees?: string[]; idempotentCallees?: string[]; pureCallees?: string[]; effectCallees?: string[] }];
export type MessageIds = 'unclaimedFinalEffect' | 'unclaimedFinalEffectInHelper' | 'claimResultIgnored';

/** The continuation helper's claim (src/runtime/mrtr-continuation.ts): false when the state was already claimed. */
const CLAIM_ONCE = 'claimOnce';
const ANSWER_READERS = new Set<string>([MRTR_API.inputResponse, MRTR_API.acceptedContent, CONTINUATION_ANSWER_READER]);
const INPUT_RESPONSES = MRTR_API.inputResponsesPath[MRTR_API.inputResponsesPath.length - 1];
/** How deep calls of local helpers are followed from the final round (`finish()` → `addTask()` → `nextId++`). */
const MAX_HELPER_DEPTH = 3;

export default createRule<Options, MessageIds>({
  name: 'require-at-most-once-final-round',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Require a side effect after the last answer to be claimed once per state (or carry an idempotency key), so a replayed final round does not repeat it.',
      recommended: 'strict',
      requiresTypeChecking: false,
    },
    messages: {
      unclaimedFinalEffect:
        'This {{what}} runs on the final round, after the answer read at line {{answerLine}}, and nothing claims that round: a client that sends the same requestState and answers again runs it again. Claim the state before it (`if (!(await claimOnce(opened))) return …`) or pass an idempotency key.',
      unclaimedFinalEffectInHelper:
        'This call of `{{callee}}(...)` runs on the final round, after the answer read at line {{answerLine}}, and nothing claims that round; it makes a {{what}} (line {{effectLine}}), which a client replaying the round (same requestState and answers) repeats. Claim the state before the call (`if (!(await claimOnce(opened))) return …`), or make that effect repeat-safe.',
      claimResultIgnored:
        'This {{what}} runs after `claimOnce(...)` (line {{claimLine}}), but the claim\'s result is dropped: it is false for a state that was already claimed, and the replay goes on. Return when it is false: `if (!(await claimOnce(opened))) return …`.',
    },
    schema: [
      {
        type: 'object',
        additionalProperties: false,
        properties: {
          claimCallees: {
            type: 'array',
            items: { type: 'string' },
            description:
              'Callee patterns that claim a state at most once (they return false or throw on a replay); `claimOnce` is always one. `*` matches anything; a pattern with a dot matches the whole callee.',
          },
          idempotentCallees: {
            type: 'array',
            items: { type: 'string' },
            description: 'Callee patterns of effects that are safe to repeat, or of helpers whose callbacks are (`withIdempotencyKey`).',
          },
          ...EFFECT_OPTION_PROPERTIES,
        },
      },
    ],
  },
  defaultOptions: [{}],
  create(context, [options]) {
    const { sourceCode } = context;
    // Prefilter: a final round exists only where answers are read.
    if (!mentionsAnswers(sourceCode.text)) return {};
    const usesFlow = sourceCode.text.includes(FLOW_HINT);
    const claims = compilePatterns(options.claimCallees ?? []);
    const idempotent = compilePatterns(options.idempotentCallees ?? []);
    const reported = new Set<TSESTree.Node>();

    /** Every function's finished frame (helpers are followed from the final round) and the asking ones, judged at the end. */
    const frameOf = new Map<TSESTree.Node, Frame>();
    const asking: Frame[] = [];
    const isIdempotent = (call: TSESTree.CallExpression): boolean => matches(idempotent, memberPath(call.callee));

    const { listeners, recordMark } = trackRounds(sourceCode, {
      patterns: effectPatterns(options),
      onAskingFunctionEnd: (frame) => asking.push(frame),
      onFunctionEnd: (frame) => frameOf.set(frame.node, frame),
      markOf(call) {
        const path = memberPath(call.callee);
        const name = path[path.length - 1];
        if (name === CLAIM_ONCE) return isResultUsed(call) ? 'claim' : 'ignoredClaim';
        if (matches(claims, path)) return 'claim';
        return ANSWER_READERS.has(name) ? 'answer' : undefined;
      },
    });

    return {
      ...listeners,
      // `ctx.mcpReq.inputResponses`, `params.inputResponses`, and a destructured `inputResponses?.confirm`.
      MemberExpression(node): void {
        const object = node.object;
        const fromLocal = object.type === AST_NODE_TYPES.Identifier && object.name === INPUT_RESPONSES;
        if (fromLocal || propertyName(node.property, node.computed) === INPUT_RESPONSES) recordMark('answer', node);
      },
      // A call of a local helper happens after its arguments are evaluated: recorded on exit.
      'CallExpression:exit'(node): void {
        if (unwrap(node.callee).type === AST_NODE_TYPES.Identifier) recordMark('helper', node);
      },
      'Program:exit'(): void {
        for (const frame of asking) judge(frame);
      },
    };

    function judge(frame: Frame): void {
      // The runtime claims the final round of a resumable handler itself (docs/engine.md).
      if (frame.asks.some((a) => a.kind === 'flow')) return;
      if (usesFlow && isFunction(frame.node) && (isResumableHandler(sourceCode, frame.node) || isInsideResumable(sourceCode, frame.node))) return;
      const answers = frame.marks.filter((m) => m.tag === 'answer');
      if (answers.length === 0) return;
      const claimMarks = frame.marks.filter((m) => m.tag === 'claim');
      const askSegments = new Set(frame.asks.flatMap((a) => a.segments));
      const reachesAsk = closure(askSegments, (s) => s.prevSegments);
      const unclaimed = unclaimedSegments(frame, claimMarks);
      for (const candidate of frame.candidates) {
        if (reported.has(candidate.node)) continue;
        const what = candidate.describe(frame.node);
        if (what === undefined) continue;
        // Before an ask it is the other rule's finding (it runs every round); inside an ask it builds the question.
        if (frame.asks.some((a) => a.builtBy === candidate.node || within(candidate.node, a.builtBy ?? a.node))) continue;
        if (reachesAnAsk(frame, candidate, reachesAsk)) continue;
        const answer = answerBefore(answers, candidate);
        if (!answer) continue;
        if (isClaimed(candidate, claimMarks, unclaimed)) continue;
        if (isRepeatSafe(sourceCode, candidate.node, isIdempotent)) continue;
        const ignored = frame.marks.find((m) => m.tag === 'ignoredClaim' && precedes(m, candidate));
        reported.add(candidate.node);
        context.report(
          ignored
            ? { node: candidate.node, messageId: 'claimResultIgnored', data: { what, claimLine: String(ignored.node.loc.start.line) } }
            : { node: candidate.node, messageId: 'unclaimedFinalEffect', data: { what, answerLine: String(answer.node.loc.start.line) } },
        );
      }
      for (const call of frame.marks) {
        if (call.tag !== 'helper' || reported.has(call.node) || call.node.type !== AST_NODE_TYPES.CallExpression) continue;
        if (frame.asks.some((a) => within(call.node, a.builtBy ?? a.node)) || reachesAnAsk(frame, call, reachesAsk)) continue;
        const answer = answerBefore(answers, call);
        if (!answer || isClaimed(call, claimMarks, unclaimed) || isRepeatSafe(sourceCode, call.node, isIdempotent)) continue;
        const effect = helperEffect(call.node, 1, new Set());
        if (!effect) continue;
        reported.add(call.node);
        context.report({
          node: call.node,
          messageId: 'unclaimedFinalEffectInHelper',
          data: {
            callee: sourceCode.getText(unwrap(call.node.callee)),
            answerLine: String(answer.node.loc.start.line),
            what: effect.what,
            effectLine: String(effect.node.loc.start.line),
          },
        });
      }
    }

    /** The first effect that is not repeat-safe in a local helper (or the helpers it calls), unless the helper claims. */
    function helperEffect(call: TSESTree.CallExpression, depth: number, seen: Set<TSESTree.Node>): { what: string; node: TSESTree.Node } | undefined {
      const fn = localFunction(sourceCode, unwrap(call.callee));
      const frame = fn && frameOf.get(fn);
      if (!fn || !frame || seen.has(fn) || depth > MAX_HELPER_DEPTH) return undefined;
      seen.add(fn);
      if (frame.marks.some((m) => m.tag === 'claim')) return undefined;
      for (const candidate of frame.candidates) {
        const what = candidate.describe(frame.node);
        if (what !== undefined && !isRepeatSafe(sourceCode, candidate.node, isIdempotent)) return { what, node: candidate.node };
      }
      for (const inner of frame.marks) {
        if (inner.tag !== 'helper' || inner.node.type !== AST_NODE_TYPES.CallExpression || isRepeatSafe(sourceCode, inner.node, isIdempotent)) continue;
        const found = helperEffect(inner.node, depth + 1, seen);
        if (found) return found;
      }
      return undefined;
    }
  },
});

function matches(patterns: readonly CalleePattern[], path: readonly string[]): boolean {
  return patterns.some((p) => p(path.join('.'), path[path.length - 1]));
}

function isFunction(node: TSESTree.Node): node is FunctionNode {
  return (
    node.type === AST_NODE_TYPES.ArrowFunctionExpression ||
    node.type === AST_NODE_TYPES.FunctionExpression ||
    node.type === AST_NODE_TYPES.FunctionDeclaration
  );
}

/** Does `a` run before `b` on some path: earlier in a shared segment, or in a segment that leads to `b`'s? */
function precedes(a: PathEvent, b: PathEvent): boolean {
  // An answer read in the effect's own arguments is evaluated before it.
  if (within(a.node, b.node)) return true;
  if (a.order < b.order && a.segments.some((s) => b.segments.includes(s))) return true;
  const after = closure(new Set(a.segments.flatMap((s) => s.nextSegments)), (s) => s.nextSegments);
  return b.segments.some((s) => after.has(s));
}

/** The last answer read (in source order) that can run before the effect. */
function answerBefore(answers: readonly PathEvent[], effect: PathEvent): PathEvent | undefined {
  return answers.filter((a) => precedes(a, effect)).sort((x, y) => y.node.range[0] - x.node.range[0])[0];
}

/** Segments reachable from the function's start without passing a claim. */
function unclaimedSegments(frame: Frame, claimMarks: readonly PathEvent[]): Set<Segment> {
  const claimed = new Set(claimMarks.flatMap((m) => m.segments));
  const start = new Set([frame.codePath.initialSegment]);
  return closure(start, (s) => (claimed.has(s) ? [] : s.nextSegments));
}

/**
 * Every path to the effect passes a claim: in each of its segments, a claim comes earlier in the same
 * segment, or the segment cannot be reached from the start without crossing a claim's segment.
 */
function isClaimed(effect: PathEvent, claimMarks: readonly PathEvent[], unclaimed: Set<Segment>): boolean {
  return effect.segments.every((s) => {
    const inSegment = claimMarks.filter((m) => m.segments.includes(s));
    if (inSegment.length > 0) return inSegment.some((m) => m.order < effect.order);
    return !unclaimed.has(s);
  });
}

/** `claimOnce(x)` whose value is read (tested, stored, returned), not a statement of its own. */
function isResultUsed(call: TSESTree.CallExpression): boolean {
  return outermostWrapper(call).parent?.type !== AST_NODE_TYPES.ExpressionStatement;
}

function mentionsAnswers(text: string): boolean {
  return text.includes(INPUT_RESPONSES) || text.includes(MRTR_API.acceptedContent) || text.includes(CONTINUATION_ANSWER_READER);
}
