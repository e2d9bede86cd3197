/**
 * `expired`: a final-round state minted at the start, retried `--ttl-wait` seconds later, must be
 * refused. Minting happens right after `round-trip` and the wait runs once for every call, at the end,
 * so the other checks fill it.
 */
import type { CallContext, FinalRound } from '../context.js';
import type { CheckResult } from '../model.js';
import { describeOutcome } from '../outcome.js';
import { attackCheck, divergedReason } from './attack.js';
import { skip } from './result.js';

export type PendingExpiry = { ready: false; result: CheckResult } | { ready: true; final: FinalRound; mintedAt: number };

export async function mintExpiring(ctx: CallContext): Promise<PendingExpiry> {
  if (ctx.settings.ttlWaitSeconds === undefined) {
    return { ready: false, result: skip('expired', 'give --ttl-wait <seconds>, longer than the server\'s state lifetime, to retry an old state') };
  }
  const blocker = ctx.attackBlocker();
  if (blocker !== undefined) return { ready: false, result: skip('expired', blocker) };
  await ctx.baseline();
  const final = await ctx.freshFinalRound();
  if ('diverged' in final) return { ready: false, result: skip('expired', divergedReason(final.diverged), final.diverged.exchanges) };
  return { ready: true, final, mintedAt: Date.now() };
}

/** When the retry may go: `--ttl-wait` seconds after minting. */
export function dueAt(pending: PendingExpiry, ttlWaitSeconds: number): number {
  return pending.ready ? pending.mintedAt + ttlWaitSeconds * 1000 : 0;
}

export async function finishExpired(ctx: CallContext, pending: PendingExpiry): Promise<CheckResult> {
  if (!pending.ready) return pending.result;
  // a later blocker (no-state found the state does not matter) wins over the wait
  const blocker = ctx.attackBlocker();
  if (blocker !== undefined) return skip('expired', blocker);
  const { final, mintedAt } = pending;
  const age = () => ((Date.now() - mintedAt) / 1000).toFixed(1);
  const attack = {
    label: 'an old state',
    call: ctx.call,
    retry: { requestState: final.asked.requestState, inputResponses: final.answers.inputResponses },
  };
  return attackCheck(ctx, 'expired', final.flow.exchanges, [attack], {
    accepted: (_, exchange) => `accepted a state minted ${age()} s earlier: ${describeOutcome(exchange.response)}`,
    refused: () => `refused a state minted ${age()} s earlier`,
  });
}
