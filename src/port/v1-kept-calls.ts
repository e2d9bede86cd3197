/**
 * Shields calls from the official codemod's transforms: the method name of each call to keep
 * (`log.tool(`), and each `extra` its own callbacks declare, get a suffix no transform matches
 * (`log.tool$mrtrPortKept(`) before they run, and lose it after. The transforms select calls by method
 * name and rename a handler's context by the name `extra`, so a shielded call, its arguments and its
 * callbacks' parameters come out as they went in; lines do not move. Which names to shield is
 * v1-foreign-receivers.ts's decision; this file only does the text.
 */

const SUFFIX = '$mrtrPortKept';

export interface Shielded {
  text: string;
  /** How many names were shielded (an offset that does not start a name is skipped). */
  count: number;
}

/**
 * `text` with the names starting at `offsets` shielded. A text that already holds the suffix
 * (it could not be told apart from ours afterwards) is returned as it is, nothing shielded.
 */
export function shieldNames(text: string, offsets: readonly number[]): Shielded {
  if (offsets.length === 0 || text.includes(SUFFIX)) return { text, count: 0 };
  const ends: number[] = [];
  for (const at of [...new Set(offsets)].sort((a, b) => a - b)) {
    const name = /^[A-Za-z_$][\w$]*/.exec(text.slice(at, at + 64))?.[0];
    // the whole name: not the tail of a longer one
    if (!name || (at > 0 && /[\w$]/.test(text[at - 1]))) continue;
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
export function unshieldNames(text: string): string {
  return text.includes(SUFFIX) ? text.replaceAll(SUFFIX, '') : text;
}
