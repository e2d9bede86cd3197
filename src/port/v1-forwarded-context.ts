/**
 * The official codemod writes `/* @mcp-codemod-error The context object is forwarded to helper(…) — … *\/`
 * above a v1 handler's call that hands its `extra` (renamed `ctx`) to a helper: the helper's property
 * accesses (`extra.sendRequest`, `extra.signal`) must be updated by hand. When the only accesses were the
 * asks, the port rewrites them (`inputRequest(…)`, `elicit(…)`) and the helper no longer reads the context:
 * nothing is left to update, yet the comment would keep `check` failing on a complete port.
 *
 * Such a comment (or the part of a merged one naming that helper) is removed only when this is proven:
 * the call below it still passes `ctx` to a helper found in the project (same file, a relative import, or
 * `this.method`), whose parameter at that position was read before the port and is read nowhere after it.
 * Anything else keeps the comment: an access the port left, the context passed on to another function,
 * a helper that cannot be found, a parameter pattern.
 *
 * The codemod's two destructuring comments are settled the same way: `Destructuring of context parameter
 * in signature: "{ sendRequest }"` above a registration whose callback destructures its context, and
 * `… detected: "const { sendRequest } = ctx"` above such a declaration in a handler. When the destructured
 * names were the asks, the port rewrites their calls and drops the pattern (the parameter, the
 * declaration): nothing is left to refactor, and the body comment would be left above an unrelated line.
 * Such a comment goes only when none of the names it quotes is destructured any more: by a parameter of
 * a function in the statement below it (signature), or from `ctx` in the function that holds it (body).
 * A name left (`{ signal }` after `{ sendRequest, signal }`), a quote that does not parse, no statement or
 * function to check: the comment stays.
 */
import type * as TS from 'typescript';
import ts from '../typescript.cjs';
import { resolveRelative } from '../analyzer/modules.js';
import { MARKERS } from '../vocabulary.js';

/** One file's text before the port's transform (as migrated) and after it. */
export interface PortTexts {
  before: string;
  after: string;
}

/** The codemod's name for the handler's context parameter (it renames `extra` to it). */
const CONTEXT_NAME = 'ctx';
const COMMENT_LINE_RE = new RegExp(`^([ \\t]*)/\\*\\s*${MARKERS.sdkCodemod}\\s+(.*?)\\s*\\*/[ \\t]*\\r?$`);
const FORWARDED_RE = /^The context object is forwarded to (.+?)\(…\) — /;
const DESTRUCTURED_RE = /^Destructuring of context parameter (in signature|detected): "(.*)"\. Properties have been reorganized/;
const MESSAGE_SEPARATOR = ' | ';

/**
 * The files (absolute path → texts, every file of the run so helpers in other files are found) whose
 * after-text loses settled forwarding comments: absolute path → the new after-text.
 */
export function settleForwardedContextComments(files: ReadonlyMap<string, PortTexts>): Map<string, string> {
  const trees = new Trees(files);
  const settled = new Map<string, string>();
  for (const [abs, texts] of files) {
    if (!texts.after.includes(MARKERS.sdkCodemod) || !(texts.after.includes('is forwarded to') || texts.after.includes('Destructuring of context parameter'))) continue;
    const next = settleFile(abs, texts.after, trees);
    if (next !== texts.after) settled.set(abs, next);
  }
  return settled;
}

function settleFile(abs: string, text: string, trees: Trees): string {
  const lines = text.split('\n');
  const kept: string[] = [];
  for (let i = 0, offset = 0; i < lines.length; offset += lines[i].length + 1, i++) {
    const m = COMMENT_LINE_RE.exec(lines[i]);
    if (!m) {
      kept.push(lines[i]);
      continue;
    }
    const codeLine = lines.findIndex((l, j) => j > i && l.trim() !== '');
    const messages = m[2].split(MESSAGE_SEPARATOR);
    const left = messages.filter((message) => {
      const destructured = DESTRUCTURED_RE.exec(message);
      if (destructured) return !destructuringSettled(abs, destructured[1] === 'in signature' ? { line: codeLine } : { offset }, destructured[2], trees);
      const callee = FORWARDED_RE.exec(message)?.[1];
      return callee === undefined || codeLine < 0 || !forwardingSettled(abs, codeLine, callee, trees);
    });
    if (left.length === messages.length) kept.push(lines[i]);
    else if (left.length > 0) kept.push(`${m[1]}/* ${MARKERS.sdkCodemod} ${left.join(MESSAGE_SEPARATOR)} */${lines[i].endsWith('\r') ? '\r' : ''}`);
  }
  return kept.join('\n');
}

/** Does every call of `callee` starting on `line` (0-based) pass `ctx` only to a parameter the port left unread? */
function forwardingSettled(abs: string, line: number, callee: string, trees: Trees): boolean {
  const sf = trees.after(abs);
  if (!sf) return false;
  const calls = callsOnLine(sf, line, callee);
  if (calls.length === 0) return false;
  return calls.every((call) => {
    const positions = call.arguments.flatMap((a, i) => (ts.isIdentifier(a) && a.text === CONTEXT_NAME ? [i] : []));
    if (positions.length === 0) return false;
    const helper = helperKey(abs, sf, call, trees);
    if (!helper) return false;
    const before = trees.helper(helper, 'before');
    const after = trees.helper(helper, 'after');
    if (!before || !after) return false;
    return positions.every((i) => {
      const was = parameterReads(before, i);
      const is = parameterReads(after, i);
      return was !== undefined && was > 0 && is === 0;
    });
  });
}

/**
 * Is none of the names `quoted` destructures (a parameter pattern, or `const {…} = ctx`) destructured any
 * more where the comment points: by a parameter of a function in the statement starting on `line` (the
 * signature comment), or from `ctx` in the innermost function holding `offset` (the body comment)?
 */
function destructuringSettled(abs: string, where: { line: number } | { offset: number }, quoted: string, trees: Trees): boolean {
  const names = quotedNames(quoted, 'line' in where);
  const sf = trees.after(abs);
  if (!names || !sf) return false;
  const scope = 'line' in where ? (where.line < 0 ? undefined : statementOnLine(sf, where.line)) : innermostFunction(sf, where.offset);
  if (!scope) return false;
  let left = false;
  const visit = (node: TS.Node): void => {
    if (left) return;
    if ('line' in where && ts.isParameter(node) && destructures(node.name, names)) left = true;
    if (!('line' in where) && ts.isVariableDeclaration(node) && node.initializer && ts.isIdentifier(node.initializer) && node.initializer.text === CONTEXT_NAME && destructures(node.name, names)) left = true;
    ts.forEachChild(node, visit);
  };
  visit(scope);
  return !left;
}

/** The property names of the object pattern the codemod quoted (`{ a, b: c }` or `const { a } = ctx`); undefined unless it parses as one. */
function quotedNames(quoted: string, signature: boolean): Set<string> | undefined {
  const sf = ts.createSourceFile('quoted.ts', signature ? `(${quoted}) => 0;` : `${quoted};`, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const st = sf.statements[0];
  let pattern: TS.BindingName | undefined;
  if (signature && st && ts.isExpressionStatement(st) && ts.isArrowFunction(st.expression)) pattern = st.expression.parameters[0]?.name;
  if (!signature && st && ts.isVariableStatement(st)) pattern = st.declarationList.declarations[0]?.name;
  if (!pattern || !ts.isObjectBindingPattern(pattern) || pattern.elements.length === 0) return undefined;
  const names = new Set<string>();
  for (const el of pattern.elements) {
    const key = el.propertyName ?? el.name;
    if (!ts.isIdentifier(key)) return undefined;
    names.add(key.text);
  }
  return names;
}

/** Does `name` destructure one of `names` (an object pattern with such a property)? */
function destructures(name: TS.BindingName, names: ReadonlySet<string>): boolean {
  if (!ts.isObjectBindingPattern(name)) return false;
  return name.elements.some((el) => {
    const key = el.propertyName ?? el.name;
    return !ts.isIdentifier(key) || names.has(key.text);
  });
}

/** The outermost statement whose first token is on `line` (0-based). */
function statementOnLine(sf: TS.SourceFile, line: number): TS.Node | undefined {
  let found: TS.Node | undefined;
  const visit = (node: TS.Node): void => {
    if (found) return;
    const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
    if (ts.isStatement(node) && start === line) {
      found = node;
      return;
    }
    if (start <= line && sf.getLineAndCharacterOfPosition(node.getEnd()).line >= line) ts.forEachChild(node, visit);
  };
  ts.forEachChild(sf, visit);
  return found;
}

/** The innermost function whose body holds `offset`. */
function innermostFunction(sf: TS.SourceFile, offset: number): TS.FunctionLikeDeclaration | undefined {
  let found: TS.FunctionLikeDeclaration | undefined;
  const visit = (node: TS.Node): void => {
    if (node.getStart(sf) > offset || node.getEnd() < offset) return;
    if (ts.isFunctionLike(node) && 'body' in node && node.body && node.body.getStart(sf) <= offset && offset <= node.body.getEnd()) found = node as TS.FunctionLikeDeclaration;
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(sf, visit);
  return found;
}

function callsOnLine(sf: TS.SourceFile, line: number, callee: string): TS.CallExpression[] {
  const wanted = callee.replace(/\s+/g, '');
  const found: TS.CallExpression[] = [];
  const visit = (node: TS.Node): void => {
    if (ts.isCallExpression(node) && sf.getLineAndCharacterOfPosition(node.getStart(sf)).line === line && node.expression.getText(sf).replace(/\s+/g, '') === wanted) found.push(node);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** Where a helper is declared: a file and a name in it (`Class.method` for `this.method`). */
interface HelperKey {
  file: string;
  name: string;
}

function helperKey(abs: string, sf: TS.SourceFile, call: TS.CallExpression, trees: Trees): HelperKey | undefined {
  const callee = call.expression;
  if (ts.isPropertyAccessExpression(callee) && callee.expression.kind === ts.SyntaxKind.ThisKeyword) {
    const cls = enclosingClass(call);
    return cls?.name ? { file: abs, name: `${cls.name.text}.${callee.name.text}` } : undefined;
  }
  if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression)) {
    const ns = importOf(sf, callee.expression.text);
    if (ns?.namespace) return trees.resolve(abs, ns.spec, callee.name.text);
    return undefined;
  }
  if (!ts.isIdentifier(callee)) return undefined;
  const imported = importOf(sf, callee.text);
  if (imported) return imported.namespace ? undefined : trees.resolve(abs, imported.spec, imported.name);
  return { file: abs, name: callee.text };
}

function enclosingClass(node: TS.Node): TS.ClassLikeDeclaration | undefined {
  for (let n = node.parent; n; n = n.parent) if (ts.isClassDeclaration(n) || ts.isClassExpression(n)) return n;
  return undefined;
}

/** The module import that binds `local`: its specifier and the name it imports (`default` for a default import). */
function importOf(sf: TS.SourceFile, local: string): { spec: string; name: string; namespace: boolean } | undefined {
  for (const st of sf.statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier) || !st.importClause || st.importClause.isTypeOnly) continue;
    const spec = st.moduleSpecifier.text;
    const clause = st.importClause;
    if (clause.name?.text === local) return { spec, name: 'default', namespace: false };
    const bindings = clause.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings) && bindings.name.text === local) return { spec, name: '*', namespace: true };
    if (bindings && ts.isNamedImports(bindings)) {
      const el = bindings.elements.find((e) => e.name.text === local);
      if (el) return { spec, name: (el.propertyName ?? el.name).text, namespace: false };
    }
  }
  return undefined;
}

type HelperFunction = TS.FunctionLikeDeclaration;

/**
 * How many times the body of `fn` names its parameter `index` (a property name `x.p` or key `p:` is not
 * a read); undefined when there is no such parameter or it is a pattern. A name the port removed is 0.
 */
function parameterReads(fn: HelperFunction, index: number): number | undefined {
  const param = fn.parameters[index];
  if (!param) return 0;
  if (!ts.isIdentifier(param.name)) return undefined;
  const name = param.name.text;
  let reads = 0;
  const visit = (node: TS.Node): void => {
    if (ts.isIdentifier(node) && node.text === name && !isPropertyName(node)) reads++;
    ts.forEachChild(node, visit);
  };
  if (fn.body) visit(fn.body);
  return reads;
}

function isPropertyName(id: TS.Identifier): boolean {
  const p = id.parent;
  return (ts.isPropertyAccessExpression(p) && p.name === id) || (ts.isPropertyAssignment(p) && p.name === id) || (ts.isMethodDeclaration(p) && p.name === id);
}

/** Parses each file's before- and after-text once, and finds helpers in them. */
class Trees {
  private readonly parsed = new Map<string, TS.SourceFile | null>();

  constructor(private readonly files: ReadonlyMap<string, PortTexts>) {}

  after(abs: string): TS.SourceFile | undefined {
    return this.tree(abs, 'after');
  }

  private tree(abs: string, side: keyof PortTexts): TS.SourceFile | undefined {
    const key = `${side}\0${abs}`;
    let sf = this.parsed.get(key);
    if (sf === undefined) {
      const text = this.files.get(abs)?.[side];
      sf = text === undefined ? null : ts.createSourceFile(abs, text, ts.ScriptTarget.Latest, true, scriptKind(abs));
      this.parsed.set(key, sf);
    }
    return sf ?? undefined;
  }

  /** The file a relative import lands in, and the local name the imported one has there. */
  resolve(from: string, spec: string, imported: string): HelperKey | undefined {
    const file = resolveRelative(from, spec, (p) => this.files.has(p));
    if (!file) return undefined;
    const sf = this.tree(file, 'after');
    if (!sf) return undefined;
    if (imported === 'default') {
      const fn = sf.statements.find((s) => ts.isFunctionDeclaration(s) && s.modifiers?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword));
      return fn && (fn as TS.FunctionDeclaration).name ? { file, name: (fn as TS.FunctionDeclaration).name!.text } : undefined;
    }
    // `export { local as imported }`
    for (const st of sf.statements) {
      if (!ts.isExportDeclaration(st) || st.moduleSpecifier || !st.exportClause || !ts.isNamedExports(st.exportClause)) continue;
      const el = st.exportClause.elements.find((e) => e.name.text === imported);
      if (el) return { file, name: (el.propertyName ?? el.name).text };
    }
    return { file, name: imported };
  }

  /** The one function declared under `key.name` in the file's text on that side; undefined unless exactly one. */
  helper(key: HelperKey, side: keyof PortTexts): HelperFunction | undefined {
    const sf = this.tree(key.file, side);
    if (!sf) return undefined;
    const [owner, member] = key.name.includes('.') ? key.name.split('.') : [undefined, key.name];
    const found: HelperFunction[] = [];
    const visit = (node: TS.Node): void => {
      if (owner === undefined) {
        if (ts.isFunctionDeclaration(node) && node.name?.text === member) found.push(node);
        if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === member && node.initializer && isFunction(node.initializer)) found.push(node.initializer);
      } else if ((ts.isClassDeclaration(node) || ts.isClassExpression(node)) && node.name?.text === owner) {
        for (const m of node.members) {
          if (!m.name || !ts.isIdentifier(m.name) || m.name.text !== member) continue;
          if (ts.isMethodDeclaration(m)) found.push(m);
          if (ts.isPropertyDeclaration(m) && m.initializer && isFunction(m.initializer)) found.push(m.initializer);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
    return found.length === 1 ? found[0] : undefined;
  }
}

function isFunction(node: TS.Node): node is TS.ArrowFunction | TS.FunctionExpression {
  return ts.isArrowFunction(node) || ts.isFunctionExpression(node);
}

function scriptKind(abs: string): TS.ScriptKind {
  if (/\.[cm]?tsx?$/.test(abs)) return abs.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  return abs.endsWith('x') ? ts.ScriptKind.JSX : ts.ScriptKind.JS;
}
