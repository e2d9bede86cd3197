/**
 * `other-call`: the final round's state and answers, replayed on another named call, must be refused.
 * The other call is first sent on its own (it must ask); its own first-round keys are answered too, so
 * a server that opens a foreign state finds every answer it could look for.
 */
import { answersFor } from '../answers.js';
import type { CallContext } from '../context.js';
import { describeCall } from '../endpoint.js';
import type { CheckResult, Exchange } from '../model.js';
import { describeOutcome } from '../outcome.js';
import { attackCheck, divergedReason } from './attack.js';
import { skip } from './result.js';

export async function otherCallCheck(ctx: CallContext): Promise<CheckResult> {
  const others = ctx.calls.filter((c) => c !== ctx.call);
  if (others.length === 0) return skip('other-call', 'give a second --call, --prompt or --resource to replay the state on');
  const blocker = ctx.attackBlocker();
  if (blocker !== undefined) return skip('other-call', blocker);
  await ctx.baseline();
  // the same kind first: a tool's state on another tool is the replay that can work
  const ordered = [...others.filter((c) => c.kind === ctx.call.kind), ...others.filter((c) => c.kind !== ctx.call.kind)];
  const tried: Exchange[] = [];
  for (const other of ordered) {
    const control = await ctx.primary.send(other);
    tried.push(control);
    if (control.response.kind !== 'input_required') continue;
    const final = await ctx.freshFinalRound();
    if ('diverged' in final) return skip('other-call', divergedReason(final.diverged), [...tried, ...final.diverged.exchanges]);
    const own = answersFor(control.response.inputRequests, ctx.attackAction).inputResponses;
    const attack = {
      label: describeCall(other),
      call: other,
      retry: { requestState: final.asked.requestState, inputResponses: { ...own, ...final.answers.inputResponses } },
    };
    return attackCheck(ctx, 'other-call', [...tried, ...final.flow.exchanges], [attack], {
      accepted: (_, exchange) => `accepted the state of this call on ${describeCall(other)}: ${describeOutcome(exchange.response)}`,
      refused: () => `refused the state of this call on ${describeCall(other)}`,
    });
  }
  return skip('other-call', `no other call asks for input (${ordered.map(describeCall).join('; ')}): nothing to replay the state on`, tried);
}

