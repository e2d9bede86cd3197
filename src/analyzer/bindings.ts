/**
 * Lexical binding resolution without a type checker: which declaration an identifier refers to at a
 * given place (a parameter, a variable or destructured element, a function, class or import), by
 * walking the scopes that enclose it. Enough to follow values through a file; other files are
 * reached through the import the binding names.
 */
import ts from '../typescript.cjs';
import { isFunctionLike } from './ast.js';

export type Binding =
  | ts.VariableDeclaration
  | ts.BindingElement
  | ts.ParameterDeclaration
  | ts.FunctionDeclaration
  | ts.ClassDeclaration
  | ts.ImportSpecifier
  | ts.ImportClause
  | ts.NamespaceImport
  | ts.EnumDeclaration;

/** The declaration `name` refers to where `from` is written; undefined for globals and unknown names. */
export function resolveBinding(from: ts.Node, name: string): Binding | undefined {
  for (let n: ts.Node | undefined = from.parent, child: ts.Node = from; n; child = n, n = n.parent) {
    const found = declaredIn(n, name, child);
    if (found) return found;
  }
  return undefined;
}

/** The other scopes a node opens, by its kind (built on first use: at import it would load the compiler). */
type ScopeKind = 'statements' | 'loop' | 'catch';
let scopeKinds: ReadonlyMap<ts.SyntaxKind, ScopeKind> | undefined;
const scopeKindOf = (node: ts.Node): ScopeKind | undefined =>
  (scopeKinds ??= new Map<ts.SyntaxKind, ScopeKind>([
    [ts.SyntaxKind.Block, 'statements'],
    [ts.SyntaxKind.SourceFile, 'statements'],
    [ts.SyntaxKind.ModuleBlock, 'statements'],
    [ts.SyntaxKind.CaseClause, 'statements'],
    [ts.SyntaxKind.DefaultClause, 'statements'],
    [ts.SyntaxKind.ForStatement, 'loop'],
    [ts.SyntaxKind.ForOfStatement, 'loop'],
    [ts.SyntaxKind.ForInStatement, 'loop'],
    [ts.SyntaxKind.CatchClause, 'catch'],
  ])).get(node.kind);

// every ancestor of every name resolved is asked: one lookup by kind, then only scopes look further
function declaredIn(scope: ts.Node, name: string, child: ts.Node): Binding | undefined {
  if (isFunctionLike(scope)) {
    for (const p of scope.parameters) {
      const hit = inBindingName(p, p.name, name);
      if (hit) return hit;
    }
    if ((ts.isFunctionExpression(scope) || ts.isFunctionDeclaration(scope)) && scope.name?.text === name && child !== scope.name) {
      return ts.isFunctionDeclaration(scope) ? scope : undefined;
    }
    return undefined;
  }
  switch (scopeKindOf(scope)) {
    case undefined:
      return undefined;
    case 'statements':
      return statementNames(scope as StatementScope).get(name);
    case 'loop': {
      const init = (scope as ts.ForStatement | ts.ForOfStatement | ts.ForInStatement).initializer;
      return init && ts.isVariableDeclarationList(init) ? inDeclarationList(init, name) : undefined;
    }
    case 'catch': {
      const decl = (scope as ts.CatchClause).variableDeclaration;
      return decl ? inBindingName(decl, decl.name, name) : undefined;
    }
  }
}

type StatementScope = ts.Block | ts.SourceFile | ts.ModuleBlock | ts.CaseClause | ts.DefaultClause;

/**
 * Every name a statement list declares, with the first declaration of each (what a scan of the list in
 * order finds first). Built once per scope: a name is resolved by walking out through every scope, and
 * the file's own statements are asked about each global and imported name (trees do not change while
 * they are analyzed).
 */
const declaredNames = new WeakMap<StatementScope, Map<string, Binding>>();

function statementNames(scope: StatementScope): Map<string, Binding> {
  let names = declaredNames.get(scope);
  if (names) return names;
  names = new Map();
  const add = (name: string, binding: Binding): void => {
    if (!names!.has(name)) names!.set(name, binding);
  };
  for (const st of scope.statements) {
    if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) findBinding(d, d.name, (n, binding) => void add(n, binding));
    } else if (ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st) || ts.isEnumDeclaration(st)) {
      if (st.name) add(st.name.text, st);
    } else if (ts.isImportDeclaration(st) && st.importClause) {
      const clause = st.importClause;
      if (clause.name) add(clause.name.text, clause);
      const nb = clause.namedBindings;
      if (nb && ts.isNamespaceImport(nb)) add(nb.name.text, nb);
      else if (nb && ts.isNamedImports(nb)) for (const el of nb.elements) add(el.name.text, el);
    }
  }
  declaredNames.set(scope, names);
  return names;
}

function inDeclarationList(list: ts.VariableDeclarationList, name: string): Binding | undefined {
  for (const d of list.declarations) {
    const hit = inBindingName(d, d.name, name);
    if (hit) return hit;
  }
  return undefined;
}

/** The declaration (or destructured element) that binds `name` within a binding name. */
function inBindingName(decl: ts.VariableDeclaration | ts.ParameterDeclaration, bindingName: ts.BindingName, name: string): Binding | undefined {
  return findBinding(decl, bindingName, (n) => n === name);
}

/**
 * Each name a binding name declares with what binds it (`decl` for a plain name, the element in a
 * pattern), in source order, until `stop` says so: that binding, or undefined.
 */
function findBinding(
  decl: ts.VariableDeclaration | ts.ParameterDeclaration,
  bindingName: ts.BindingName,
  stop: (name: string, binding: Binding) => boolean | void,
): Binding | undefined {
  if (ts.isIdentifier(bindingName)) return stop(bindingName.text, decl) ? decl : undefined;
  for (const el of bindingName.elements) {
    if (ts.isOmittedExpression(el)) continue;
    const hit = ts.isIdentifier(el.name) ? (stop(el.name.text, el) ? el : undefined) : findBinding(decl, el.name, stop);
    if (hit) return hit;
  }
  return undefined;
}
