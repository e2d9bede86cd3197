/**
 * `ineligible`: `tools/list`, `prompts/list` and `resources/list` must never return `input_required`
 * (spec: only tools/call, prompts/get and resources/read may). Run once per probe, reported with every call.
 */
import type { Endpoint } from '../endpoint.js';
import type { CheckResult, Exchange } from '../model.js';
import { describeOutcome } from '../outcome.js';
import { fail, pass } from './result.js';

export const LIST_METHODS = ['tools/list', 'prompts/list', 'resources/list'] as const;

export async function ineligibleCheck(endpoint: Endpoint): Promise<{ result: CheckResult; lists: Map<string, Exchange> }> {
  const lists = new Map<string, Exchange>();
  for (const method of LIST_METHODS) lists.set(method, await endpoint.request(method, {}));
  const exchanges = [...lists.values()];
  const asking = exchanges.filter((e) => e.response.kind === 'input_required');
  if (asking.length > 0) {
    return { result: fail('ineligible', `${asking.map((e) => e.request.method).join(', ')} returned input_required: only tools/call, prompts/get and resources/read may`, exchanges), lists };
  }
  const notes = exchanges.filter((e) => e.response.kind === 'error').map((e) => `${e.request.method}: ${describeOutcome(e.response)}`);
  return { result: pass('ineligible', `${LIST_METHODS.join(', ')}: none returned input_required`, exchanges, { notes }), lists };
}
