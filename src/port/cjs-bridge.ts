/**
 * Lets the official codemod migrate a CommonJS file. It reads and rewrites `import` declarations only, so
 * a CommonJS server that `require`s SDK v1 would keep it (and its `server.tool(…)` calls) untouched. Before
 * the migration, the file's top-level `const { a, b: c } = require('<MCP package or zod>')` and
 * `const x = require('…')` become import declarations; after it, every import declaration (those, and the
 * ones the codemod added) becomes a `require` again, so the file stays CommonJS. Both directions keep the
 * line count, so the codemod's diagnostic lines stay right, and keep a `'use strict'` directive first.
 */
import type * as TS from 'typescript';
import ts from '../typescript.cjs';

const BRIDGED_SPECIFIER = /^(?:@modelcontextprotocol\/|zod(?:\/|$))/;

interface Edit {
  start: number;
  end: number;
  text: string;
}

/** The file's top-level requires of MCP packages and zod, as import declarations. */
export function requiresToImports(text: string, path: string): string {
  const sf = parse(text, path);
  const edits: Edit[] = [];
  for (const st of sf.statements) {
    if (!ts.isVariableStatement(st) || !(st.declarationList.flags & ts.NodeFlags.Const) || st.declarationList.declarations.length !== 1) continue;
    const [decl] = st.declarationList.declarations;
    const spec = requiredSpecifier(decl.initializer);
    if (spec === undefined || !BRIDGED_SPECIFIER.test(spec.text)) continue;
    const binding = importClause(decl.name, sf);
    if (binding === undefined) continue;
    const specText = spec.getText(sf);
    const tail = text.slice(decl.name.end, st.end);
    edits.push({ start: st.getStart(sf), end: st.end, text: `import ${binding} from ${specText}${tail.trimEnd().endsWith(';') ? ';' : ''}${newlines(tail)}` });
  }
  return apply(text, edits);
}

/** Every import declaration of the file as a `require`. */
export function importsToRequires(text: string, path: string, original: string): string {
  const sf = parse(text, path);
  const edits: Edit[] = [];
  for (const st of sf.statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier)) continue;
    const spec = st.moduleSpecifier.getText(sf);
    const semi = st.getText(sf).trimEnd().endsWith(';') ? ';' : '';
    const clause = st.importClause;
    const pattern = clause && namedPattern(clause, sf);
    let replacement: string;
    if (!clause) replacement = `require(${spec})${semi}`;
    else if (clause.name && pattern) replacement = `const ${clause.name.text} = require(${spec}), ${pattern} = ${clause.name.text}${semi}`;
    else if (clause.name) replacement = `const ${clause.name.text} = require(${spec})${semi}`;
    else if (clause.namedBindings && ts.isNamespaceImport(clause.namedBindings)) replacement = `const ${clause.namedBindings.name.text} = require(${spec})${semi}`;
    else replacement = `const ${pattern ?? '{}'} = require(${spec})${semi}`;
    const missing = lineBreaks(st.getText(sf)) - lineBreaks(replacement);
    edits.push({ start: st.getStart(sf), end: st.end, text: replacement + '\n'.repeat(Math.max(0, missing)) });
  }
  return keepDirectiveFirst(original, apply(text, edits), path);
}

function requiredSpecifier(init: TS.Expression | undefined): TS.StringLiteral | undefined {
  if (!init || !ts.isCallExpression(init) || !ts.isIdentifier(init.expression) || init.expression.text !== 'require') return undefined;
  const [arg] = init.arguments;
  return init.arguments.length === 1 && ts.isStringLiteral(arg) ? arg : undefined;
}

/** `{ a, b: c }` → `{ a, b as c }`; `x` → `* as x`; anything else (defaults, rest, nesting) is not bridged. */
function importClause(name: TS.BindingName, sf: TS.SourceFile): string | undefined {
  if (ts.isIdentifier(name)) return `* as ${name.text}`;
  if (!ts.isObjectBindingPattern(name)) return undefined;
  let text = name.getText(sf);
  const base = name.getStart(sf);
  const edits: Edit[] = [];
  for (const el of name.elements) {
    if (el.dotDotDotToken || el.initializer || !ts.isIdentifier(el.name)) return undefined;
    if (!el.propertyName) continue;
    if (!ts.isIdentifier(el.propertyName) && !ts.isStringLiteral(el.propertyName)) return undefined;
    edits.push({ start: el.getStart(sf) - base, end: el.end - base, text: `${el.propertyName.getText(sf)} as ${el.name.text}` });
  }
  text = apply(text, edits);
  return text;
}

/** `{ A, B as C }` → `{ A, B: C }`. */
function namedPattern(clause: TS.ImportClause, sf: TS.SourceFile): string | undefined {
  const bindings = clause.namedBindings;
  if (!bindings || !ts.isNamedImports(bindings)) return undefined;
  const base = bindings.getStart(sf);
  const edits = bindings.elements
    .filter((el) => el.propertyName)
    .map((el) => ({ start: el.getStart(sf) - base, end: el.end - base, text: `${el.propertyName!.getText(sf)}: ${el.name.text}` }));
  return apply(bindings.getText(sf), edits);
}

/** A `'use strict'` that was the first statement stays first (a require put above it would void it). */
function keepDirectiveFirst(original: string, text: string, path: string): string {
  const first = parse(original, path).statements[0];
  if (!first || !isUseStrict(first)) return text;
  const sf = parse(text, path);
  const directive = sf.statements.find(isUseStrict);
  if (!directive || directive === sf.statements[0]) return text;
  const lineStart = text.lastIndexOf('\n', directive.getStart(sf) - 1) + 1;
  const eol = text.indexOf('\n', directive.end);
  const line = text.slice(lineStart, eol < 0 ? text.length : eol + 1);
  const without = text.slice(0, lineStart) + text.slice(lineStart + line.length);
  const at = sf.statements[0].getStart(sf);
  return without.slice(0, at) + line.trimStart() + (line.endsWith('\n') ? '' : '\n') + without.slice(at);
}

function isUseStrict(st: TS.Statement): boolean {
  return ts.isExpressionStatement(st) && ts.isStringLiteral(st.expression) && st.expression.text === 'use strict';
}

function parse(text: string, path: string): TS.SourceFile {
  return ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, path.endsWith('x') ? ts.ScriptKind.JSX : ts.ScriptKind.JS);
}

function newlines(text: string): string {
  return '\n'.repeat(lineBreaks(text));
}

function lineBreaks(text: string): number {
  return (text.match(/\n/g) ?? []).length;
}

function apply(text: string, edits: readonly Edit[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}
