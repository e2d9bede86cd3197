/**
 * `capability`: the call from a client that declares no elicitation, sampling or roots. The server may
 * refuse (-32021 MissingRequiredClientCapability, as the spec asks), fail, or take a fallback; it must
 * not return `input_required` asking for what the client did not declare.
 */
import type { CallContext } from '../context.js';
import type { CheckResult } from '../model.js';
import { describeOutcome } from '../outcome.js';
import { fail, pass } from './result.js';

/** The capability each input request method needs. */
const NEEDS: Record<string, string> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

export const MISSING_CAPABILITY_CODE = -32021;

export async function capabilityCheck(ctx: CallContext): Promise<CheckResult> {
  const exchange = await ctx.bare.send(ctx.call);
  const outcome = exchange.response;
  if (outcome.kind === 'input_required') {
    const asked = Object.entries(outcome.inputRequests).map(([key, r]) => `${key} (${r.method}, needs ${NEEDS[r.method] ?? 'a capability no client declares'})`);
    if (asked.length > 0) return fail('capability', `asked a client that declared no capabilities for ${asked.join(', ')}`, [exchange]);
    return pass('capability', 'answered input_required with a requestState only: nothing undeclared was asked', [exchange]);
  }
  if (outcome.kind === 'error' && outcome.code === MISSING_CAPABILITY_CODE) {
    return pass('capability', `refused with ${MISSING_CAPABILITY_CODE} (missing required client capability)${exchange.status === undefined ? '' : `, HTTP ${exchange.status}`}`, [exchange]);
  }
  const notes = outcome.kind === 'error' && !outcome.toolError ? [`the spec asks for ${MISSING_CAPABILITY_CODE} (MissingRequiredClientCapabilityError) when a request needs a capability the client did not declare`] : [];
  return pass('capability', `did not ask: ${describeOutcome(outcome)}`, [exchange], { notes });
}
