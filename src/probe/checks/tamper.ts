/** `tamper`: the final round's state with one character changed, at several places, must be refused. */
import type { CallContext } from '../context.js';
import type { CheckResult } from '../model.js';
import { describeOutcome } from '../outcome.js';
import { tamperedStates } from '../state-inspect.js';
import { attackCheck, divergedReason } from './attack.js';
import { skip } from './result.js';

export async function tamperCheck(ctx: CallContext): Promise<CheckResult> {
  const blocker = ctx.attackBlocker();
  if (blocker !== undefined) return skip('tamper', blocker);
  await ctx.baseline();
  const final = await ctx.freshFinalRound();
  if ('diverged' in final) return skip('tamper', divergedReason(final.diverged), final.diverged.exchanges);
  const attacks = tamperedStates(final.asked.requestState!).map((variant) => ({
    label: variant.label,
    call: ctx.call,
    retry: { requestState: variant.state, inputResponses: final.answers.inputResponses },
  }));
  return attackCheck(ctx, 'tamper', final.flow.exchanges, attacks, {
    accepted: (attack, exchange) => `accepted a state with ${attack.label}: ${describeOutcome(exchange.response)}`,
    refused: (count) => `refused all ${count} tampered states`,
  });
}
