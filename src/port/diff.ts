/**
 * Unified diffs for `port --dry-run`: `a/`/`b/` paths like git, a new file (the continuation helper)
 * as a diff from /dev/null.
 *
 * A diff must not hide a byte change. The texts compared are exact (the read stage refuses any file it
 * could not decode losslessly), and changes a reader cannot see in a diff line (a byte-order mark, a
 * `\r`, trailing white space, zero-width characters) or in the shown text at all (the file's UTF-16
 * encoding) are named on `#` lines above the patch, where `git apply` and `patch` ignore them.
 */
import { createTwoFilesPatch, FILE_HEADERS_ONLY, structuredPatch } from 'diff';
import type { Encoding } from './encoding.js';

const OPTIONS = { context: 3 } as const;
const INVISIBLE_TAIL_RE = /[\s\u200B-\u200D\u2060\uFEFF]+$/u;
const INVISIBLE_RE = /[\u200B-\u200D\u2060\uFEFF]/gu;

/** `rel` is the file's path relative to the working directory, `/`-separated. Empty when equal. */
export function fileDiff(rel: string, before: string, after: string, encoding: Encoding = 'utf-8'): string {
  if (before === after) return '';
  const patch = createTwoFilesPatch(`a/${rel}`, `b/${rel}`, before, after, undefined, undefined, { ...OPTIONS, headerOptions: FILE_HEADERS_ONLY });
  return invisibleChanges(before, after, encoding).map((note) => `# ${rel}: ${note}\n`).join('') + patch;
}

export function newFileDiff(rel: string, text: string): string {
  return createTwoFilesPatch('/dev/null', `b/${rel}`, '', text, undefined, undefined, { ...OPTIONS, headerOptions: FILE_HEADERS_ONLY });
}

/** What changes between the texts that the patch lines do not show. */
export function invisibleChanges(before: string, after: string, encoding: Encoding = 'utf-8'): string[] {
  const notes: string[] = [];
  if (encoding !== 'utf-8') notes.push(`${encoding.toUpperCase()} file: shown decoded, written back in ${encoding.toUpperCase()}`);
  const bomBefore = before.startsWith('\uFEFF');
  if (bomBefore !== after.startsWith('\uFEFF')) notes.push(`byte-order mark ${bomBefore ? 'removed' : 'added'}`);
  const lines: number[] = [];
  for (const hunk of structuredPatch('a', 'b', before, after, undefined, undefined, OPTIONS).hunks) {
    // a block of removed and added lines between two context lines; an added line is "invisible"
    // when a removed line of its block differs from it in invisible characters only
    let removed: string[] = [];
    let added: { text: string; line: number }[] = [];
    const closeBlock = () => {
      for (const a of added) {
        const twin = removed.findIndex((r) => r !== a.text && visible(r) === visible(a.text));
        if (twin < 0) continue;
        lines.push(a.line);
        removed.splice(twin, 1);
      }
      removed = [];
      added = [];
    };
    let newLine = hunk.newStart;
    for (const line of hunk.lines) {
      if (line.startsWith('-')) removed.push(line.slice(1));
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

function visible(line: string): string {
  return line.replace(INVISIBLE_TAIL_RE, '').replace(INVISIBLE_RE, '');
}
