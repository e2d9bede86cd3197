/**
 * `decline` and `cancel`: the first round that asks an elicitation is answered decline (or cancel),
 * every earlier round as the genuine flow answered it. A decline or cancel is an answer: the server must
 * go on (complete, or ask something else), never ask the same question again (same request, under any
 * key), and not fail.
 */
import { answersFor } from '../answers.js';
import type { CallContext } from '../context.js';
import { MAX_ROUNDS } from '../flow.js';
import type { CheckResult, Exchange } from '../model.js';
import { canonical, describeOutcome } from '../outcome.js';
import { fail, pass, skip } from './result.js';

export async function answerActionCheck(ctx: CallContext, action: 'decline' | 'cancel'): Promise<CheckResult> {
  const choice = ctx.settings.answers;
  if (choice !== 'all' && choice !== action) return skip(action, `--answers ${choice}`);
  const exchanges: Exchange[] = [];
  let retry: { requestState?: string; inputResponses?: Record<string, unknown> } = {};
  for (let round = 0; round <= MAX_ROUNDS; round++) {
    const exchange = await ctx.primary.send(ctx.call, retry);
    exchanges.push(exchange);
    const outcome = exchange.response;
    if (outcome.kind !== 'input_required') {
      const before = round === 0 ? 'the call' : `after ${round} round${round === 1 ? '' : 's'} without an elicitation, the call`;
      return skip(action, `${before} returned ${describeOutcome(outcome)}: no elicitation to ${action}`, exchanges);
    }
    const answers = answersFor(outcome.inputRequests, action);
    if (answers.unanswerable.length > 0) return skip(action, `the call asks for ${answers.unanswerable.join(', ')}, which the probe cannot answer`, exchanges);
    if (answers.elicitations.length === 0) {
      retry = { requestState: outcome.requestState, inputResponses: answersFor(outcome.inputRequests, ctx.genuineAction).inputResponses };
      continue;
    }
    const reply = await ctx.primary.send(ctx.call, { requestState: outcome.requestState, inputResponses: answers.inputResponses });
    exchanges.push(reply);
    return verdict(action, answers.elicitations.map((key) => ({ key, request: outcome.inputRequests[key] })), reply, exchanges);
  }
  return skip(action, `no elicitation within ${MAX_ROUNDS} rounds`, exchanges);
}

function verdict(
  action: 'decline' | 'cancel',
  answered: { key: string; request: unknown }[],
  reply: Exchange,
  exchanges: Exchange[],
): CheckResult {
  const outcome = reply.response;
  const keys = answered.map((a) => a.key).join(', ');
  if (outcome.kind === 'error') return fail(action, `failed on a ${action} of ${keys}: ${describeOutcome(outcome)}`, exchanges);
  if (outcome.kind === 'complete') return pass(action, `completed on a ${action} of ${keys}: ${describeOutcome(outcome)}`, exchanges);
  const asked = Object.entries(outcome.inputRequests);
  const again = asked.filter(([, request]) => answered.some((a) => canonical(a.request) === canonical(request)));
  if (again.length > 0) {
    return fail(action, `asked ${again.map(([key]) => key).join(', ')} again after a ${action}: a ${action} is an answer, not a missing one`, exchanges);
  }
  return pass(action, `went on after a ${action} of ${keys}: ${describeOutcome(outcome)}`, exchanges);
}
