/**
 * imports — adds the imports ported code needs, once, merged into the file's existing imports.
 *
 * Before:  import { McpServer } from '@modelcontextprotocol/server';
 * After:   import { McpServer, inputRequired } from '@modelcontextprotocol/server';
 *          import type { ElicitRequestFormParams } from '@modelcontextprotocol/server';
 *          import { bindRequest, continuation, elicitationAnswer } from './mrtr-continuation.js';
 *
 * It reads the text the other transforms produced: a known MRTR name that is used but neither
 * imported nor declared gets imported (values into the existing value import, types into an
 * `import type` line, runtime helpers from the continuation module the runner chose, in the file's
 * relative-import style). Running it again finds nothing missing, so it is idempotent.
 *
 * Does not: merge into a namespace import (`import * as sdk`), or remove imports the port made
 * unused (e.g. `ElicitResultSchema`): unused imports compile, and removing them is the linter's job.
 */
import ts from 'typescript';
import { SDK_PACKAGES } from '../src/vocabulary.js';
import { parseProgram, walk, declaredNames, type Node } from './lib/ast.js';
import type { PortOptions } from './lib/context.js';
import { runAsJscodeshift, type FileInfo } from './lib/jscodeshift-module.js';
import { SourceText, quoteString, type Edit, type SourceStyle } from './lib/source-text.js';

/** Names ported code uses, by the module that exports them. */
const SERVER_VALUES = ['CLIENT_CAPABILITIES_META_KEY', 'inputRequired', 'inputResponse', 'isInputRequiredResult'];
const SERVER_TYPES = [
  'ClientCapabilities',
  'CreateMessageRequestParams',
  'CreateMessageResult',
  'CreateMessageResultWithTools',
  'ElicitRequestFormParams',
  'InputRequiredResult',
  'Root',
];
const RUNTIME_VALUES = ['bindRequest', 'continuation', 'elicitationAnswer', 'rootsFromConfig'];
const RUNTIME_TYPES = ['ElicitAnswer'];

/** The continuation module for the chosen codec (`--codec sdk` uses the SDK-codec variant). */
export function continuationModule(options: PortOptions): string {
  if (options.codec !== 'sdk') return options.continuationImport;
  const spec = options.continuationImport;
  return /\.[mc]?[jt]s$/.test(spec) ? spec.replace(/(\.[mc]?[jt]s)$/, '-sdk$1') : `${spec}-sdk`;
}

export function addMissingImports(input: string, parser: 'ts' | 'tsx', options: PortOptions): string {
  const src = new SourceText(input);
  const program = parseProgram(src.text, parser);
  const edits = importEdits(program, src.text, src.style, missingNames(usedNames(program)), options);
  return edits.length === 0 ? input : src.apply(edits);
}

/** Every name an import may add: a use of another name can never change what is missing. */
export const IMPORTABLE_NAMES: ReadonlySet<string> = new Set([...SERVER_VALUES, ...SERVER_TYPES, ...RUNTIME_VALUES, ...RUNTIME_TYPES]);
export const IMPORTABLE_VALUES: ReadonlySet<string> = new Set([...SERVER_VALUES, ...RUNTIME_VALUES]);

export interface NameUses {
  values: ReadonlySet<string>;
  types: ReadonlySet<string>;
  bound: ReadonlySet<string>;
}

export interface MissingNames {
  serverValues: string[];
  serverTypes: string[];
  runtimeValues: string[];
  runtimeTypes: string[];
}

export function missingNames({ values, types, bound }: NameUses): MissingNames {
  const missing = (names: readonly string[], used: ReadonlySet<string>): string[] => names.filter((n) => used.has(n) && !bound.has(n)).sort(byName);
  return {
    serverValues: missing(SERVER_VALUES, values),
    serverTypes: missing(SERVER_TYPES, types),
    runtimeValues: missing(RUNTIME_VALUES, values),
    runtimeTypes: missing(RUNTIME_TYPES, types),
  };
}

/**
 * The edits that import `missing`, placed against `program`'s import declarations (offsets into
 * `text`, the text `program` was parsed from) and written in `style`.
 */
export function importEdits(program: Node, text: string, style: SourceStyle, missing: MissingNames, options: PortOptions): Edit[] {
  const { serverValues, serverTypes, runtimeValues, runtimeTypes } = missing;
  if (serverValues.length + serverTypes.length + runtimeValues.length + runtimeTypes.length === 0) return [];

  const imports = (program.body as Node[]).filter((s) => s.type === 'ImportDeclaration');
  const edits: Edit[] = [];
  const newLines: string[] = [];
  const line = (names: string[], from: string, typeOnly: boolean): string =>
    `import ${typeOnly ? 'type ' : ''}{ ${names.join(', ')} } from ${quoteString(from, style)}${style.semi}`;

  const server = SDK_PACKAGES.v2Server;
  const serverValueImport = imports.find((d) => d.source.value === server && d.importKind !== 'type' && hasNamedSpecifiers(d));
  if (serverValues.length > 0) {
    if (serverValueImport) edits.push(appendSpecifiers(serverValueImport, serverValues));
    else newLines.push(line(serverValues, server, false));
  }
  if (serverTypes.length > 0) {
    const typeImport = imports.find((d) => d.source.value === server && d.importKind === 'type' && hasNamedSpecifiers(d));
    if (typeImport) edits.push(appendSpecifiers(typeImport, serverTypes));
    else newLines.push(line(serverTypes, server, true));
  }
  const runtime = continuationModule(options);
  const runtimeNames = [...runtimeValues, ...runtimeTypes.map((t) => `type ${t}`)];
  if (runtimeNames.length > 0) {
    const existing = imports.find((d) => d.source.value === runtime && d.importKind !== 'type' && hasNamedSpecifiers(d));
    if (existing) edits.push(appendSpecifiers(existing, runtimeNames));
    else newLines.push(line(runtimeNames, runtime, false));
  }
  if (newLines.length > 0) {
    const anchor = serverValueImport ?? imports[imports.length - 1];
    if (anchor) {
      // after the server import (or the last import), so related imports stay together
      edits.push({ start: anchor.end, end: anchor.end, text: newLines.map((l) => style.eol + l).join(''), order: 1 });
    } else {
      const first = (program.body as Node[])[0];
      const at = first ? first.start : text.length;
      edits.push({ start: at, end: at, text: newLines.join(style.eol) + style.eol + (first ? style.eol : '') });
    }
  }
  return edits;
}

function byName(a: string, b: string): number {
  return a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0;
}

function hasNamedSpecifiers(d: Node): boolean {
  const specs = d.specifiers as Node[];
  return specs.length > 0 && specs.every((s) => s.type === 'ImportSpecifier' || s.type === 'ImportDefaultSpecifier') && specs.some((s) => s.type === 'ImportSpecifier');
}

function appendSpecifiers(d: Node, names: string[]): Edit {
  const specs = (d.specifiers as Node[]).filter((s) => s.type === 'ImportSpecifier');
  const last = specs[specs.length - 1];
  return { start: last.end, end: last.end, text: names.map((n) => `, ${n}`).join('') };
}

/** Value and type names referenced, and every name the file binds (imports and declarations). */
export function usedNames(program: Node): NameUses {
  const values = new Set<string>();
  const types = new Set<string>();
  const bound = new Set<string>();
  visitNameUses(program, (name, kind) => (kind === 'value' ? values : kind === 'type' ? types : bound).add(name));
  return { values, types, bound };
}

/**
 * Each use `usedNames` counts: `node` is the identifier (or type reference, or import specifier),
 * `context` the node whose shape decides how it counts (the parent, or the declaration that binds).
 */
export function visitNameUses(program: Node, use: (name: string, kind: 'value' | 'type' | 'bound', node: Node, context: Node) => void): void {
  walk(program, (n, ancestors) => {
    const parent = ancestors[ancestors.length - 1];
    switch (n.type) {
      case 'ImportSpecifier':
      case 'ImportDefaultSpecifier':
      case 'ImportNamespaceSpecifier':
        use(n.local.name as string, 'bound', n, parent);
        break;
      case 'VariableDeclaration':
      case 'FunctionDeclaration':
      case 'ClassDeclaration':
        for (const name of declaredNames(n)) use(name, 'bound', n, n);
        break;
      case 'TSTypeAliasDeclaration':
      case 'TSInterfaceDeclaration':
      case 'TSEnumDeclaration':
        use(n.id.name as string, 'bound', n, n);
        break;
      case 'TSTypeReference':
        if ((n.typeName as Node).type === 'Identifier') use(n.typeName.name as string, 'type', n, parent ?? n);
        break;
      case 'Identifier': {
        if (!parent) break;
        if ((parent.type === 'MemberExpression' || parent.type === 'OptionalMemberExpression') && parent.property === n && !parent.computed) break;
        if ((parent.type === 'ObjectProperty' || parent.type === 'ObjectMethod') && parent.key === n && !parent.computed && !parent.shorthand) break;
        if (parent.type === 'TSTypeReference' || parent.type.startsWith('Import')) break;
        use(n.name as string, 'value', n, parent);
        break;
      }
    }
  });
}

export const parser = 'ts';

/** jscodeshift module: adds missing MRTR imports to already-rewritten code. */
export default function transformer(file: FileInfo, _api: unknown, options: Record<string, unknown> = {}): string | undefined {
  return runAsJscodeshift(file, options, { twoPass: false, capabilityBranches: false, retireRoots: false, urlElicitation: false, imports: true });
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
