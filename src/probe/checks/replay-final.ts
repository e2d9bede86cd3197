/**
 * `replay-final` (only with --allow-effects): the completing retry sent twice, then once more on each
 * replica. Only the first may complete: the code after the last answer runs at most once per state.
 */
import type { CallContext } from '../context.js';
import type { CheckResult, Exchange } from '../model.js';
import { describeOutcome } from '../outcome.js';
import { divergedReason } from './attack.js';
import { fail, pass, skip } from './result.js';

export async function replayFinalCheck(ctx: CallContext): Promise<CheckResult> {
  if (!ctx.settings.allowEffects) return skip('replay-final', 'sends the completing retry twice, which repeats a side effect on a broken server: only with --allow-effects');
  if (!ctx.acceptsRepeatedEffects) return skip('replay-final', `replays an accepted final round: --answers ${ctx.settings.answers} does not accept`);
  const blocker = ctx.stateCheckBlocker({ needsState: false });
  if (blocker !== undefined) return skip('replay-final', blocker);
  const final = await ctx.freshFinalRound();
  if ('diverged' in final) return skip('replay-final', divergedReason(final.diverged), final.diverged.exchanges);
  const retry = { requestState: final.asked.requestState, inputResponses: final.answers.inputResponses };
  const first = await ctx.primary.send(ctx.call, retry);
  const exchanges: Exchange[] = [...final.flow.exchanges, first];
  if (first.response.kind !== 'complete') return skip('replay-final', `the genuine final retry did not complete: ${describeOutcome(first.response)}`, exchanges);
  for (const target of [ctx.primary, ...ctx.replicas]) {
    const replay = await target.send(ctx.call, retry);
    exchanges.push(replay);
    if (replay.response.kind === 'complete') {
      return fail('replay-final', `the same final retry completed again on ${target.url}: ${describeOutcome(replay.response)}`, exchanges);
    }
  }
  const where = ctx.replicas.length === 0 ? 'on the target' : `on the target and ${ctx.replicas.length} replica${ctx.replicas.length === 1 ? '' : 's'}`;
  return pass('replay-final', `the final retry completed once; its replay was refused ${where}`, exchanges);
}
