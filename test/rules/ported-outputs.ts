/**
 * What the lint tests of the port's own outputs allow. The two-pass shape (a handler that opens its state
 * with `./mrtr-continuation.js` and re-runs its reads each round, without the `./mrtr-flow.js` runtime)
 * has no claim on its final round: an effect after the last answer runs again when that round is replayed.
 * `require-at-most-once-final-round` says so there, rightly; the resumable engine (docs/engine.md) claims
 * the round, and its outputs must be clean of it too.
 */
export const FINAL_ROUND_RULE = 'mrtr/require-at-most-once-final-round';

/** Is this output in the two-pass shape (continuation helper, no resumable runtime)? */
export function isTwoPassShape(text: string): boolean {
  return /from ['"]\.\/mrtr-continuation(\.[cm]?js)?['"]/.test(text) && !/from ['"]\.\/mrtr-flow(\.[cm]?js)?['"]/.test(text);
}

/** May this rule report on this ported output? Only the final-round rule, and only on the two-pass shape. */
export function allowedOnPortedOutput(text: string, ruleId: string | null): boolean {
  return ruleId === FINAL_ROUND_RULE && isTwoPassShape(text);
}
