/**
 * The markers `check` counts: `@mrtr-port-todo` comments not acknowledged by `@mrtr-port-ignore` on
 * the line above (parsed by src/port/markers.ts, as the `no-unresolved-port-marker` rule does), and
 * the `@mcp-codemod-error` comments the official v1→v2 codemod leaves for a human.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { findMarkers } from '../port/markers.js';
import { MARKERS } from '../vocabulary.js';

/** One marker left in the code (the JSON report's `markers` entries). */
export interface MarkerEntry {
  /** Relative to the working directory, `/`-separated. */
  file: string;
  /** 1-based, at the comment start. */
  line: number;
  column: number;
  /** The marker's reason id, or `mcp-codemod-error` for the official codemod's markers. */
  reason: string;
  message: string;
}

export interface MarkerScan {
  /** Outstanding markers, sorted by file, line, column. */
  markers: MarkerEntry[];
  /** `@mrtr-port-todo` markers acknowledged by `@mrtr-port-ignore` (not failures). */
  acknowledged: number;
}

export const SDK_CODEMOD_REASON = 'mcp-codemod-error';

/**
 * `texts`: the files' contents when the caller already read them (read once per run); files missing
 * from it are read here.
 */
export async function scanMarkers(cwd: string, files: readonly string[], texts?: ReadonlyMap<string, string>): Promise<MarkerScan> {
  const markers: MarkerEntry[] = [];
  let acknowledged = 0;
  for (const file of files) {
    const text = texts?.get(file) ?? readIfMarked(file);
    if (text === undefined || (!text.includes(MARKERS.todo) && !text.includes(MARKERS.sdkCodemod))) continue;
    const rel = toReportPath(cwd, file);
    for (const m of findMarkers(text)) {
      if (m.acknowledged) acknowledged++;
      else markers.push({ file: rel, line: m.line, column: m.column, reason: m.reason, message: m.message });
    }
    for (const m of findSdkCodemodMarkers(text)) markers.push({ file: rel, ...m });
  }
  markers.sort((a, b) => compareStrings(a.file, b.file) || a.line - b.line || a.column - b.column);
  return { markers, acknowledged };
}

/** A file's text if it holds a marker prefix. Sync reads and a byte search before any decoding: 3-7x faster than async utf8 reads on ~1,500 files. */
function readIfMarked(file: string): string | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined; // vanished or unreadable since discovery: nothing to count
  }
  if (bytes.indexOf(MARKERS.todo) < 0 && bytes.indexOf(MARKERS.sdkCodemod) < 0) return undefined;
  return bytes.toString('utf8');
}

/**
 * `/* @mcp-codemod-error … *\/`: the marker opens a block comment, the only form the codemod writes.
 * A mention elsewhere (prose in a comment, even at the start of a `//` line; a string) is not a marker.
 */
const SDK_CODEMOD_RE = /\/\*\s*@mcp-codemod-error\b(.*)$/;

export function findSdkCodemodMarkers(text: string): Array<Omit<MarkerEntry, 'file'>> {
  if (!text.includes(MARKERS.sdkCodemod)) return [];
  const found: Array<Omit<MarkerEntry, 'file'>> = [];
  text.split(/\r?\n/).forEach((line, index) => {
    const m = SDK_CODEMOD_RE.exec(line);
    if (!m) return;
    const message = m[1].replace(/\*\/.*$/, '').trim();
    found.push({ line: index + 1, column: m.index + 1, reason: SDK_CODEMOD_REASON, message });
  });
  return found;
}

/** Paths in reports: relative to the working directory, with `/`. */
export function toReportPath(cwd: string, file: string): string {
  return path.relative(cwd, file).split(path.sep).join('/');
}

/** Plain code-unit order, the same on every machine and locale. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
