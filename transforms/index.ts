/**
 * Entry point of the transforms: `portSource` (what the port runner calls per file) and
 * `applyPortSource` (the same, with the markers written into the text).
 *
 * The analyzer's plan of the file (docs/engine.md) decides every edit; the transforms apply it on
 * one TypeScript parse of the file, spliced into the original text in one pass:
 *   1. resumable-handlers — the registrations wrapped in `resumable`, the asks as runtime calls,
 *                           the effects before an ask memoized, catch/finally guarded;
 *   2. retire-roots       — with `--roots config` (default) the roots requests the plan lists become
 *                           `rootsFromConfig()` (a Babel parse, only in files that have one);
 *   3. imports            — the runtime names 1–2 use, merged into the file's imports (or requires).
 * Markers refer to original lines and are mapped to output lines by `src/port/line-map.ts`.
 * Without a plan (jscodeshift, tests) the file is analyzed alone first.
 */
import type { FilePlan } from '../src/analyzer/plan/model.js';
import { ALL_TRANSFORMS, type PortSourceResult } from './lib/context.js';
import { applyPortFile, portFile, type PortFileInput } from './lib/port-file.js';

export type { MarkerAt, PortOptions, PortSourceResult } from './lib/context.js';
export type { FilePlan };
export { defaultContinuationImport } from './lib/port-file.js';

/** One file's text, its plan (`null`: nothing to port; omitted: analyze the file alone) and the port options. */
export type PortSourceInput = PortFileInput;

/** Transforms one file's text. Markers are returned, not inserted (the runner inserts them). */
export function portSource(input: PortSourceInput): PortSourceResult {
  return portFile(input, ALL_TRANSFORMS);
}

/** `portSource` with its markers inserted above their statements in the output. */
export function applyPortSource(input: PortSourceInput): string {
  return applyPortFile(input, ALL_TRANSFORMS);
}
