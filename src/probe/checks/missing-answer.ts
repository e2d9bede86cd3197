/**
 * `missing-answer`: the final round's state sent back with no answers. The server must ask again
 * (spec: SHOULD re-request the missing input, not fail), and ask the same question: a question that
 * changes when nothing was answered shows the code before the ask ran again on the retry, so what the
 * user is shown is not what the call will use (an effect or a random value before the ask).
 */
import type { CallContext } from '../context.js';
import type { CheckResult } from '../model.js';
import { changedQuestions, describeOutcome } from '../outcome.js';
import { divergedReason } from './attack.js';
import { fail, pass, skip } from './result.js';

export async function missingAnswerCheck(ctx: CallContext): Promise<CheckResult> {
  const blocker = ctx.stateCheckBlocker({ needsState: true });
  if (blocker !== undefined) return skip('missing-answer', blocker);
  const final = await ctx.freshFinalRound();
  if ('diverged' in final) return skip('missing-answer', divergedReason(final.diverged), final.diverged.exchanges);
  const retry = await ctx.primary.send(ctx.call, { requestState: final.asked.requestState });
  const exchanges = [...final.flow.exchanges, retry];
  const outcome = retry.response;
  if (outcome.kind === 'error') return fail('missing-answer', `failed instead of asking again: ${describeOutcome(outcome)}`, exchanges);
  if (outcome.kind === 'complete') return fail('missing-answer', `completed without the answer it asked for: ${describeOutcome(outcome)}`, exchanges);
  const keys = Object.keys(outcome.inputRequests);
  if (keys.length === 0) return fail('missing-answer', 'answered input_required with no inputRequests: it did not ask again', exchanges);
  const changed = changedQuestions(final.asked.inputRequests, outcome.inputRequests);
  const first = ctx.genuine!.rounds[0].asked.response.inputRequests;
  if (changed.length > 0 && ctx.roundCount > 1 && changedQuestions(first, outcome.inputRequests).length === 0) {
    return pass('missing-answer', `asked again, from the first question (${keys.join(', ')}): the flow restarted`, exchanges);
  }
  if (changed.length > 0) {
    return fail(
      'missing-answer',
      `asked again, but ${changed.join(', ')} changed: the code before the ask ran again on the retry (what the user sees is not what the call will use)`,
      exchanges,
    );
  }
  return pass('missing-answer', `asked again (${keys.join(', ')})`, exchanges);
}
