/**
 * Unified diffs for `port --dry-run`: `a/`/`b/` paths like git, a new file (the continuation helper)
 * as a diff from /dev/null.
 *
 * A diff must not hide a byte change. The texts compared are exact (the read stage refuses any file it
 * could not decode losslessly), and changes a reader cannot see in a diff line (a byte-order mark, a
 * `\r`, trailing white space, zero-width characters) or in the shown text at all (the file's UTF-16
 * encoding) are named on `#` lines above the patch, where `git apply` and `patch` ignore them.
 */
import { createTwoFilesPatch, FILE_HEADERS_ONLY, formatPatch, structuredPatch, type StructuredPatchHunk } from 'diff';
import type { Encoding } from './encoding.js';

const OPTIONS = { context: 3 } as const;
const INVISIBLE_RE = /[\u200B-\u200D\u2060\uFEFF]/gu;

/** `rel` is the file's path relative to the working directory, `/`-separated. Empty when equal. */
export function fileDiff(rel: string, before: string, after: string, encoding: Encoding = 'utf-8'): string {
  if (before === after) return '';
  // one line diff for the patch and its notes (a rewritten file's diff is most of a dry run's own time)
  const patch = structuredPatch(`a/${rel}`, `b/${rel}`, before, after, undefined, undefined, OPTIONS);
  return invisibleChanges(before, after, encoding, patch.hunks).map((note) => `# ${rel}: ${note}\n`).join('') + formatPatch(patch, FILE_HEADERS_ONLY);
}

export function newFileDiff(rel: string, text: string): string {
  return createTwoFilesPatch('/dev/null', `b/${rel}`, '', text, undefined, undefined, { ...OPTIONS, headerOptions: FILE_HEADERS_ONLY });
}

/** What changes between the texts that the patch lines do not show. */
export function invisibleChanges(
  before: string,
  after: string,
  encoding: Encoding = 'utf-8',
  hunks: readonly StructuredPatchHunk[] = structuredPatch('a', 'b', before, after, undefined, undefined, OPTIONS).hunks,
): string[] {
  const notes: string[] = [];
  if (encoding !== 'utf-8') notes.push(`${encoding.toUpperCase()} file: shown decoded, written back in ${encoding.toUpperCase()}`);
  const bomBefore = before.startsWith('\uFEFF');
  if (bomBefore !== after.startsWith('\uFEFF')) notes.push(`byte-order mark ${bomBefore ? 'removed' : 'added'}`);
  const lines: number[] = [];
  for (const hunk of hunks) {
    // a block of removed and added lines between two context lines; an added line is "invisible"
    // when a removed line of its block differs from it in invisible characters only
    // each line's visible text is computed once: a rewritten block of n lines compared pairwise was n² regex runs
    let removed: { text: string; shown: string }[] = [];
    let added: { text: string; line: number }[] = [];
    const closeBlock = () => {
      for (const a of added) {
        const shown = visible(a.text);
        const twin = removed.findIndex((r) => r.text !== a.text && r.shown === shown);
        if (twin < 0) continue;
        lines.push(a.line);
        removed.splice(twin, 1);
      }
      removed = [];
      added = [];
    };
    let newLine = hunk.newStart;
    for (const line of hunk.lines) {
      if (line.startsWith('-')) removed.push({ text: line.slice(1), shown: visible(line.slice(1)) });
      else if (line.startsWith('+')) added.push({ text: line.slice(1), line: newLine++ });
      else if (line.startsWith(' ')) {
        closeBlock();
        newLine++;
      }
    }
    closeBlock();
  }
  if (lines.length > 0) {
    const shown = lines.length > 10 ? `${lines.slice(0, 10).join(', ')}, … (${lines.length} lines)` : lines.join(', ');
    notes.push(`only invisible characters (line ending, trailing white space, zero-width) change on new line${lines.length === 1 ? '' : 's'} ${shown}`);
  }
  return notes;
}

/**
 * The line without zero-width characters and trailing white space. `trimEnd` after the removal is the
 * same as stripping a trailing run of both first, in linear time (`/[\s…]+$/` retried from every blank of
 * an indented line).
 */
function visible(line: string): string {
  return line.replace(INVISIBLE_RE, '').trimEnd();
}
