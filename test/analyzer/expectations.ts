/**
 * Reads the `// @expect-sites:` header of a fixture (the format the ESLint rule's parity test reads too):
 * `// @expect-sites: 12:11 elicitation/elicitInput/auto, 30:9 sampling/createMessage/manual(in-loop)`
 * or `// @expect-sites: none`. Reasons are written for `manual` and `unportable` sites only (they decide
 * what to do); `auto` and `guarded` are written bare. Several reasons are joined with `+`:
 * `manual(in-loop+try-catch)`, in the order of `REASONS` in src/analyzer/reasons.ts.
 */
export interface ExpectedSite {
  line: number;
  column: number;
  kind: string;
  form: string;
  portability: string;
  reasons: string[];
}

const HEADER = /^\/\/ @expect-sites: (.*)$/m;
const ENTRY = /^(\d+):(\d+) ([\w-]+)\/([\w-]+)\/([\w-]+)(?:\(([\w+-]+)\))?$/;

export function readExpectations(text: string, file: string): ExpectedSite[] {
  const header = HEADER.exec(text);
  if (!header) throw new Error(`${file}: no "// @expect-sites:" header`);
  const body = header[1].trim();
  if (body === 'none') return [];
  return body.split(/,\s+/).map((entry) => {
    const m = ENTRY.exec(entry.trim());
    if (!m) throw new Error(`${file}: malformed expectation "${entry}"`);
    return {
      line: Number(m[1]),
      column: Number(m[2]),
      kind: m[3],
      form: m[4],
      portability: m[5],
      reasons: m[6] ? m[6].split('+') : [],
    };
  });
}

export function formatSite(s: { line: number; column: number; kind: string; form: string; portability: string; reasons: readonly string[] }): string {
  const shown = s.portability === 'manual' || s.portability === 'unportable' ? s.reasons : [];
  return `${s.line}:${s.column} ${s.kind}/${s.form}/${s.portability}${shown.length ? `(${shown.join('+')})` : ''}`;
}
