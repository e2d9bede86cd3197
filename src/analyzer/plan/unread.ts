/**
 * Names the port leaves unread, and the edits that keep the output building under `noUnusedLocals`
 * and `noUnusedParameters`. The port drops text: the receiver and request options of each ask
 * (`ctx.mcpReq.elicitInput(p, opts)` → `elicit(p)`; a raw request keeps its result schema), the error class
 * of `throw new UrlElicitationRequiredError(list)`, a retired roots request. A name whose only reads
 * were in that text is unread in the output; tsc then fails the user's build (TS6133, TS6192, TS6196,
 * TS6198, TS6138). What is done with each:
 * - a parameter of the registered handler (the function given inline to the registration, or a
 *   non-exported function whose every use in the file is that argument): removed when it and every
 *   parameter after it are unread (the SDK calls the handler with its arguments whatever the arity, and
 *   `resumable` keeps the handler's `length`); otherwise, and in every other function (a helper's
 *   callers still pass the argument), renamed with a `_` prefix, which tsc accepts unread;
 * - an element of a destructured parameter (`{ mcpReq }`): removed, the others kept; a pattern left
 *   with none is the parameter itself (removed, or `_`); a pattern with a rest element is left (the rest
 *   would gain the property);
 * - an import specifier: removed; a declaration that loses every binding is removed whole (never turned
 *   into `import 'x'`, which would load the module for its side effects only);
 * - a CommonJS binding (`const { A } = require('x')`, `import x = require('x')`): judged as an import,
 *   a `require` left with no name goes whole;
 * - a type alias or interface of the file (not exported): removed (types do not run);
 * - a local (`const server = context.server`, `const { mcpReq } = ctx`): an element of its pattern
 *   removed while others stay read; a declarator with nothing left read removed when its initializer
 *   has no effect (see `inert`: reads, literals and operators that assign nothing), else kept (`keptLocals`: the
 *   effect runs, tsc reports the name); the statement goes with its last declarator;
 * - a `private` member read only through the dropped text (`this.server.server.createMessage(…)`): kept,
 *   with an `unread-private-member` marker. TypeScript's `private` is not private at run time (a cast,
 *   `this['server']`, a subclass in JavaScript, serialization can read it), so removing it cannot be
 *   proved safe from the file; the user decides.
 * - a `#private` field read only through the dropped text, written only by `this.#x = …;` statements:
 *   nothing outside the class reads a `#name`, so it is provably unread; removed with its writes when
 *   none of them has an effect (its initializer, the written values), else kept with the same marker.
 * Removing a declaration drops its text too (a parameter's type annotation), so names read only there
 * (`ServerContext`) are judged again, until nothing changes.
 *
 * "Unread" is decided by the file's own scopes, conservatively: a declaration is a candidate only when
 * a dropped identifier resolves to it with no other declaration of that name in its scope (no
 * shadowing to reason about; a local: none other in its function, or in the file for a module-level
 * one, and only in a module, whose top-level names are not globals), and it is unread only when no
 * identifier of that name is left in its scope outside the dropped text. Anything else stays as it is.
 */
import ts from '../../typescript.cjs';
import { isFunctionLike, unwrap } from '../ast.js';
import type { Span } from './model.js';
import { bindingNames, freshName } from './scope.js';

/** One edit: replace [start, end) with `text`, where a node of `expect.kind` named `expect.name` starts at `expect.at`. */
export interface UnreadEdit extends Span {
  text: string;
  expect: { at: number; kind: UnreadNodeKind; name: string };
}

export type UnreadNodeKind = 'parameter' | 'binding-element' | 'import-specifier' | 'import-clause' | 'import' | 'type' | 'member';

export interface UnreadResult {
  edits: UnreadEdit[];
  /** Private members read only through dropped text: kept, each gets a marker (at its declaration). */
  privateMembers: { node: ts.Node; name: string }[];
  /**
   * Locals read only through dropped text whose initializer may have an effect (a call, `new`, an
   * `await`): kept, so the effect still runs; tsc reports them unread (TS6133, TS6198).
   */
  keptLocals: { node: ts.VariableDeclaration; name: string }[];
}

type Declaration =
  | { kind: 'param'; fn: ts.FunctionLikeDeclaration; param: ts.ParameterDeclaration; element?: ts.BindingElement }
  | { kind: 'import'; decl: ts.ImportDeclaration; binding: ts.ImportSpecifier | ts.ImportClause | ts.NamespaceImport }
  | { kind: 'import-equals'; statement: ts.ImportEqualsDeclaration }
  | { kind: 'type'; statement: ts.TypeAliasDeclaration | ts.InterfaceDeclaration }
  | { kind: 'local'; statement: ts.VariableStatement; declaration: ts.VariableDeclaration; element?: ts.BindingElement; scope: ts.Node }
  | { kind: 'private-field'; member: ts.PropertyDeclaration; writes: ts.ExpressionStatement[] };

/**
 * @param drops spans of the original text the port removes or replaces (offsets of `sf`)
 * @param handlers the handler arguments the port wraps in `resumable(…)`
 */
export function unreadEdits(sf: ts.SourceFile, drops: readonly Span[], handlerArgs: ReadonlySet<ts.Node>): UnreadResult {
  const index = new IdentifierIndex(sf);
  const handlers = new Set([...handlerArgs].map((h) => unwrap(h as ts.Expression) as ts.Node));
  const dropped = new DropSet(drops);
  const inDrop = (n: ts.Node): boolean => dropped.holds(n.getStart(sf), n.end);
  const unread = new Map<ts.Node, Declaration>();
  const privateMembers = new Map<ts.Node, string>();

  for (let changed = true; changed; ) {
    changed = false;
    const before = unread.size;
    // each declaration is judged once a round (thousands of dropped `ctx` may name one import)
    const judged = new Set<ts.Node>();
    for (const name of index.privateNamesWithin(dropped.spans, sf)) {
      const field = privateFieldOf(name, index);
      if (!field || privateMembers.has(field.member) || unread.has(field.member) || !unreadPrivateField(field, index, inDrop)) continue;
      const writes = removablePrivateField(field, index, inDrop);
      if (writes) unread.set(field.member, { kind: 'private-field', member: field.member, writes });
      else privateMembers.set(field.member, name.text);
    }
    for (const id of index.within(dropped.spans, sf)) {
      const member = privateMemberOf(id);
      if (member) {
        if (!privateMembers.has(member.node) && index.memberReads(member.name).every(inDrop) && !index.hasStringKey(sf, member.name)) {
          privateMembers.set(member.node, member.name);
        }
        continue;
      }
      if (index.isName(id) || !index.isReference(id)) continue;
      const decl = resolve(id, sf, index);
      if (!decl) continue;
      const key = nodeOf(decl);
      if (unread.has(key) || judged.has(key)) continue;
      judged.add(key);
      const scope = decl.kind === 'param' ? decl.fn : decl.kind === 'local' ? decl.scope : sf;
      const own = declarationName(decl);
      // declared in the dropped text itself (a callback in an ask's dropped options): it goes with that text
      if (inDrop(own)) continue;
      if (index.occurrences(own.text, scope).every((o) => o === own || inDrop(o))) unread.set(key, decl);
    }
    // what is removed is dropped too: its type annotation may hold the last read of an import
    if (unread.size !== before) changed = dropped.add(removedSpans(plan(unread, handlers, index, sf)));
  }
  const kept: ts.VariableDeclaration[] = [];
  const edits = plan(unread, handlers, index, sf, kept);
  return {
    edits,
    privateMembers: [...privateMembers].map(([node, name]) => ({ node, name })),
    keptLocals: kept.map((node) => ({ node, name: node.name.getText(sf) })),
  };
}

/** Dropped spans, sorted and merged, for quick "is this inside" questions. */
class DropSet {
  spans: Span[] = [];
  constructor(initial: readonly Span[]) {
    this.add(initial);
  }

  /** Adds spans; true when any text not dropped before is now. */
  add(more: readonly Span[]): boolean {
    const fresh = more.filter((s) => s.end > s.start && !this.holds(s.start, s.end));
    if (fresh.length === 0) return false;
    const all = [...this.spans, ...fresh].sort((a, b) => a.start - b.start);
    const merged: Span[] = [];
    for (const s of all) {
      const last = merged[merged.length - 1];
      if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
      else merged.push({ ...s });
    }
    this.spans = merged;
    return true;
  }

  holds(start: number, end: number): boolean {
    let lo = 0;
    let hi = this.spans.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const s = this.spans[mid];
      if (s.end < end) lo = mid + 1;
      else if (s.start > start) hi = mid - 1;
      else return true;
    }
    return false;
  }
}

/** The spans the edits remove outright (renames keep their text: nothing of theirs is dropped). */
function removedSpans(edits: readonly UnreadEdit[]): Span[] {
  return edits.filter((e) => e.text === '' || e.text === '()').map((e) => ({ start: e.start, end: e.end }));
}

function nodeOf(d: Declaration): ts.Node {
  if (d.kind === 'param') return d.element ?? d.param;
  if (d.kind === 'private-field') return d.member;
  if (d.kind === 'import') return d.binding;
  if (d.kind === 'local') return d.element ?? d.declaration;
  return d.statement;
}

function declarationName(d: Declaration): ts.Identifier {
  if (d.kind === 'param') return (d.element ? d.element.name : d.param.name) as ts.Identifier;
  if (d.kind === 'import') return d.binding.name!;
  if (d.kind === 'local') return (d.element ? d.element.name : d.declaration.name) as ts.Identifier;
  if (d.kind === 'private-field') throw new Error('a #private field is judged by its class, not by a scope');
  return d.statement.name;
}

/** The edits for the unread declarations found so far; `kept` receives the locals kept for their initializer's effect. */
function plan(unread: Map<ts.Node, Declaration>, handlers: ReadonlySet<ts.Node>, index: IdentifierIndex, sf: ts.SourceFile, kept: ts.VariableDeclaration[] = []): UnreadEdit[] {
  const edits: UnreadEdit[] = [];
  const byFunction = new Map<ts.FunctionLikeDeclaration, Declaration[]>();
  const byImport = new Map<ts.ImportDeclaration, Declaration[]>();
  const byStatement = new Map<ts.VariableStatement, Extract<Declaration, { kind: 'local' }>[]>();
  for (const d of unread.values()) {
    if (d.kind === 'param') byFunction.set(d.fn, [...(byFunction.get(d.fn) ?? []), d]);
    else if (d.kind === 'import') byImport.set(d.decl, [...(byImport.get(d.decl) ?? []), d]);
    else if (d.kind === 'local') byStatement.set(d.statement, [...(byStatement.get(d.statement) ?? []), d]);
    else if (d.kind === 'import-equals') edits.push(statementRemoval(d.statement, sf, 'import', requiredSpecifier(d.statement)!));
    else if (d.kind === 'private-field') edits.push(...privateFieldEdits(d.member, d.writes, sf));
    else if (!exported(d.statement)) edits.push(statementRemoval(d.statement, sf, 'type', d.statement.name.text));
  }
  for (const [fn, decls] of byFunction) edits.push(...parameterEdits(fn, decls, handlers, index, sf));
  for (const [decl, decls] of byImport) edits.push(...importEdits(decl, decls, sf));
  for (const [statement, decls] of byStatement) edits.push(...localEdits(statement, decls, sf, kept));
  return edits.sort((a, b) => a.start - b.start);
}

/**
 * A variable statement's unread names: an element of a destructuring goes alone while others stay
 * read (the initializer still runs); a declarator left with no name read goes whole when its
 * initializer has no effect (`ctx.server`, `ctx`, `require('x')` as an import), else it is kept; the
 * statement goes when every declarator does.
 */
function localEdits(statement: ts.VariableStatement, decls: readonly Extract<Declaration, { kind: 'local' }>[], sf: ts.SourceFile, kept: ts.VariableDeclaration[]): UnreadEdit[] {
  const edits: UnreadEdit[] = [];
  const declarators = statement.declarationList.declarations;
  const gone = new Set<ts.VariableDeclaration>();
  for (const declaration of declarators) {
    const mine = decls.filter((d) => d.declaration === declaration);
    if (mine.length === 0) continue;
    const pattern = declaration.name;
    const elements = new Set(mine.flatMap((d) => (d.element ? [d.element] : [])));
    if (ts.isObjectBindingPattern(pattern) && !pattern.elements.every((el) => elements.has(el))) {
      edits.push(...listRemovals(pattern.elements, elements, sf, 'binding-element'));
    } else if (!declaration.initializer || inert(declaration.initializer) || requiredSpecifier(declaration.initializer) !== undefined) {
      gone.add(declaration);
    } else {
      kept.push(declaration);
    }
  }
  if (gone.size === 0) return edits;
  const first = declarators[0];
  if (gone.size === declarators.length) {
    const removal = statementRemoval(statement, sf, 'binding-element', first.name.getText(sf));
    return [{ ...removal, expect: { at: first.getStart(sf), kind: 'binding-element', name: first.name.getText(sf) } }];
  }
  return [...edits, ...listRemovals(declarators, gone, sf, 'binding-element')];
}

/**
 * Has no effect to keep: a name, `this`, a literal, a property read of one (`ctx.mcpReq`,
 * `this.server.server`, `extra['server']`), and what only combines those: an object or array literal
 * of them (request options held in a local: `{ signal: ctx.mcpReq.signal, timeout: t ?? 60_000 }`),
 * an operator that assigns nothing (`??`, `&&`, `*`, `!`, `typeof`, `a ? b : c`), a template. A
 * property read is taken to have none: a getter's effect would be lost, as it would be were the user
 * to delete the line tsc reports. A call, `new`, `await`, `yield`, an assignment, `++`, `delete`, a
 * function or class (its body may hold other edits of the port) are effects.
 */
function inert(expr: ts.Expression): boolean {
  const e = unwrap(expr);
  if (ts.isIdentifier(e) || ts.isLiteralExpression(e)) return true;
  if (e.kind === ts.SyntaxKind.ThisKeyword || e.kind === ts.SyntaxKind.TrueKeyword || e.kind === ts.SyntaxKind.FalseKeyword || e.kind === ts.SyntaxKind.NullKeyword) return true;
  if (ts.isPropertyAccessExpression(e)) return inert(e.expression);
  if (ts.isElementAccessExpression(e)) return (ts.isStringLiteralLike(e.argumentExpression) || ts.isNumericLiteral(e.argumentExpression)) && inert(e.expression);
  if (ts.isObjectLiteralExpression(e)) return e.properties.every(inertProperty);
  if (ts.isArrayLiteralExpression(e)) return e.elements.every((el) => ts.isOmittedExpression(el) || (!ts.isSpreadElement(el) && inert(el)));
  if (ts.isBinaryExpression(e)) return !isAssignment(e.operatorToken.kind) && e.operatorToken.kind !== ts.SyntaxKind.InKeyword && e.operatorToken.kind !== ts.SyntaxKind.InstanceOfKeyword && inert(e.left) && inert(e.right);
  if (ts.isConditionalExpression(e)) return inert(e.condition) && inert(e.whenTrue) && inert(e.whenFalse);
  if (ts.isPrefixUnaryExpression(e)) return e.operator !== ts.SyntaxKind.PlusPlusToken && e.operator !== ts.SyntaxKind.MinusMinusToken && inert(e.operand);
  if (ts.isTypeOfExpression(e) || ts.isVoidExpression(e)) return inert(e.expression);
  if (ts.isTemplateExpression(e)) return e.templateSpans.every((span) => inert(span.expression));
  return false;
}

function inertProperty(p: ts.ObjectLiteralElementLike): boolean {
  if (p.name && ts.isComputedPropertyName(p.name) && !inert(p.name.expression)) return false;
  if (ts.isPropertyAssignment(p)) return inert(p.initializer);
  if (ts.isShorthandPropertyAssignment(p)) return !p.objectAssignmentInitializer;
  if (ts.isSpreadAssignment(p)) return inert(p.expression);
  return false; // a method or accessor: a function
}

function isAssignment(kind: ts.SyntaxKind): boolean {
  return kind >= ts.SyntaxKind.FirstAssignment && kind <= ts.SyntaxKind.LastAssignment;
}

/** The module of `require('x')` (or of `import x = require('x')`): the binding is an import, judged as one. */
function requiredSpecifier(node: ts.Node): string | undefined {
  if (ts.isImportEqualsDeclaration(node)) {
    const ref = node.moduleReference;
    return ts.isExternalModuleReference(ref) && ts.isStringLiteralLike(ref.expression) ? ref.expression.text : undefined;
  }
  const e = ts.isExpression(node) ? unwrap(node) : node;
  if (!ts.isCallExpression(e) || !ts.isIdentifier(e.expression) || e.expression.text !== 'require' || e.arguments.length !== 1) return undefined;
  const arg = e.arguments[0];
  return ts.isStringLiteralLike(arg) ? arg.text : undefined;
}

function parameterEdits(fn: ts.FunctionLikeDeclaration, decls: Declaration[], handlers: ReadonlySet<ts.Node>, index: IdentifierIndex, sf: ts.SourceFile): UnreadEdit[] {
  const edits: UnreadEdit[] = [];
  const params = fn.parameters;
  const unreadElements = new Map<ts.ParameterDeclaration, Set<ts.BindingElement>>();
  const wholly = new Set<ts.ParameterDeclaration>();
  for (const d of decls) {
    if (d.kind !== 'param') continue;
    if (!d.element) {
      wholly.add(d.param);
      continue;
    }
    const set = unreadElements.get(d.param) ?? new Set();
    set.add(d.element);
    unreadElements.set(d.param, set);
  }
  // a pattern whose every element the port made unread is the parameter itself
  for (const [param, elements] of unreadElements) {
    const pattern = param.name as ts.ObjectBindingPattern;
    if (pattern.elements.every((el) => elements.has(el))) {
      wholly.add(param);
      unreadElements.delete(param);
    }
  }
  const fresh = (base: string): string => freshName(fn, base);
  const removable = handlerFunction(fn, handlers, index, sf);
  let cut = params.length;
  if (removable) while (cut > 0 && wholly.has(params[cut - 1]) && !params[cut - 1].initializer && !isThisParameter(params[cut - 1])) cut--;
  if (cut < params.length) {
    const first = params[cut];
    const last = params[params.length - 1];
    const expect = { at: first.getStart(sf), kind: 'parameter' as const, name: first.name.getText(sf) };
    if (cut > 0) edits.push({ start: params[cut - 1].end, end: last.end, text: '', expect });
    else if (ts.isArrowFunction(fn) && !sf.text.slice(fn.getStart(sf), first.getStart(sf)).includes('(')) edits.push({ start: first.getStart(sf), end: last.end, text: '()', expect });
    else edits.push({ start: first.getStart(sf), end: last.end, text: '', expect });
  }
  for (let i = 0; i < cut; i++) {
    const param = params[i];
    if (wholly.has(param)) {
      const name = param.name;
      const base = ts.isIdentifier(name) ? `_${name.text}` : '_';
      edits.push({ start: name.getStart(sf), end: name.end, text: fresh(base), expect: { at: param.getStart(sf), kind: 'parameter', name: name.getText(sf) } });
      continue;
    }
    const elements = unreadElements.get(param);
    if (elements) edits.push(...listRemovals((param.name as ts.ObjectBindingPattern).elements, elements, sf, 'binding-element'));
  }
  return edits;
}

/** Removes `gone` from a comma-separated list, keeping the others and their layout. */
function listRemovals<T extends ts.BindingElement | ts.ImportSpecifier | ts.VariableDeclaration>(list: ts.NodeArray<T>, gone: ReadonlySet<ts.Node>, sf: ts.SourceFile, kind: UnreadNodeKind): UnreadEdit[] {
  const out: UnreadEdit[] = [];
  let tail = list.length;
  while (tail > 0 && gone.has(list[tail - 1])) tail--;
  const expectOf = (el: T) => ({ at: el.getStart(sf), kind, name: el.name.getText(sf) });
  for (let i = 0; i < tail; i++) if (gone.has(list[i])) out.push({ start: list[i].getStart(sf), end: list[i + 1].getStart(sf), text: '', expect: expectOf(list[i]) });
  if (tail < list.length && tail > 0) out.push({ start: list[tail - 1].end, end: list[list.length - 1].end, text: '', expect: expectOf(list[tail]) });
  return out;
}

function importEdits(decl: ts.ImportDeclaration, decls: Declaration[], sf: ts.SourceFile): UnreadEdit[] {
  const clause = decl.importClause!;
  const gone = new Set<ts.Node>(decls.map((d) => (d as Extract<Declaration, { kind: 'import' }>).binding));
  const named = clause.namedBindings;
  const specifiers = named && ts.isNamedImports(named) ? named.elements : undefined;
  const bindings: ts.Node[] = [...(clause.name ? [clause] : []), ...(named && ts.isNamespaceImport(named) ? [named] : []), ...(specifiers ?? [])];
  const spec = (decl.moduleSpecifier as ts.StringLiteral).text;
  // every binding goes: the declaration goes (never `import 'x'`)
  if (bindings.every((b) => gone.has(b))) return [statementRemoval(decl, sf, 'import', spec)];
  const out: UnreadEdit[] = [];
  const namedGone = named && (ts.isNamespaceImport(named) ? gone.has(named) : specifiers!.length > 0 && specifiers!.every((s) => gone.has(s)));
  if (clause.name && gone.has(clause)) {
    // `import D, { a } from` → `import { a } from`
    out.push({ start: clause.name.getStart(sf), end: named!.getStart(sf), text: '', expect: { at: clause.name.getStart(sf), kind: 'import-clause', name: clause.name.text } });
  } else if (clause.name && namedGone) {
    // `import D, { a } from` → `import D from`
    out.push({ start: clause.name.end, end: named!.end, text: '', expect: { at: clause.name.getStart(sf), kind: 'import-clause', name: clause.name.text } });
    return out;
  }
  if (specifiers && !namedGone) out.push(...listRemovals(specifiers, gone, sf, 'import-specifier'));
  return out;
}

/**
 * A whole statement, with its own line(s). The last import ends where the port's own import is added
 * (right after it): it goes with the line break before it instead of the one after it. A statement
 * sharing a line with other code goes alone.
 */
function statementRemoval(statement: ts.Statement | ts.ClassElement, sf: ts.SourceFile, kind: UnreadNodeKind, name: string): UnreadEdit {
  const text = sf.text;
  const start = statement.getStart(sf);
  const expect = { at: start, kind, name };
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const eol = lineEnd(text, statement.end);
  if (text.slice(lineStart, start).trim() !== '' || text.slice(statement.end, eol).trim() !== '') return { start, end: statement.end, text: '', expect };
  const lastImport = importAnchor(sf) === statement || requireAnchor(sf) === statement;
  if (lastImport && lineStart > 0) return { start: lineStart - (text.slice(lineStart - 2, lineStart) === '\r\n' ? 2 : 1), end: statement.end, text: '', expect };
  if (lastImport) return { start, end: statement.end, text: '', expect };
  const next = afterEol(text, eol);
  // between two blank lines: one of them goes too
  const nextEnd = lineEnd(text, next);
  const blankAfter = next < text.length && text.slice(next, nextEnd).trim() === '';
  const prevStart = lineStart > 0 ? text.lastIndexOf('\n', lineStart - 2) + 1 : -1;
  const blankBefore = prevStart >= 0 && text.slice(prevStart, lineStart).trim() === '';
  return { start: lineStart, end: blankAfter && blankBefore ? afterEol(text, nextEnd) : next, text: '', expect };
}

/** The last import: the port's own import is added right after it (transforms/imports.ts). */
function importAnchor(sf: ts.SourceFile): ts.Statement | undefined {
  return sf.statements.filter(ts.isImportDeclaration).at(-1);
}

/** The last top-level `const … = require('…')` of one declarator: a CommonJS file's runtime `require` goes after it. */
function requireAnchor(sf: ts.SourceFile): ts.Statement | undefined {
  return sf.statements.filter((st) => ts.isVariableStatement(st) && st.declarationList.declarations.length === 1 && requiredSpecifier(st.declarationList.declarations[0].initializer ?? st) !== undefined).at(-1);
}

/** The start of the line after the line break at `eol`. */
function afterEol(text: string, eol: number): number {
  return eol + (text.startsWith('\r\n', eol) ? 2 : eol < text.length ? 1 : 0);
}

function lineEnd(text: string, at: number): number {
  let i = at;
  while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
  return i;
}

function exported(statement: ts.Statement): boolean {
  return ts.canHaveModifiers(statement) && (ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false);
}

function isThisParameter(p: ts.ParameterDeclaration): boolean {
  return ts.isIdentifier(p.name) && p.name.text === 'this';
}

/**
 * A function whose trailing parameters may go: the registered handler itself (inline in the
 * registration), or a function of this file, not exported, whose every use is that argument.
 */
function handlerFunction(fn: ts.FunctionLikeDeclaration, handlers: ReadonlySet<ts.Node>, index: IdentifierIndex, sf: ts.SourceFile): boolean {
  if (handlers.has(fn)) return true;
  let name: ts.Identifier | undefined;
  let statement: ts.Statement | undefined;
  if (ts.isFunctionDeclaration(fn) && fn.name) {
    name = fn.name;
    statement = fn;
  } else {
    const decl = fn.parent;
    if (decl && ts.isVariableDeclaration(decl) && decl.initializer && unwrap(decl.initializer) === fn && ts.isIdentifier(decl.name) && decl.parent.flags & ts.NodeFlags.Const) {
      name = decl.name;
      statement = decl.parent.parent as ts.Statement;
    }
  }
  if (!name || !statement || !ts.isSourceFile(statement.parent) || exported(statement)) return false;
  const uses = index.occurrences(name.text, sf).filter((o) => o !== name);
  return uses.length > 0 && uses.every((u) => handlers.has(u));
}

/**
 * The declaration a dropped identifier reads: a parameter of a function around it, or an import,
 * type alias or interface of the file; only when no other declaration of the name is in that scope.
 */
function resolve(id: ts.Identifier, sf: ts.SourceFile, index: IdentifierIndex): Declaration | undefined {
  const name = id.text;
  for (let n: ts.Node | undefined = id.parent; n; n = n.parent) {
    if (isFunctionLike(n) && n.body) {
      const fn = n as ts.FunctionLikeDeclaration;
      const param = fn.parameters.find((p) => bindingNames(p.name).includes(name));
      const others = index.declarations(name, fn).filter((d) => !param || !(d.pos >= param.pos && d.end <= param.end));
      if (param) {
        if (others.length > 0 || param.dotDotDotToken || ts.getCombinedModifierFlags(param) & ts.ModifierFlags.ParameterPropertyModifier || isSetter(fn)) return undefined;
        if (ts.isIdentifier(param.name)) return { kind: 'param', fn, param };
        const pattern = param.name;
        if (!ts.isObjectBindingPattern(pattern) || pattern.elements.some((el) => el.dotDotDotToken || !ts.isIdentifier(el.name) || el.initializer)) return undefined;
        const element = pattern.elements.find((el) => (el.name as ts.Identifier).text === name)!;
        return { kind: 'param', fn, param, element };
      }
      // a local of this function: judged only when it is the one declaration of the name in it
      if (others.length > 0) return others.length === 1 ? localDeclaration(others[0], id, sf) : undefined;
    }
  }
  const decls = index.declarations(name, sf);
  if (decls.length !== 1) return undefined;
  const d = decls[0].parent;
  if (ts.isVariableDeclaration(d) || ts.isBindingElement(d)) return moduleFile(sf) ? localDeclaration(decls[0], id, sf) : undefined;
  if (ts.isImportEqualsDeclaration(d) && ts.isSourceFile(d.parent) && !exported(d) && requiredSpecifier(d) !== undefined) return { kind: 'import-equals', statement: d };
  const importOf = (decl: ts.Node): ts.ImportDeclaration | undefined => (ts.isImportDeclaration(decl) ? decl : undefined);
  const imported = ts.isImportSpecifier(d) ? importOf(d.parent.parent.parent) : ts.isImportClause(d) ? importOf(d.parent) : ts.isNamespaceImport(d) ? importOf(d.parent.parent) : undefined;
  if (imported && (ts.isImportSpecifier(d) || ts.isImportClause(d) || ts.isNamespaceImport(d))) return { kind: 'import', decl: imported, binding: d };
  if ((ts.isTypeAliasDeclaration(d) || ts.isInterfaceDeclaration(d)) && ts.isSourceFile(d.parent)) return { kind: 'type', statement: d };
  return undefined;
}

/**
 * `name` as a local the port may remove: a declarator of a `const`/`let`/`var` statement (not exported,
 * not `declare`, not `using`), or an element of its object pattern (each element a plain name, no
 * default, no rest, no computed key), whose scope holds `use`.
 */
function localDeclaration(name: ts.Identifier, use: ts.Identifier, sf: ts.SourceFile): Declaration | undefined {
  const p = name.parent;
  let declaration: ts.VariableDeclaration;
  let element: ts.BindingElement | undefined;
  if (ts.isVariableDeclaration(p) && p.name === name) declaration = p;
  else if (ts.isBindingElement(p) && p.name === name && ts.isObjectBindingPattern(p.parent) && ts.isVariableDeclaration(p.parent.parent)) {
    element = p;
    declaration = p.parent.parent;
    const plain = (el: ts.BindingElement): boolean => !el.dotDotDotToken && !el.initializer && ts.isIdentifier(el.name) && (!el.propertyName || !ts.isComputedPropertyName(el.propertyName));
    if (!p.parent.elements.every(plain)) return undefined;
  } else return undefined;
  const list = declaration.parent;
  if (!ts.isVariableDeclarationList(list) || !ts.isVariableStatement(list.parent)) return undefined;
  const statement = list.parent;
  if (exported(statement) || ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.DeclareKeyword)) return undefined;
  const scoped = list.flags & ts.NodeFlags.BlockScoped;
  if (scoped !== 0 && scoped !== ts.NodeFlags.Let && scoped !== ts.NodeFlags.Const) return undefined; // `using`: disposal is an effect
  const scope = scoped === 0 ? functionOrFile(statement) : ts.isCaseOrDefaultClause(statement.parent) ? statement.parent.parent : statement.parent;
  if (use.getStart(sf) < scope.pos || use.end > scope.end) return undefined;
  return { kind: 'local', statement, declaration, element, scope };
}

/** The scope of a `var`: the function around it, or the file. */
function functionOrFile(node: ts.Node): ts.Node {
  let n = node.parent;
  while (n && !ts.isSourceFile(n) && !(isFunctionLike(n) && (n as ts.FunctionLikeDeclaration).body) && !ts.isClassStaticBlockDeclaration(n)) n = n.parent;
  return n;
}

/**
 * A module (ESM or CommonJS), whose top-level names no other file can read: a script's top-level
 * declarations are globals.
 */
function moduleFile(sf: ts.SourceFile): boolean {
  if (ts.isExternalModule(sf) || /\.[cm][jt]s$/.test(sf.fileName)) return true;
  return /\brequire\s*\(|\bmodule\.exports\b|\bexports\.\w/.test(sf.text);
}

function isSetter(fn: ts.FunctionLikeDeclaration): boolean {
  return ts.isSetAccessor(fn);
}

/** `this.x` (the `x`) where `x` is a `private` member of the enclosing class: the member. */
function privateMemberOf(id: ts.Identifier): { node: ts.Node; name: string; nameNode: ts.Identifier } | undefined {
  const access = id.parent;
  if (!access || !ts.isPropertyAccessExpression(access) || access.name !== id || access.expression.kind !== ts.SyntaxKind.ThisKeyword) return undefined;
  let cls: ts.Node | undefined = access.parent;
  while (cls && !ts.isClassLike(cls)) cls = cls.parent;
  if (!cls || !ts.isClassLike(cls)) return undefined;
  for (const m of cls.members) {
    if (ts.isPropertyDeclaration(m) && ts.isIdentifier(m.name) && m.name.text === id.text && hasPrivate(m)) return { node: m, name: id.text, nameNode: m.name };
    if (ts.isConstructorDeclaration(m)) {
      for (const p of m.parameters) if (ts.isIdentifier(p.name) && p.name.text === id.text && hasPrivate(p)) return { node: p, name: id.text, nameNode: p.name };
    }
  }
  return undefined;
}

/** A `#name` field and the class that declares it: the innermost class around `name` declaring that name (as the language resolves it). */
interface PrivateField {
  member: ts.PropertyDeclaration;
  cls: ts.ClassLikeDeclaration;
}

/**
 * The field a `#name` in the dropped text reads; not judged: a method or accessor of that name, a
 * decorated or `accessor` field, or a class holding another class that declares the name again.
 */
function privateFieldOf(name: ts.PrivateIdentifier, index: IdentifierIndex): PrivateField | undefined {
  for (let n: ts.Node | undefined = name.parent; n; n = n.parent) {
    if (!ts.isClassLike(n)) continue;
    const declared = n.members.find((m) => m.name && ts.isPrivateIdentifier(m.name) && m.name.text === name.text);
    if (!declared) continue;
    if (!ts.isPropertyDeclaration(declared) || ts.getDecorators(declared)?.length || ts.getModifiers(declared)?.some((m) => m.kind === ts.SyntaxKind.AccessorKeyword)) return undefined;
    const redeclared = index.privateNames(name.text, n).some((o) => o !== declared.name && o.parent && (ts.isClassElement(o.parent) || ts.isPropertySignature(o.parent)) && o.parent.name === o);
    return redeclared ? undefined : { member: declared, cls: n };
  }
  return undefined;
}

/**
 * Read nowhere but in dropped text: every other `#name` of the class is its declaration or a write,
 * `this.#name = value;`. Nothing outside the class can read a `#name` (not a cast, an index, a
 * subclass or a serializer), so the class's text decides.
 */
function unreadPrivateField(field: PrivateField, index: IdentifierIndex, inDrop: (n: ts.Node) => boolean): boolean {
  return index.privateNames(field.member.name.getText(), field.cls).every((o) => o === field.member.name || inDrop(o) || privateWrite(o) !== undefined);
}

/**
 * The writes of an unread `#private` field when it and they can go with no effect lost: its initializer
 * and every written value have none (a name, `this`, a literal, a property read of one), and each write
 * is a statement of a block (removing it leaves no `if (x)` without a body). Undefined otherwise.
 */
function removablePrivateField(field: PrivateField, index: IdentifierIndex, inDrop: (n: ts.Node) => boolean): ts.ExpressionStatement[] | undefined {
  if (field.member.initializer && !inert(field.member.initializer)) return undefined;
  const writes: ts.ExpressionStatement[] = [];
  for (const o of index.privateNames(field.member.name.getText(), field.cls)) {
    if (o === field.member.name || inDrop(o)) continue;
    const write = privateWrite(o)!;
    if (!ts.isBlock(write.parent) || !inert((write.expression as ts.BinaryExpression).right)) return undefined;
    writes.push(write);
  }
  return writes;
}

/** The field's declaration and its writes, each with its own line. */
function privateFieldEdits(member: ts.PropertyDeclaration, writes: readonly ts.ExpressionStatement[], sf: ts.SourceFile): UnreadEdit[] {
  const name = member.name.getText(sf);
  const removal = statementRemoval(member, sf, 'member', name);
  return [
    { ...removal, expect: { at: member.getStart(sf), kind: 'member', name } },
    ...writes.map((w) => {
      const access = (w.expression as ts.BinaryExpression).left as ts.PropertyAccessExpression;
      return { ...statementRemoval(w, sf, 'member', name), expect: { at: access.name.getStart(sf), kind: 'member' as const, name } };
    }),
  ];
}

/** `this.#name = value;` as a statement of its own (the name is written, not read): the statement. */
function privateWrite(name: ts.PrivateIdentifier): ts.ExpressionStatement | undefined {
  const access = name.parent;
  if (!access || !ts.isPropertyAccessExpression(access) || access.name !== name || access.expression.kind !== ts.SyntaxKind.ThisKeyword) return undefined;
  const assign = access.parent;
  if (!assign || !ts.isBinaryExpression(assign) || assign.left !== access || assign.operatorToken.kind !== ts.SyntaxKind.EqualsToken) return undefined;
  return assign.parent && ts.isExpressionStatement(assign.parent) ? assign.parent : undefined;
}

function hasPrivate(node: ts.Node): boolean {
  return (ts.getCombinedModifierFlags(node as ts.Declaration) & ts.ModifierFlags.Private) !== 0;
}

/** Every identifier of the file, by text, with what each is. */
class IdentifierIndex {
  readonly all: ts.Identifier[] = [];
  private readonly byText = new Map<string, ts.Identifier[]>();
  /** Every `#name` of the file, in source order, and by text. */
  private readonly privates: ts.PrivateIdentifier[] = [];
  private readonly privatesByText = new Map<string, ts.PrivateIdentifier[]>();

  constructor(sf: ts.SourceFile) {
    const visit = (n: ts.Node): void => {
      if (ts.isIdentifier(n)) {
        this.all.push(n);
        const list = this.byText.get(n.text);
        if (list) list.push(n);
        else this.byText.set(n.text, [n]);
      } else if (ts.isPrivateIdentifier(n)) {
        this.privates.push(n);
        this.privatesByText.set(n.text, [...(this.privatesByText.get(n.text) ?? []), n]);
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }

  /** `#name`s inside the spans (sorted, disjoint). */
  privateNamesWithin(spans: readonly Span[], sf: ts.SourceFile): ts.PrivateIdentifier[] {
    return nodesWithin(this.privates, spans, sf);
  }

  /** Every `#text` inside `scope`. */
  privateNames(text: string, scope: ts.Node): ts.PrivateIdentifier[] {
    return inRange(this.privatesByText.get(text) ?? [], scope);
  }

  private strings: Set<string> | undefined;

  /** Identifiers inside the spans (sorted, disjoint), in source order. */
  within(spans: readonly Span[], sf: ts.SourceFile): ts.Identifier[] {
    return nodesWithin(this.all, spans, sf);
  }

  /** Identifiers named `text` inside `scope` that refer to a binding (references and declaration names; not property names). */
  occurrences(text: string, scope: ts.Node): ts.Identifier[] {
    return inRange(this.byText.get(text) ?? [], scope).filter((id) => this.isReference(id));
  }

  /** Any string literal holding the name (`this['server']`, a key list): a read the file may make. */
  hasStringKey(sf: ts.SourceFile, name: string): boolean {
    if (!this.strings) {
      const strings = new Set<string>();
      const visit = (n: ts.Node): void => {
        if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) strings.add(n.text);
        ts.forEachChild(n, visit);
      };
      visit(sf);
      this.strings = strings;
    }
    return this.strings.has(name);
  }

  /** Where a member named `text` may be read: `x.text` (but `x.text = v`, a write), `{ text } = x`, `{ text: y } = x`. */
  memberReads(text: string): ts.Identifier[] {
    return (this.byText.get(text) ?? []).filter((id) => {
      const p = id.parent;
      if (!p) return false;
      if (ts.isPropertyAccessExpression(p) && p.name === id) {
        const outer = p.parent;
        return !(outer && ts.isBinaryExpression(outer) && outer.left === p && outer.operatorToken.kind === ts.SyntaxKind.EqualsToken);
      }
      return ts.isBindingElement(p) && (p.propertyName === id || (!p.propertyName && p.name === id));
    });
  }

  private readonly fileDeclarations = new Map<string, ts.Identifier[]>();

  /** Declaration names of `text` inside `scope`. */
  declarations(text: string, scope: ts.Node): ts.Identifier[] {
    if (!ts.isSourceFile(scope)) return inRange(this.byText.get(text) ?? [], scope).filter((id) => this.isName(id));
    let all = this.fileDeclarations.get(text);
    if (!all) this.fileDeclarations.set(text, (all = (this.byText.get(text) ?? []).filter((id) => this.isName(id))));
    return all;
  }

  /** The name a declaration binds. */
  isName(id: ts.Identifier): boolean {
    const p = id.parent;
    if (!p) return false;
    if (ts.isImportSpecifier(p)) return p.name === id;
    return (
      (ts.isVariableDeclaration(p) ||
        ts.isParameter(p) ||
        ts.isBindingElement(p) ||
        ts.isFunctionDeclaration(p) ||
        ts.isFunctionExpression(p) ||
        ts.isClassDeclaration(p) ||
        ts.isClassExpression(p) ||
        ts.isTypeAliasDeclaration(p) ||
        ts.isInterfaceDeclaration(p) ||
        ts.isEnumDeclaration(p) ||
        ts.isModuleDeclaration(p) ||
        ts.isImportClause(p) ||
        ts.isNamespaceImport(p) ||
        ts.isImportEqualsDeclaration(p) ||
        ts.isTypeParameterDeclaration(p)) &&
      (p as { name?: ts.Node }).name === id
    );
  }

  /** Not a property name: after a dot, a key, a member name, the remote name of an import. */
  isReference(id: ts.Identifier): boolean {
    const p = id.parent;
    if (!p) return true;
    if (ts.isPropertyAccessExpression(p)) return p.expression === id;
    if (ts.isQualifiedName(p)) return p.left === id;
    if (ts.isImportSpecifier(p)) return p.name === id;
    if (ts.isBindingElement(p)) return p.name === id;
    if (ts.isPropertyAssignment(p) || ts.isMethodDeclaration(p) || ts.isPropertyDeclaration(p) || ts.isPropertySignature(p) || ts.isMethodSignature(p) || ts.isGetAccessor(p) || ts.isSetAccessor(p) || ts.isEnumMember(p)) {
      return p.name !== id;
    }
    if (ts.isJsxAttribute(p) || ts.isLabeledStatement(p) || ts.isBreakOrContinueStatement(p) || ts.isMetaProperty(p)) return false;
    return true;
  }
}

/** The first index of `list` (sorted by position) whose node starts at or after `pos`. */
/** The nodes of `list` (sorted by position) that stand inside one of the spans (sorted, disjoint), in order. */
function nodesWithin<T extends ts.Node>(list: readonly T[], spans: readonly Span[], sf: ts.SourceFile): T[] {
  const out: T[] = [];
  for (const s of spans) for (let i = lowerBound(list, s.start); i < list.length && list[i].pos < s.end; i++) {
    const node = list[i];
    if (node.getStart(sf) >= s.start && node.end <= s.end) out.push(node);
  }
  return out;
}

function lowerBound(list: readonly ts.Node[], pos: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].end <= pos) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The nodes of `list` (sorted by position) inside `scope`. */
function inRange<T extends ts.Node>(list: readonly T[], scope: ts.Node): T[] {
  const out: T[] = [];
  for (let i = lowerBound(list, scope.pos); i < list.length && list[i].end <= scope.end; i++) if (list[i].pos >= scope.pos) out.push(list[i]);
  return out;
}
