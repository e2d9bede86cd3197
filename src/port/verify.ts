/**
 * Re-parse after rewrite: a rewritten file is kept only if TypeScript's parser accepts it (no syntax
 * diagnostics). Syntax only, no type check: that is what can be guaranteed for every file in one pass.
 */
import ts from '../typescript.cjs';

export interface ParseProblem {
  /** 1-based. */
  line: number;
  column: number;
  message: string;
}

/** How TypeScript should parse a file, by extension (`.ts` never as JSX: `<T>x` is an assertion there). */
export function scriptKindOf(path: string): ts.ScriptKind {
  if (/\.[cm]?tsx$/.test(path) || path.endsWith('.tsx')) return ts.ScriptKind.TSX;
  if (/\.[cm]?ts$/.test(path)) return ts.ScriptKind.TS;
  if (path.endsWith('.jsx')) return ts.ScriptKind.JSX;
  return ts.ScriptKind.JS;
}

/** The first syntax error in `text`, parsed as the file at `path`, or undefined when it parses cleanly. */
export function firstParseProblem(path: string, text: string): ParseProblem | undefined {
  // tsc drops a byte-order mark when it reads a file; createSourceFile would not (a BOM-prefixed shebang fails)
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const sf = ts.createSourceFile(path, body, ts.ScriptTarget.Latest, false, scriptKindOf(path));
  // `parseDiagnostics` is internal but stable: it is what tsc reports as syntax errors.
  const diagnostics = (sf as unknown as { parseDiagnostics?: readonly ts.DiagnosticWithLocation[] }).parseDiagnostics ?? [];
  const first = diagnostics[0];
  if (!first) return undefined;
  const { line, character } = sf.getLineAndCharacterOfPosition(first.start);
  return { line: line + 1, column: character + 1, message: ts.flattenDiagnosticMessageText(first.messageText, '\n') };
}

export function describeParseProblem(p: ParseProblem): string {
  return `${p.message} (${p.line}:${p.column})`;
}
