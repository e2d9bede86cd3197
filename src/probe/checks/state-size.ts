/** `state-size`: the largest state the genuine flow carried; over 8 KiB is a warning (it travels on every retry). */
import type { CallContext } from '../context.js';
import type { CheckResult } from '../model.js';
import { pass, skip } from './result.js';

export const STATE_SIZE_WARNING_BYTES = 8 * 1024;

export function stateSizeCheck(ctx: CallContext): CheckResult {
  const blocker = ctx.stateCheckBlocker({ needsState: true });
  if (blocker !== undefined) return skip('state-size', blocker);
  const sizes = ctx.genuine!.rounds.map((r) => Buffer.byteLength(r.asked.response.requestState!, 'utf8'));
  const largest = Math.max(...sizes);
  const summary = `largest state: ${largest} bytes (${sizes.length} round${sizes.length === 1 ? '' : 's'})`;
  if (largest <= STATE_SIZE_WARNING_BYTES) return pass('state-size', summary);
  return pass('state-size', summary, [], {
    warning: `a state of ${largest} bytes is over ${STATE_SIZE_WARNING_BYTES / 1024} KiB: it travels in every retry; carry ids instead of whole records`,
  });
}
