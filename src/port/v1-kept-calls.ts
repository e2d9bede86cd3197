/**
 * Shields calls from the official codemod's transforms: the method name of each call to keep
 * (`log.tool(`) gets a suffix no transform matches (`log.tool$mrtrPortKept(`) before they run, and
 * loses it after. The transforms select calls by method name only, so a shielded call, its arguments
 * and its callback's parameters come out as they went in; lines and columns before the name do not move.
 * Which calls to keep is v1-foreign-receivers.ts's decision; this file only does the text.
 */

const SUFFIX = '$mrtrPortKept';

export interface Shielded {
  text: string;
  /** How many calls were shielded (an offset that does not name a method is skipped). */
  count: number;
}

/**
 * `text` with the method names starting at `offsets` shielded. A text that already holds the suffix
 * (it could not be told apart from ours afterwards) is returned as it is, nothing shielded.
 */
export function shieldMethodNames(text: string, offsets: readonly number[]): Shielded {
  if (offsets.length === 0 || text.includes(SUFFIX)) return { text, count: 0 };
  const ends: number[] = [];
  for (const at of [...new Set(offsets)].sort((a, b) => a - b)) {
    const name = /^[A-Za-z_$][\w$]*/.exec(text.slice(at, at + 64))?.[0];
    // a method name right after `.` or `?.` (spaces and line breaks allowed between)
    if (!name || !/\??\.\s*$/.test(text.slice(Math.max(0, at - 256), at))) continue;
    ends.push(at + name.length);
  }
  let out = '';
  let from = 0;
  for (const end of ends) {
    out += text.slice(from, end) + SUFFIX;
    from = end;
  }
  return { text: out + text.slice(from), count: ends.length };
}

/** Every shielded name back to the user's. */
export function unshieldMethodNames(text: string): string {
  return text.includes(SUFFIX) ? text.replaceAll(SUFFIX, '') : text;
}
