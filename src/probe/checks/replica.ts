/**
 * `replica`: the call driven with each retry sent to the next replica, so every state is opened by a
 * process that did not seal it. Each retry must carry on where the genuine flow did; the final retry
 * answers like an attack (decline, unless --allow-effects) and must be accepted there.
 */
import type { CallContext } from '../context.js';
import type { Endpoint } from '../endpoint.js';
import { judge } from '../judge.js';
import type { CheckResult, Exchange } from '../model.js';
import { askShape, describeOutcome } from '../outcome.js';
import { fail, pass, skip } from './result.js';

export async function replicaCheck(ctx: CallContext): Promise<CheckResult> {
  if (ctx.replicas.length === 0) return skip('replica', 'give --replica <url> (another replica of the same deployment) to send retries to');
  const blocker = ctx.stateCheckBlocker({ needsState: false });
  if (blocker !== undefined) return skip('replica', blocker);
  const targets: Endpoint[] = [ctx.primary, ...ctx.replicas];
  const route = (index: number) => targets[index % targets.length];
  const genuine = ctx.genuine!;
  const answerBlocker = ctx.answerBlocker();
  if (answerBlocker === undefined) await ctx.baseline(); // picks the final round's answer before the flow is driven
  const final = await ctx.freshFinalRound(route);
  const routed = 'diverged' in final ? final.diverged : final.flow;

  // every retry before the final one was served by another replica: it must ask what the genuine flow asked next
  let provenSteps = 0;
  for (let k = 1; k < routed.rounds.length; k++) {
    const got = askShape(routed.rounds[k].asked.response);
    const expected = askShape(genuine.rounds[k].asked.response);
    const firstShape = askShape(genuine.rounds[0].asked.response);
    if (got !== expected) {
      return fail('replica', `round ${k + 1} on ${route(k).url} asked ${got} where the genuine flow asked ${expected}: the state from ${route(k - 1).url} did not open there`, routed.exchanges);
    }
    if (expected !== firstShape && expected !== askShape(genuine.rounds[k - 1].asked.response)) provenSteps += 1;
  }
  if ('diverged' in final) {
    return fail('replica', `the retry on ${routed.last.to} returned ${describeOutcome(routed.last.response)}: the state from the other replica did not carry the call`, routed.exchanges);
  }

  const exchanges: Exchange[] = [...routed.exchanges];
  if (answerBlocker !== undefined) {
    if (provenSteps > 0) return pass('replica', `${provenSteps} retr${provenSteps === 1 ? 'y' : 'ies'} carried on on another replica; the final round was not sent (${answerBlocker})`, exchanges);
    return skip('replica', answerBlocker, exchanges);
  }
  const lastTarget = route(routed.rounds.length);
  const retry = await lastTarget.send(ctx.call, { requestState: final.asked.requestState, inputResponses: final.answers.inputResponses });
  exchanges.push(retry);
  const { exchanges: controlExchanges, baseline } = await ctx.baseline();
  const notes = [`control (the same answers on the replica that sealed the state): ${describeOutcome(baseline.control)}`];
  const verdict = judge(retry.response, baseline);
  const minted = route(routed.rounds.length - 1).url;
  if (verdict === 'accepted') {
    return pass('replica', `every retry was served by another replica than the round before, and carried on (the final one on ${lastTarget.url})`, [...exchanges, ...controlExchanges], { notes });
  }
  if (verdict === 'refused') {
    return fail('replica', `the state minted on ${minted} did not open on ${lastTarget.url}: ${describeOutcome(retry.response)} (a per-process key?)`, [...exchanges, ...controlExchanges], { notes });
  }
  if (provenSteps > 0) return pass('replica', `${provenSteps} retr${provenSteps === 1 ? 'y' : 'ies'} carried on on another replica; the final one is inconclusive`, [...exchanges, ...controlExchanges], { notes });
  return skip('replica', `inconclusive: on ${lastTarget.url} the final retry returned ${describeOutcome(retry.response)}, like the control (run with --allow-effects to answer accept)`, [...exchanges, ...controlExchanges], { notes });
}
