/**
 * The bytes around the code that a rewrite must not lose: a byte-order mark, a shebang line, and CRLF
 * line endings. Transforms are asked to keep them; this puts back whatever a stage dropped anyway, so a
 * ported file keeps the framing it came with.
 */
const BOM = '\uFEFF';
const SHEBANG_RE = /^#![^\r\n]*\r?\n/;

export interface Framing {
  bom: boolean;
  shebang: string;
  crlf: boolean;
}

export function framingOf(text: string): Framing {
  const bom = text.startsWith(BOM);
  const body = bom ? text.slice(1) : text;
  const lf = countBareLf(body);
  const crlf = (body.match(/\r\n/g) ?? []).length;
  return { bom, shebang: SHEBANG_RE.exec(body)?.[0] ?? '', crlf: crlf > 0 && crlf >= lf };
}

function countBareLf(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (text[i] === '\n' && text[i - 1] !== '\r') n++;
  return n;
}

/** `output` with the framing of `original` restored where it was lost. Unchanged output is returned as is. */
export function restoreFraming(original: string, output: string): string {
  if (output === original) return output;
  const want = framingOf(original);
  let body = output.startsWith(BOM) ? output.slice(1) : output;
  if (want.shebang && !body.startsWith('#!')) body = want.shebang + body;
  if (want.crlf) body = body.replace(/\r?\n/g, '\r\n');
  return (want.bom ? BOM : '') + body;
}
