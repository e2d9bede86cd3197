/**
 * Which function of the repository a call invokes, when syntax can tell: a function declaration or a
 * const-bound function in scope, one imported from another analyzed file, or a method of the class
 * the call is made in (`this.helper(…)`).
 */
import ts from '../typescript.cjs';
import { enclosingFunction, owningClass, propertyNameText, unwrap } from './ast.js';
import { resolveBinding, type Binding } from './bindings.js';
import type { FileIndex } from './file-index.js';
import type { Project } from './project.js';

export interface FunctionAt {
  fn: ts.FunctionLikeDeclaration;
  file: FileIndex;
}

export function calledFunction(callee: ts.Expression, file: FileIndex, project: Project): FunctionAt | undefined {
  const c = unwrap(callee);
  if (ts.isIdentifier(c)) {
    const bound = declarationOf(c, file, project);
    const fn = bound ? functionOf(bound.decl) : undefined;
    return fn ? { fn, file: bound!.file } : undefined;
  }
  if (ts.isPropertyAccessExpression(c) && c.expression.kind === ts.SyntaxKind.ThisKeyword) {
    let scope = enclosingFunction(c);
    while (scope && ts.isArrowFunction(scope)) scope = enclosingFunction(scope);
    const cls = scope ? owningClass(scope) : undefined;
    const m = cls?.members.find((x) => ts.isMethodDeclaration(x) && propertyNameText(x.name) === c.name.text) as ts.MethodDeclaration | undefined;
    return m?.body ? { fn: m, file } : undefined;
  }
  return undefined;
}

/**
 * The method `obj.name(…)` invokes when `obj` is a const (in scope, or a top-level one imported) made
 * by `new C(…)` of a class declared in an analyzed file: `C`'s method `name`, when it has a body.
 */
export function instanceMethodFunction(callee: ts.Expression, file: FileIndex, project: Project): FunctionAt | undefined {
  const c = unwrap(callee);
  if (!ts.isPropertyAccessExpression(c)) return undefined;
  const recv = unwrap(c.expression);
  if (!ts.isIdentifier(recv)) return undefined;
  const bound = declarationOf(recv, file, project);
  const decl = bound?.decl;
  if (!decl || !ts.isVariableDeclaration(decl) || !decl.initializer || !(decl.parent.flags & ts.NodeFlags.Const)) return undefined;
  const made = unwrap(decl.initializer);
  if (!ts.isNewExpression(made)) return undefined;
  const ctor = unwrap(made.expression);
  if (!ts.isIdentifier(ctor)) return undefined;
  const cls = declarationOf(ctor, bound.file, project);
  if (!cls || !ts.isClassDeclaration(cls.decl)) return undefined;
  const m = cls.decl.members.find((x) => ts.isMethodDeclaration(x) && propertyNameText(x.name) === c.name.text) as ts.MethodDeclaration | undefined;
  return m?.body ? { fn: m, file: cls.file } : undefined;
}

/**
 * The function `obj.name(…)` invokes when `obj` is a module's object of functions (`export const
 * sessions = { serverFor, open }`, here or imported, through re-exports and renames): the member's
 * method, function expression, or the function a (shorthand) property names. Not followed into
 * `calledFunction`: the routes judge a helper's callers by `calledFunction`'s narrower answer.
 */
export function objectMemberFunction(callee: ts.Expression, file: FileIndex, project: Project): FunctionAt | undefined {
  const c = unwrap(callee);
  if (!ts.isPropertyAccessExpression(c)) return undefined;
  const holder = objectLiteralBound(unwrap(c.expression), file, project);
  if (!holder) return undefined;
  for (const p of holder.literal.properties) {
    if (ts.isSpreadAssignment(p) || propertyNameText(p.name) !== c.name.text) continue;
    if (ts.isMethodDeclaration(p)) return p.body ? { fn: p, file: holder.file } : undefined;
    if (ts.isShorthandPropertyAssignment(p)) return calledFunction(p.name, holder.file, project);
    if (ts.isPropertyAssignment(p)) {
      const value = unwrap(p.initializer);
      if (ts.isArrowFunction(value) || ts.isFunctionExpression(value)) return { fn: value, file: holder.file };
      return ts.isIdentifier(value) ? calledFunction(value, holder.file, project) : undefined;
    }
    return undefined;
  }
  return undefined;
}

/** The object literal a `const` in scope (or a top-level one imported) is initialised with. */
function objectLiteralBound(e: ts.Expression, file: FileIndex, project: Project): { literal: ts.ObjectLiteralExpression; file: FileIndex } | undefined {
  if (!ts.isIdentifier(e)) return undefined;
  const bound = declarationOf(e, file, project);
  const decl = bound?.decl;
  if (!decl || !ts.isVariableDeclaration(decl) || !decl.initializer || !(decl.parent.flags & ts.NodeFlags.Const)) return undefined;
  const init = unwrap(decl.initializer);
  return ts.isObjectLiteralExpression(init) ? { literal: init, file: bound.file } : undefined;
}

/** What a name is bound to: its declaration in scope, or for an import the top-level declaration it lands on in an analyzed file. */
function declarationOf(id: ts.Identifier, file: FileIndex, project: Project): { decl: Binding; file: FileIndex } | undefined {
  const b = resolveBinding(id, id.text);
  if (!b) return undefined;
  if (!ts.isImportSpecifier(b) && !ts.isImportClause(b)) return { decl: b, file };
  const spec = ts.isImportSpecifier(b) ? b.parent.parent.parent.moduleSpecifier : b.parent.moduleSpecifier;
  if (!ts.isStringLiteral(spec)) return undefined;
  const target = project.resolveImport(file, spec.text, ts.isImportSpecifier(b) ? (b.propertyName ?? b.name).text : 'default');
  if (!target || 'namespace' in target) return undefined;
  const there = topLevelDeclaration(target.file.sf, target.local);
  return there ? { decl: there, file: target.file } : undefined;
}

/** The function a declaration binds: `function f`, `const f = () => …` / `function () {}`. */
function functionOf(b: Binding): ts.FunctionLikeDeclaration | undefined {
  if (ts.isFunctionDeclaration(b)) return b.body ? b : implementationOf(b);
  if (ts.isVariableDeclaration(b) && b.initializer) {
    const init = unwrap(b.initializer);
    if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) return init;
  }
  return undefined;
}

/** An overload signature (`function f(a: string): T;`) stands for the declaration of `f` with the body. */
function implementationOf(signature: ts.FunctionDeclaration): ts.FunctionDeclaration | undefined {
  const name = signature.name?.text;
  const holder = signature.parent;
  if (!name || !(ts.isSourceFile(holder) || ts.isBlock(holder) || ts.isModuleBlock(holder))) return undefined;
  return holder.statements.find((st): st is ts.FunctionDeclaration => ts.isFunctionDeclaration(st) && st.body !== undefined && st.name?.text === name);
}

/** A top-level variable, function or class of a file, by name. */
export function topLevelDeclaration(sf: ts.SourceFile, name: string): Binding | undefined {
  for (const st of sf.statements) {
    if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name) && d.name.text === name) return d;
    } else if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st)) && st.name?.text === name) {
      return st;
    }
  }
  return undefined;
}
