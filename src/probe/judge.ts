/**
 * Did the server accept a retry it should have refused? A refused retry is an error or a new question
 * (the flow starts again, or the same question is asked again); an accepted one completes the call, or
 * does exactly what the genuine retry with the same answers did (the control) when that was a distinct
 * next question. When the control itself only asks again, the two cannot be told apart: inconclusive.
 */
import type { Outcome } from './model.js';
import { askShape } from './outcome.js';

export type Verdict = 'accepted' | 'refused' | 'inconclusive';

export interface Baseline {
  /** The first round of a fresh call. */
  first: Outcome;
  /** The round whose state is attacked (its question). */
  attacked: Outcome;
  /** What the genuine retry (the real state, the same answers) returned. */
  control: Outcome;
}

export function judge(outcome: Outcome, baseline: Baseline): Verdict {
  if (outcome.kind === 'complete') return 'accepted';
  const { control } = baseline;
  if (control.kind === 'complete') return 'refused';
  if (control.kind === 'error') return outcome.kind === 'error' ? 'inconclusive' : 'refused';
  if (outcome.kind === 'error') return 'refused';
  // the genuine retry asked something new: the attack is accepted when it asks that too
  const next = askShape(control);
  if (next !== askShape(baseline.first) && next !== askShape(baseline.attacked)) {
    return askShape(outcome) === next ? 'accepted' : 'refused';
  }
  return 'inconclusive';
}
