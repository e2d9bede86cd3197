/**
 * Entry point of the transforms: `portSource` (what the port runner calls per file) and
 * `applyPortSource` (the same, with the markers written into the text).
 *
 * The transforms, in the order they run on one parse of the original file:
 *   1. retire-roots        — with `--roots config` (default) roots requests become
 *                            `rootsFromConfig()` first, so the engine never opens a round for them.
 *   2. capability-branches — rewrites capability checks around asks; invoked by the engine for each
 *                            handler it ports, because only then is the per-request read right.
 *   3. url-elicitation     — builders for URL-mode asks, also invoked by the engine.
 *   4. two-pass-handlers   — the round/step engine: every handler whose asks are all portable
 *                            becomes bind → open → read answers → ask (again) → original code.
 *   5. helper-asks         — after the handlers, so it knows which handlers ask nothing else: a
 *                            helper the handler awaits runs the rounds itself; the handler returns
 *                            its input-required result.
 *   6. imports             — last, on the rewritten text: adds or merges what 1–5 used.
 * Edits of 1–5 refer to the original text and never overlap; markers refer to original lines and
 * are mapped to output lines by `src/port/line-map.ts`.
 */
import { ALL_TRANSFORMS } from './lib/context.js';
import { applyPortSourceWith, portSourceWith, type PortSourceInput } from './lib/pipeline.js';
import type { PortSourceResult } from './lib/context.js';

export type { MarkerAt, PortOptions, PortSourceResult, SiteInstruction } from './lib/context.js';
export type { PortSourceInput } from './lib/pipeline.js';
export { defaultContinuationImport } from './lib/pipeline.js';

/** Transforms one file's text. Markers are returned, not inserted (the runner inserts them). */
export function portSource(input: PortSourceInput): PortSourceResult {
  return portSourceWith(input, ALL_TRANSFORMS);
}

/** `portSource` with its markers inserted above their statements in the output. */
export function applyPortSource(input: PortSourceInput): string {
  return applyPortSourceWith(input, ALL_TRANSFORMS);
}
