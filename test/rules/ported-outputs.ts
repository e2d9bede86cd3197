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

/**
 * The port keeps what a handler does with an answer. A legacy handler that takes a URL-mode `accept`
 * as the out-of-band step done still does after the port, and the rule says so on both sides: allowed
 * on an output only where it also reports on that output's input (`legacyAlsoReports`).
 */
export const URL_ACCEPT_RULE = 'mrtr/no-trust-url-elicitation-accept';

/**
 * May this rule report on this ported output? The final-round rule on the two-pass shape, and the
 * URL-accept rule where the legacy input has the same hazard (the caller lints the input to say so).
 */
export function allowedOnPortedOutput(text: string, ruleId: string | null, legacyAlsoReports = false): boolean {
  if (ruleId === URL_ACCEPT_RULE) return legacyAlsoReports;
  return ruleId === FINAL_ROUND_RULE && isTwoPassShape(text);
}
