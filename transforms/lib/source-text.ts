/**
 * The input text and the style facts new code must follow (line ending, indentation unit, quotes,
 * semicolons), plus text edits applied at exact offsets. Edits touch only what a transform rewrites,
 * so comments, blank lines and formatting elsewhere keep their bytes; BOM and shebang stay in place.
 */

export interface Edit {
  start: number;
  end: number;
  text: string;
  /** Orders edits inserted at the same offset (lower first). */
  order?: number;
}

export interface SourceStyle {
  eol: string;
  indentUnit: string;
  quote: "'" | '"';
  semi: string;
}

const BOM = '\uFEFF';

export class SourceText {
  /** The text the parser sees: the input without its BOM. Offsets of every edit refer to it. */
  readonly text: string;
  readonly bom: boolean;
  readonly style: SourceStyle;
  private readonly lineStarts: number[];

  constructor(input: string) {
    this.bom = input.startsWith(BOM);
    this.text = this.bom ? input.slice(1) : input;
    this.lineStarts = [0];
    for (let i = 0; i < this.text.length; i++) if (this.text[i] === '\n') this.lineStarts.push(i + 1);
    this.style = detectStyle(this.text);
  }

  /** 1-based line of an offset. */
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  lineStart(offset: number): number {
    return this.lineStarts[this.lineOf(offset) - 1];
  }

  /** Offset just past the line's end of line (or the end of the text). */
  lineEndIncludingEol(offset: number): number {
    const line = this.lineOf(offset);
    return line < this.lineStarts.length ? this.lineStarts[line] : this.text.length;
  }

  /** The leading whitespace of the line holding `offset`. */
  indentAt(offset: number): string {
    const start = this.lineStart(offset);
    return /^[ \t]*/.exec(this.text.slice(start))?.[0] ?? '';
  }

  slice(start: number, end: number): string {
    return this.text.slice(start, end);
  }

  /** Applies non-overlapping edits; throws on overlap (a transform bug, never silently merged). */
  apply(edits: readonly Edit[]): string {
    const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end || (a.order ?? 0) - (b.order ?? 0));
    let out = '';
    let at = 0;
    for (const e of sorted) {
      if (e.start < at) throw new Error(`overlapping edits at offset ${e.start}`);
      out += this.text.slice(at, e.start) + e.text;
      at = e.end;
    }
    out += this.text.slice(at);
    return (this.bom ? BOM : '') + out;
  }
}

function detectStyle(text: string): SourceStyle {
  const crlf = (text.match(/\r\n/g) ?? []).length;
  const lf = (text.match(/\n/g) ?? []).length;
  const eol = crlf > 0 && crlf * 2 >= lf ? '\r\n' : '\n';

  let indentUnit = '  ';
  const indents = text.split('\n').map((l) => /^[ \t]*/.exec(l)?.[0] ?? '').filter((s) => s.length > 0);
  if (indents.some((s) => s.startsWith('\t'))) indentUnit = '\t';
  else {
    const smallest = Math.min(...indents.map((s) => s.length).filter((n) => n > 0), 8);
    if (smallest === 4 || smallest === 2) indentUnit = ' '.repeat(smallest);
  }

  // quotes of module specifiers decide; most codebases format them like every other string
  const singles = (text.match(/from\s+'/g) ?? []).length;
  const doubles = (text.match(/from\s+"/g) ?? []).length;
  const quote = doubles > singles ? '"' : "'";

  const statementsWithSemi = (text.match(/;\s*$/gm) ?? []).length;
  const semi = statementsWithSemi > 0 ? ';' : '';
  return { eol, indentUnit, quote, semi };
}

/** A string literal in the file's quote style. */
export function quoteString(value: string, style: SourceStyle): string {
  const q = style.quote;
  return q + value.replace(/\\/g, '\\\\').replace(new RegExp(q, 'g'), `\\${q}`) + q;
}

/** Joins generated lines at an indentation with the file's line ending. */
export function indentLines(lines: readonly string[], indent: string, eol: string): string {
  return lines.map((l) => (l.length === 0 ? '' : indent + l)).join(eol);
}
