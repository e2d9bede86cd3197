// Does a file the port wrote still parse? TypeScript's own parser, syntax only, in the file's
// language (by extension); a file that did not parse before the port is not blamed on it.
import ts from 'typescript';

const KIND = { '.ts': ts.ScriptKind.TS, '.mts': ts.ScriptKind.TS, '.cts': ts.ScriptKind.TS, '.tsx': ts.ScriptKind.TSX, '.js': ts.ScriptKind.JS, '.mjs': ts.ScriptKind.JS, '.cjs': ts.ScriptKind.JS, '.jsx': ts.ScriptKind.JSX };

/** The first syntax error of `text` as `line:col message`, or null when it parses. */
export function syntaxError(file, text) {
  const ext = file.slice(file.lastIndexOf('.'));
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, KIND[ext] ?? ts.ScriptKind.TS);
  const d = sf.parseDiagnostics?.[0];
  if (!d) return null;
  const { line, character } = sf.getLineAndCharacterOfPosition(d.start ?? 0);
  return `${line + 1}:${character + 1} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
}
