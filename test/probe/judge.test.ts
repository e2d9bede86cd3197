/** When an attack counts as accepted: against the control, the genuine retry with the same answers. */
import { describe, expect, it } from 'vitest';
import { judge } from '../../src/probe/judge.js';
import type { Outcome } from '../../src/probe/model.js';

const ask = (key: string): Outcome => ({ kind: 'input_required', inputRequests: { [key]: { method: 'elicitation/create' } }, requestState: 's' });
const done: Outcome = { kind: 'complete', result: { content: [] } };
const failed: Outcome = { kind: 'error', code: -32602, message: 'Invalid or expired requestState' };
const toolError: Outcome = { kind: 'error', toolError: true, message: 'already completed' };

describe('judge', () => {
  it('a completed attack is accepted, whatever the control did', () => {
    for (const control of [done, failed, ask('date'), ask('guests')]) expect(judge(done, { first: ask('date'), attacked: ask('guests'), control })).toBe('accepted');
  });

  it('when the genuine retry completes, asking again or failing is a refusal', () => {
    const baseline = { first: ask('date'), attacked: ask('guests'), control: done };
    for (const outcome of [ask('date'), ask('guests'), failed, toolError]) expect(judge(outcome, baseline)).toBe('refused');
  });

  it('when the genuine retry asks a new question, asking that same question is acceptance, anything else refusal', () => {
    const baseline = { first: ask('date'), attacked: ask('guests'), control: ask('notes') };
    expect(judge(ask('notes'), baseline)).toBe('accepted');
    expect(judge(ask('date'), baseline)).toBe('refused');
    expect(judge(failed, baseline)).toBe('refused');
  });

  it('when the genuine retry only asks again (or fails), an attack that does the same cannot be told apart', () => {
    expect(judge(ask('confirm'), { first: ask('confirm'), attacked: ask('confirm'), control: ask('confirm') })).toBe('inconclusive');
    expect(judge(failed, { first: ask('confirm'), attacked: ask('confirm'), control: toolError })).toBe('inconclusive');
    expect(judge(ask('confirm'), { first: ask('confirm'), attacked: ask('confirm'), control: toolError })).toBe('refused');
  });
});
