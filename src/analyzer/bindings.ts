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
  if (ts.isBlock(scope) || ts.isSourceFile(scope) || ts.isModuleBlock(scope) || ts.isCaseClause(scope) || ts.isDefaultClause(scope)) {
    return inStatements(scope.statements, name);
  }
  if ((ts.isForStatement(scope) || ts.isForOfStatement(scope) || ts.isForInStatement(scope)) && scope.initializer && ts.isVariableDeclarationList(scope.initializer)) {
    return inDeclarationList(scope.initializer, name);
  }
  if (ts.isCatchClause(scope) && scope.variableDeclaration) {
    return inBindingName(scope.variableDeclaration, scope.variableDeclaration.name, name);
  }
  return undefined;
}

function inStatements(statements: readonly ts.Statement[], name: string): Binding | undefined {
  for (const st of statements) {
    if (ts.isVariableStatement(st)) {
      const hit = inDeclarationList(st.declarationList, name);
      if (hit) return hit;
    } else if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st) || ts.isEnumDeclaration(st)) && st.name?.text === name) {
      return st;
    } else if (ts.isImportDeclaration(st) && st.importClause) {
      const clause = st.importClause;
      if (clause.name?.text === name) return clause;
      const nb = clause.namedBindings;
      if (nb && ts.isNamespaceImport(nb) && nb.name.text === name) return nb;
      if (nb && ts.isNamedImports(nb)) {
        const el = nb.elements.find((e) => e.name.text === name);
        if (el) return el;
      }
    }
  }
  return undefined;
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
