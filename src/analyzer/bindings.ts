/**
 * Lexical binding resolution without a type checker: which declaration an identifier refers to at a
 * given place (a parameter, a variable or destructured element, a function, class or import), by
 * walking the scopes that enclose it. Enough to follow values through a file; other files are
 * reached through the import the binding names.
 */
import ts from '../typescript.cjs';

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

/** What kind of scope a node opens, by its kind (built on first use: at import it would load the compiler). */
type ScopeKind = 'function' | 'statements' | 'loop' | 'catch';
let scopeKinds: ReadonlyMap<ts.SyntaxKind, ScopeKind> | undefined;
const scopeKindOf = (node: ts.Node): ScopeKind | undefined =>
  (scopeKinds ??= new Map<ts.SyntaxKind, ScopeKind>([
    [ts.SyntaxKind.FunctionDeclaration, 'function'],
    [ts.SyntaxKind.FunctionExpression, 'function'],
    [ts.SyntaxKind.ArrowFunction, 'function'],
    [ts.SyntaxKind.MethodDeclaration, 'function'],
    [ts.SyntaxKind.GetAccessor, 'function'],
    [ts.SyntaxKind.SetAccessor, 'function'],
    [ts.SyntaxKind.Constructor, 'function'],
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
  switch (scopeKindOf(scope)) {
    case undefined:
      return undefined;
    case 'function': {
      const fn = scope as ts.FunctionLikeDeclaration;
      for (const p of fn.parameters) {
        const hit = inBindingName(p, p.name, name);
        if (hit) return hit;
      }
      if ((ts.isFunctionExpression(fn) || ts.isFunctionDeclaration(fn)) && fn.name?.text === name && child !== fn.name) {
        return ts.isFunctionDeclaration(fn) ? fn : undefined;
      }
      return undefined;
    }
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
      for (const d of st.declarationList.declarations) addBindingNames(d, d.name, add);
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

/** Each name a binding name declares, in the order `inBindingName` looks at them. */
function addBindingNames(decl: ts.VariableDeclaration, bindingName: ts.BindingName, add: (name: string, binding: Binding) => void): void {
  if (ts.isIdentifier(bindingName)) {
    add(bindingName.text, decl);
    return;
  }
  for (const el of bindingName.elements) {
    if (ts.isOmittedExpression(el)) continue;
    if (ts.isIdentifier(el.name)) add(el.name.text, el);
    else addBindingNames(decl, el.name, add);
  }
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
  if (ts.isIdentifier(bindingName)) return bindingName.text === name ? decl : undefined;
  for (const el of bindingName.elements) {
    if (ts.isOmittedExpression(el)) continue;
    if (ts.isIdentifier(el.name)) {
      if (el.name.text === name) return el;
    } else {
      const hit = inBindingName(decl, el.name, name);
      if (hit) return hit;
    }
  }
  return undefined;
}
