/**
 * `no-state`: the final round's answers sent without the state must not complete the call: without
 * the state nothing says which question they answer, for which arguments, or that it was asked at all.
 */
import { answersFor } from '../answers.js';
import type { CallContext } from '../context.js';
import type { CheckResult } from '../model.js';
import { describeOutcome } from '../outcome.js';
import { attackCheck } from './attack.js';
import { skip } from './result.js';

export async function noStateCheck(ctx: CallContext): Promise<CheckResult> {
  const blocker = ctx.stateCheckBlocker({ needsState: false }) ?? ctx.answerBlocker();
  if (blocker !== undefined) return skip('no-state', blocker);
  await ctx.baseline();
  const finalQuestion = ctx.genuine!.rounds[ctx.roundCount - 1].asked.response;
  const answers = answersFor(finalQuestion.inputRequests, ctx.attackAction);
  const attack = { label: 'no requestState', call: ctx.call, retry: { inputResponses: answers.inputResponses } };
  const result = await attackCheck(ctx, 'no-state', [], [attack], {
    accepted: (_, exchange) => `completed using the answers of the final round sent without any requestState: ${describeOutcome(exchange.response)}`,
    refused: () => 'the final round\'s answers without the state were not used',
  });
  if (result.status === 'fail') ctx.completesWithoutState = true;
  return result;
}
