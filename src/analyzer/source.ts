/**
 * Reading and parsing one file with the bare TypeScript parser (no program, no type checker).
 * A file with syntax errors is reported as skipped with its first error; the analyzer then reports
 * no sites from it, because positions and shapes in a broken tree cannot be trusted by `port`.
 */
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import ts from '../typescript.cjs';
import { decode } from '../port/encoding.js';

// kinds by name, looked up when a file is parsed: a table of the compiler's own values would load it at import
const SCRIPT_KINDS: Readonly<Record<string, keyof typeof ts.ScriptKind>> = {
  '.ts': 'TS',
  '.mts': 'TS',
  '.cts': 'TS',
  '.tsx': 'TSX',
  '.js': 'JS',
  '.mjs': 'JS',
  '.cjs': 'JS',
  '.jsx': 'JSX',
};

/** Extensions the analyzer parses; anything else (markdown, JSON) is counted but never parsed. */
export function isSourcePath(file: string): boolean {
  return Object.prototype.hasOwnProperty.call(SCRIPT_KINDS, extname(file).toLowerCase());
}

export type ReadResult = { ok: true; text: string } | { ok: false; reason: string };

/** A file's text, or why it cannot be read (`read-error: EACCES`) or decoded (`encoding: …`). */
export function readSource(file: string): ReadResult {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
    return { ok: false, reason: `read-error: ${code}` };
  }
  const decoded = decode(bytes);
  return decoded.ok ? { ok: true, text: decoded.text } : decoded;
}

export type ParseResult = { ok: true; sf: ts.SourceFile } | { ok: false; reason: string };

/**
 * `setParentNodes: false` leaves every node's `parent` unset: for a caller that links them in its own
 * walk of the whole tree (`indexFile`), so the tree is walked once, not twice.
 */
export function parseSource(file: string, text: string, setParentNodes = true): ParseResult {
  const kind = ts.ScriptKind[SCRIPT_KINDS[extname(file).toLowerCase()] ?? 'TS'];
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, setParentNodes, kind);
  // parseDiagnostics is internal but stable since TS 2; it holds syntax errors only (cheap).
  const diags = (sf as unknown as { parseDiagnostics?: readonly ts.DiagnosticWithLocation[] }).parseDiagnostics ?? [];
  const first = diags[0];
  if (first) {
    const lc = sf.getLineAndCharacterOfPosition(first.start);
    const message = ts.flattenDiagnosticMessageText(first.messageText, ' ');
    return { ok: false, reason: `parse-error: ${message} (${lc.line + 1}:${lc.character + 1})` };
  }
  return { ok: true, sf };
}
