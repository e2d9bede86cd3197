/**
 * Running attacks: retries that change one thing about a genuine final round (the state, the arguments,
 * the call, the state's absence, its age). Each is judged against the control; the first one the server
 * accepts fails the check.
 */
import type { CallContext } from '../context.js';
import type { Retry } from '../endpoint.js';
import type { Flow } from '../flow.js';
import { judge } from '../judge.js';
import type { CheckId, CheckResult, Exchange, ProbeCall } from '../model.js';
import { describeOutcome } from '../outcome.js';
import { fail, pass, skip } from './result.js';

export interface Attack {
  label: string;
  call: ProbeCall;
  retry: Retry;
}

export interface AttackWording {
  accepted(attack: Attack, exchange: Exchange): string;
  refused(count: number): string;
}

export async function attackCheck(
  ctx: CallContext,
  id: CheckId,
  prologue: Exchange[],
  attacks: Attack[],
  wording: AttackWording,
): Promise<CheckResult> {
  if (attacks.length === 0) return skip(id, 'nothing to send', prologue);
  const { exchanges: controlExchanges, baseline } = await ctx.baseline();
  const notes = [`control (the genuine retry with the same answers): ${describeOutcome(baseline.control)}`];
  const sent: Exchange[] = [];
  let refused = 0;
  for (const attack of attacks) {
    const exchange = await ctx.primary.send(attack.call, attack.retry);
    sent.push(exchange);
    const verdict = judge(exchange.response, baseline);
    if (verdict === 'accepted') return fail(id, wording.accepted(attack, exchange), [...controlExchanges, ...prologue, ...sent], { notes });
    if (verdict === 'refused') refused += 1;
    else notes.push(`inconclusive: ${attack.label}: ${describeOutcome(exchange.response)}`);
  }
  const exchanges = [...controlExchanges, ...prologue, ...sent];
  if (refused === 0) {
    return skip(
      id,
      `inconclusive: the genuine retry returned ${describeOutcome(baseline.control)}, and no attack can be told apart from it (run with --allow-effects to answer accept)`,
      exchanges,
      { notes },
    );
  }
  return pass(id, wording.refused(refused), exchanges, { notes });
}

/** Why a fresh run of the call could not be used: it did not repeat the genuine flow. */
export function divergedReason(flow: Flow): string {
  return `a fresh run of the call did not repeat the genuine flow: after ${flow.rounds.length} round(s) it returned ${describeOutcome(flow.last.response)}`;
}
