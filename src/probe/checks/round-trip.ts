/** `round-trip`: complete the call, answering every round; the genuine flow every other check compares with. */
import type { CallContext } from '../context.js';
import { driveFlow, MAX_ROUNDS } from '../flow.js';
import type { CheckResult } from '../model.js';
import { describeOutcome } from '../outcome.js';
import { fail, pass } from './result.js';

export async function roundTripCheck(ctx: CallContext): Promise<CheckResult> {
  const flow = await driveFlow(ctx.call, { route: () => ctx.primary, action: ctx.genuineAction });
  ctx.genuine = flow;
  const rounds = flow.rounds.length;
  const last = flow.last.response;
  switch (flow.end) {
    case 'complete':
      return pass(
        'round-trip',
        rounds === 0
          ? 'completed at once, without asking for input'
          : `completed after ${rounds} input_required round${rounds === 1 ? '' : 's'} (elicitations answered: ${ctx.genuineAction})`,
        flow.exchanges,
      );
    case 'error':
      return fail('round-trip', `the server failed ${rounds === 0 ? 'on the first request' : `after ${rounds} answered round${rounds === 1 ? '' : 's'}`}: ${describeOutcome(last)}`, flow.exchanges);
    case 'too-many-rounds':
      return fail('round-trip', `still asking after ${MAX_ROUNDS} answered rounds: the flow loops`, flow.exchanges);
    case 'cannot-resume':
      return fail(
        'round-trip',
        `round ${rounds} asks again what was already answered, with no requestState to carry the answer: the call cannot resume`,
        flow.exchanges,
      );
    case 'unanswerable': {
      const methods = last.kind === 'input_required' ? Object.values(last.inputRequests).map((r) => r.method) : [];
      const odd = [...new Set(methods.filter((m) => !['elicitation/create', 'sampling/createMessage', 'roots/list'].includes(m)))];
      return fail('round-trip', `asks for ${odd.join(', ')}: an input request must be an elicitation, sampling or roots request`, flow.exchanges);
    }
    case 'stopped':
      throw new Error('round-trip: a flow without stopAt cannot stop');
  }
}
