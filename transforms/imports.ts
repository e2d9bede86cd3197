/**
 * imports — adds the imports ported code needs, once, merged into the file's existing imports.
 *
 * Before:  import { McpServer } from '@modelcontextprotocol/server';
 * After:   import { McpServer } from '@modelcontextprotocol/server';
 *          import { elicit, once, resumable } from './mrtr-flow.js';
 * CommonJS (`module: 'cjs'`, a `.cjs` file, or a file that only `require`s):
 *          const { elicit, once, resumable } = require('./mrtr-flow.cjs');
 *
 * The port engine hands it the runtime names its plan uses (each with the local name it gets: `once
 * as once2` when the file already has a `once`). Run alone (`jscodeshift -t transforms/imports.ts`) it
 * imports the runtime names a file calls without binding them. A name the file already imports from
 * that module is never added twice, so running it again changes nothing.
 */
import ts from '../src/typescript.cjs';
import type { RuntimeName } from '../src/analyzer/plan/model.js';
import { FLOW_RUNTIME_NAMES } from '../src/vocabulary.js';
import type { Edit, SourceStyle } from './lib/source-text.js';
import { quoteString } from './lib/source-text.js';
import { runAsJscodeshift, type FileInfo } from './lib/jscodeshift-module.js';

/** Every function a ported file may call from the flow runtime (docs/engine.md). */
export const RUNTIME_NAMES: readonly RuntimeName[] = FLOW_RUNTIME_NAMES;

/** Runtime names the file calls without binding them (a hand edit, or a port whose import was lost). */
export function unboundRuntimeNames(sf: ts.SourceFile): ImportedName[] {
  const bound = new Set<string>();
  const called = new Set<string>();
  const visit = (n: ts.Node): void => {
    if (ts.isImportSpecifier(n) || ts.isImportClause(n) || ts.isNamespaceImport(n)) {
      if (n.name) bound.add(n.name.text);
    } else if ((ts.isVariableDeclaration(n) || ts.isFunctionDeclaration(n) || ts.isParameter(n) || ts.isBindingElement(n) || ts.isClassDeclaration(n)) && n.name && ts.isIdentifier(n.name)) {
      bound.add(n.name.text);
    } else if (ts.isCallExpression(n) && ts.isIdentifier(n.expression)) {
      called.add(n.expression.text);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return RUNTIME_NAMES.filter((name) => called.has(name) && !bound.has(name))
    .sort()
    .map((name) => ({ name, local: name }));
}

export const parser = 'ts';

/** jscodeshift module: imports the runtime names an already-ported file calls without importing them. */
export default function transformer(file: FileInfo, _api: unknown, options: Record<string, unknown> = {}): string | undefined {
  return runAsJscodeshift(file, options, { resumable: false, retireRoots: false, imports: true });
}

/** A name to import and the local name it gets (`once`, or `once as once2` on a clash). */
export interface ImportedName {
  name: string;
  local: string;
}

/**
 * The edits that import `names` from `specifier` on a TypeScript parse of the file: merged into an
 * existing import (or `require` destructuring) of the same module, else a new line after the last
 * import (or `require`), else before the first statement. `cjs`: `const { a, b: c } = require('…');`.
 * Names the file already imports from that module are left out.
 */
export function moduleImportEdits(sf: ts.SourceFile, style: SourceStyle, specifier: string, names: readonly ImportedName[], cjs: boolean): Edit[] {
  if (names.length === 0) return [];
  const statements = sf.statements;
  const quoted = quoteString(specifier, style);
  if (cjs) {
    const requires = statements.filter((st) => requiredModule(st) !== undefined);
    const existing = requires.find((st) => requiredModule(st) === specifier && destructuring(st) !== undefined);
    const pattern = existing ? destructuring(existing)! : undefined;
    const have = new Set(pattern?.elements.map((e) => e.name.getText(sf)) ?? []);
    const missing = names.filter((n) => !have.has(n.local));
    if (missing.length === 0) return [];
    const parts = missing.map((n) => (n.name === n.local ? n.name : `${n.name}: ${n.local}`));
    if (pattern && pattern.elements.length > 0) {
      const last = pattern.elements[pattern.elements.length - 1];
      return [{ start: last.end, end: last.end, text: parts.map((p) => `, ${p}`).join('') }];
    }
    const line = `const { ${parts.join(', ')} } = require(${quoted})${style.semi}`;
    return [newStatement(sf, style, requires[requires.length - 1] ?? directivePrologueEnd(sf), line)];
  }
  const imports = statements.filter(ts.isImportDeclaration);
  const existing = imports.find((d) => moduleText(d) === specifier && !d.importClause?.isTypeOnly && namedImports(d) !== undefined);
  const named = existing ? namedImports(existing)! : undefined;
  const have = new Set(named?.elements.map((e) => e.name.text) ?? []);
  const missing = names.filter((n) => !have.has(n.local));
  if (missing.length === 0) return [];
  const parts = missing.map((n) => (n.name === n.local ? n.name : `${n.name} as ${n.local}`));
  if (named && named.elements.length > 0) {
    const last = named.elements[named.elements.length - 1];
    return [{ start: last.end, end: last.end, text: parts.map((p) => `, ${p}`).join('') }];
  }
  const line = `import { ${parts.join(', ')} } from ${quoted}${style.semi}`;
  return [newStatement(sf, style, imports[imports.length - 1], line)];
}

/** A new statement after `anchor`, or (no anchor) before the file's first statement, followed by a blank line. */
function newStatement(sf: ts.SourceFile, style: SourceStyle, anchor: ts.Statement | undefined, line: string): Edit {
  if (anchor) return { start: anchor.end, end: anchor.end, text: style.eol + line, order: 1 };
  const first = sf.statements[0];
  const at = first ? first.getStart(sf) : sf.text.length;
  return { start: at, end: at, text: line + style.eol + (first ? style.eol : '') };
}

/** The `'use strict'` directive a CommonJS file may open with: requires go after it. */
function directivePrologueEnd(sf: ts.SourceFile): ts.Statement | undefined {
  const first = sf.statements[0];
  return first && ts.isExpressionStatement(first) && ts.isStringLiteral(first.expression) ? first : undefined;
}

function moduleText(d: ts.ImportDeclaration): string | undefined {
  return ts.isStringLiteral(d.moduleSpecifier) ? d.moduleSpecifier.text : undefined;
}

function namedImports(d: ts.ImportDeclaration): ts.NamedImports | undefined {
  const b = d.importClause?.namedBindings;
  return b && ts.isNamedImports(b) ? b : undefined;
}

/** `const … = require('<module>')` at the top level: the module. */
function requiredModule(st: ts.Statement): string | undefined {
  if (!ts.isVariableStatement(st) || st.declarationList.declarations.length !== 1) return undefined;
  const init = st.declarationList.declarations[0].initializer;
  if (!init || !ts.isCallExpression(init) || !ts.isIdentifier(init.expression) || init.expression.text !== 'require') return undefined;
  const arg = init.arguments[0];
  return arg && ts.isStringLiteral(arg) ? arg.text : undefined;
}

function destructuring(st: ts.Statement): ts.ObjectBindingPattern | undefined {
  if (!ts.isVariableStatement(st)) return undefined;
  const name = st.declarationList.declarations[0]?.name;
  return name && ts.isObjectBindingPattern(name) ? name : undefined;
}

/** How a file imports when the options do not say: `.cjs`/`.cts` and `require`-only files are CommonJS. */
export function isCommonJs(path: string, sf: ts.SourceFile): boolean {
  if (/\.c[jt]s$/.test(path)) return true;
  if (/\.m[jt]s$/.test(path) || /\.tsx?$/.test(path)) return false;
  const esm = sf.statements.some((st) => ts.isImportDeclaration(st) || ts.isExportDeclaration(st) || ts.isExportAssignment(st) || (ts.canHaveModifiers(st) && ts.getModifiers(st)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)));
  return !esm && sf.statements.some((st) => requiredModule(st) !== undefined);
}
