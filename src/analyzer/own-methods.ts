/**
 * Is a call's receiver the repository's own object, declaring the called method itself? Shown by syntax
 * only: the receiver's value is an object literal, or an instance or the class of a class that declares
 * the method and extends nothing, written in this file or in a module of the analyzed set it imports
 * (through const bindings, `this.x` fields and every value the class assigns them, imports and re-exports,
 * CommonJS `require` of `module.exports` / `exports.x`, and the returns of the repository's own factory
 * functions). Anything else (a parameter, a package's export, a class that extends something) is not shown.
 *
 * Two readers: the v1 migration keeps the codemod off such calls (`log.tool(…)` on a server's own logger:
 * src/port/v1-foreign-receivers.ts), and detection does not take them for asks (`rm.elicitInput(server, p)`
 * on a RequestManager the repository writes: the ask is inside that method).
 */
import type * as TS from 'typescript';
import ts from '../typescript.cjs';
import { owningClass, propertyNameText, unwrap } from './ast.js';
import { resolveBinding, type Binding } from './bindings.js';
import type { FileIndex } from './file-index.js';
import { calledFunction, topLevelDeclaration } from './functions.js';
import type { Project } from './project.js';

const MAX_DEPTH = 8;

/** Does `receiver`'s value (in `file`) declare `method` itself? A fresh judgement per call (its own cycle guard). */
export function ownsMethodBySyntax(project: Project, receiver: TS.Expression, method: string, file: FileIndex): boolean {
  return new Judge(project).ownMethod(receiver, method, file, 0);
}

/** Follows a receiver to the value it holds; true only when that value is shown to declare `method` itself. */
class Judge {
  private readonly seen = new Set<TS.Node>();

  constructor(private readonly project: Project) {}

  ownMethod(expr: TS.Expression, method: string, file: FileIndex, depth: number): boolean {
    const e = unwrap(expr);
    if (depth > MAX_DEPTH || this.seen.has(e)) return false;
    this.seen.add(e);
    if (ts.isObjectLiteralExpression(e)) return declaresMember(e.properties, method);
    if (ts.isIdentifier(e)) {
      const b = resolveBinding(e, e.text);
      return b ? this.binding(b, method, file, depth + 1) : false;
    }
    if (ts.isNewExpression(e)) {
      const cls = this.classOf(e.expression, file, depth + 1);
      return cls ? ownClassMember(cls.node, method, false) : false;
    }
    if (ts.isPropertyAccessExpression(e) && e.expression.kind === ts.SyntaxKind.ThisKeyword) return this.field(e, method, file, depth + 1);
    if (e.kind === ts.SyntaxKind.ThisKeyword) {
      const cls = ts.findAncestor(e, ts.isClassLike);
      return cls ? ownClassMember(cls, method, false) : false;
    }
    if (ts.isCallExpression(e)) {
      const required = this.required(e, file);
      if (required) return required.value ? this.ownMethod(required.value, method, required.file, depth + 1) : false;
      return this.returned(e, method, file, depth + 1);
    }
    return false;
  }

  /**
   * `require('./x')` of a module of the analyzed set: the value it assigns `module.exports` (undefined
   * `value` when it assigns none, or exports by `exports.name = …`); undefined for any other call.
   */
  private required(call: TS.CallExpression, file: FileIndex): { value?: TS.Expression; file: FileIndex; module?: FileIndex } | undefined {
    if (!ts.isIdentifier(call.expression) || call.expression.text !== 'require' || call.arguments.length !== 1 || !ts.isStringLiteralLike(call.arguments[0])) return undefined;
    const abs = this.project.localModule(file.file, call.arguments[0].text);
    const module = abs ? this.project.get(abs) : null;
    if (!module) return { file };
    const assigned = commonJsExports(module.sf).filter((x) => x.name === undefined);
    return { value: assigned.length === 1 ? assigned[0].value : undefined, file: module, module };
  }

  /** `name` of the object a CommonJS module exports: `exports.name = …`, or a member of the object literal (or const bound to one) it assigns `module.exports`. */
  private requiredMember(call: TS.CallExpression, name: string, file: FileIndex): { value: TS.Expression; file: FileIndex } | undefined {
    const required = this.required(call, file);
    if (!required?.module) return undefined;
    const exports = commonJsExports(required.module.sf);
    const named = exports.filter((x) => x.name === name);
    if (named.length === 1 && exports.every((x) => x.name !== undefined)) return { value: named[0].value, file: required.module };
    if (exports.length !== 1 || !required.value) return undefined;
    let obj = unwrap(required.value);
    if (ts.isIdentifier(obj)) {
      const b = resolveBinding(obj, obj.text);
      if (b && ts.isVariableDeclaration(b) && b.initializer && ts.getCombinedNodeFlags(b) & ts.NodeFlags.Const) obj = unwrap(b.initializer);
    }
    if (!ts.isObjectLiteralExpression(obj)) return undefined;
    for (const p of obj.properties) {
      if (ts.isPropertyAssignment(p) && propertyNameText(p.name) === name) return { value: p.initializer, file: required.module };
      if (ts.isShorthandPropertyAssignment(p) && p.name.text === name) return { value: p.name, file: required.module };
    }
    return undefined;
  }

  /** What a declaration binds: a const's initializer, an imported module's declaration, a class (its static members). */
  private binding(b: Binding, method: string, file: FileIndex, depth: number): boolean {
    if (ts.isVariableDeclaration(b)) {
      // a `let` may be reassigned to anything
      const constant = (ts.getCombinedNodeFlags(b) & ts.NodeFlags.Const) !== 0;
      return constant && ts.isIdentifier(b.name) && !!b.initializer && this.ownMethod(b.initializer, method, file, depth);
    }
    if (ts.isBindingElement(b)) {
      // `const { log } = require('./logger')`
      const holder = b.parent.parent;
      const name = propertyNameText(b.propertyName ?? b.name);
      if (!ts.isObjectBindingPattern(b.parent) || !ts.isVariableDeclaration(holder) || b.dotDotDotToken || name === undefined) return false;
      const init = holder.initializer && unwrap(holder.initializer);
      const constant = (ts.getCombinedNodeFlags(holder) & ts.NodeFlags.Const) !== 0;
      if (!constant || !init || !ts.isCallExpression(init)) return false;
      const member = this.requiredMember(init, name, file);
      if (member) return this.ownMethod(member.value, method, member.file, depth + 1);
      // `const { session } = createSession()`: that member of every object the repository's function returns
      const members = this.returnedMembers(init, name, file);
      return !!members && members.every((m) => this.ownMethod(m.value, method, m.file, depth + 1));
    }
    if (ts.isClassDeclaration(b)) return ownClassMember(b, method, true);
    if (ts.isImportSpecifier(b) || ts.isImportClause(b)) {
      const target = this.imported(b, file);
      if (!target) return false;
      return 'decl' in target ? this.binding(target.decl, method, target.file, depth + 1) : this.ownMethod(target.value, method, target.file, depth + 1);
    }
    return false;
  }

  /** The declaration an import of a module of the analyzed set names there (never a package's). */
  private imported(b: TS.ImportSpecifier | TS.ImportClause, file: FileIndex): ({ decl: Binding } | { value: TS.Expression }) & { file: FileIndex } | undefined {
    if (ts.isImportSpecifier(b) && b.isTypeOnly) return undefined;
    const decl = ts.isImportSpecifier(b) ? b.parent.parent.parent : b.parent;
    if (decl.importClause?.isTypeOnly || !ts.isStringLiteral(decl.moduleSpecifier)) return undefined;
    const spec = decl.moduleSpecifier.text;
    const name = ts.isImportSpecifier(b) ? (b.propertyName ?? b.name).text : 'default';
    const target = this.project.resolveImport(file, spec, name);
    if (!target) {
      // `export default { … }` names no declaration: the exported value itself
      const module = name === 'default' && this.project.isLocalSpecifier(spec, file.file) ? this.project.resolveModule(file, spec) : null;
      const assigned = module?.sf.statements.find((st): st is TS.ExportAssignment => ts.isExportAssignment(st) && !st.isExportEquals);
      return module && assigned ? { value: assigned.expression, file: module } : undefined;
    }
    if ('namespace' in target) return undefined;
    const local = topLevelDeclaration(target.file.sf, target.local);
    return local ? { decl: local, file: target.file } : undefined;
  }

  /** The class a `new` expression makes, here or imported. */
  private classOf(expr: TS.Expression, file: FileIndex, depth: number): { node: TS.ClassLikeDeclaration; file: FileIndex } | undefined {
    const e = unwrap(expr);
    if (ts.isClassExpression(e)) return { node: e, file };
    if (!ts.isIdentifier(e) || depth > MAX_DEPTH) return undefined;
    let b = resolveBinding(e, e.text);
    let at = file;
    if (b && (ts.isImportSpecifier(b) || ts.isImportClause(b))) {
      const target = this.imported(b, file);
      if (target && 'value' in target) return ts.isClassExpression(target.value) ? { node: target.value, file: target.file } : undefined;
      b = target?.decl;
      if (target) at = target.file;
    }
    if (b && ts.isClassDeclaration(b)) return { node: b, file: at };
    if (b && ts.isVariableDeclaration(b) && b.initializer && ts.isIdentifier(b.name) && ts.getCombinedNodeFlags(b) & ts.NodeFlags.Const) return this.classOf(b.initializer, at, depth + 1);
    return undefined;
  }

  /** `this.name` inside a class: its field's initializer, or the one value the class's constructor assigns it. */
  private field(access: TS.PropertyAccessExpression, method: string, file: FileIndex, depth: number): boolean {
    let fn = ts.findAncestor(access.parent, ts.isFunctionLike);
    while (fn && ts.isArrowFunction(fn)) fn = ts.findAncestor(fn.parent, ts.isFunctionLike);
    const cls = fn && (ts.isMethodDeclaration(fn) || ts.isConstructorDeclaration(fn) || ts.isGetAccessor(fn) || ts.isSetAccessor(fn)) ? owningClass(fn) : undefined;
    if (!cls) return false;
    const name = access.name.text;
    const values: TS.Expression[] = [];
    for (const m of cls.members) {
      if (ts.isPropertyDeclaration(m) && propertyNameText(m.name) === name && m.initializer) values.push(m.initializer);
      if (ts.isConstructorDeclaration(m) && m.parameters.some((p) => ts.isIdentifier(p.name) && p.name.text === name && ts.getModifiers(p)?.length)) return false; // passed in: anything
    }
    // every assignment `this.name = …` in the class (a value set elsewhere may be a server)
    const visit = (n: TS.Node): void => {
      if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isPropertyAccessExpression(n.left) && n.left.expression.kind === ts.SyntaxKind.ThisKeyword && n.left.name.text === name) values.push(n.right);
      ts.forEachChild(n, visit);
    };
    for (const m of cls.members) if (!ts.isPropertyDeclaration(m)) visit(m);
    return values.length > 0 && values.every((v) => this.ownMethod(v, method, file, depth));
  }

  /** `name` of every object literal the repository's function called returns; undefined when one return is not such an object. */
  private returnedMembers(call: TS.CallExpression, name: string, file: FileIndex): { value: TS.Expression; file: FileIndex }[] | undefined {
    const target = calledFunction(call.expression, file, this.project);
    const body = target?.fn.body;
    if (!target || !body) return undefined;
    const values = ts.isBlock(body) ? returnedValues(body) : [body];
    if (!values) return undefined;
    const out: { value: TS.Expression; file: FileIndex }[] = [];
    for (const v of values) {
      const o = unwrap(v);
      if (!ts.isObjectLiteralExpression(o)) return undefined;
      const p = o.properties.find((x) => !ts.isSpreadAssignment(x) && propertyNameText(x.name) === name);
      if (p && ts.isPropertyAssignment(p)) out.push({ value: p.initializer, file: target.file });
      else if (p && ts.isShorthandPropertyAssignment(p)) out.push({ value: p.name, file: target.file });
      else return undefined;
    }
    return out;
  }

  /** A call of the repository's own function: every value it returns. */
  private returned(call: TS.CallExpression, method: string, file: FileIndex, depth: number): boolean {
    const target = calledFunction(call.expression, file, this.project);
    const body = target?.fn.body;
    if (!target || !body) return false;
    if (!ts.isBlock(body)) return this.ownMethod(body, method, target.file, depth);
    const values = returnedValues(body);
    return !!values && values.every((v) => this.ownMethod(v, method, target.file, depth));
  }
}

/** Every value a function body's own `return`s give; undefined when one returns nothing (or none returns). */
function returnedValues(body: TS.Block): TS.Expression[] | undefined {
  const values: TS.Expression[] = [];
  let bare = false;
  const visit = (n: TS.Node): void => {
    if (ts.isReturnStatement(n)) {
      if (n.expression) values.push(n.expression);
      else bare = true;
    } else if (!ts.isFunctionLike(n) && !ts.isClassLike(n)) ts.forEachChild(n, visit);
  };
  ts.forEachChild(body, visit);
  return bare || values.length === 0 ? undefined : values;
}

/** A CommonJS module's top-level export assignments: `module.exports = v` (no name), `module.exports.n = v` and `exports.n = v`. */
function commonJsExports(sf: TS.SourceFile): { name?: string; value: TS.Expression }[] {
  const out: { name?: string; value: TS.Expression }[] = [];
  const isModuleExports = (e: TS.Expression) => ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === 'module' && e.name.text === 'exports';
  for (const st of sf.statements) {
    if (!ts.isExpressionStatement(st) || !ts.isBinaryExpression(st.expression) || st.expression.operatorToken.kind !== ts.SyntaxKind.EqualsToken) continue;
    const { left, right } = st.expression;
    if (isModuleExports(left)) out.push({ value: right });
    else if (ts.isPropertyAccessExpression(left) && (isModuleExports(left.expression) || (ts.isIdentifier(left.expression) && left.expression.text === 'exports'))) out.push({ name: left.name.text, value: right });
  }
  return out;
}

/** Does an object literal declare the member itself (not through a spread)? */
function declaresMember(properties: TS.NodeArray<TS.ObjectLiteralElementLike>, name: string): boolean {
  return properties.some((p) => !ts.isSpreadAssignment(p) && propertyNameText(p.name) === name);
}

/** Does a class that extends nothing declare the member (static for calls on the class itself)? */
function ownClassMember(cls: TS.ClassLikeDeclaration, name: string, isStatic: boolean): boolean {
  if (cls.heritageClauses?.some((h) => h.token === ts.SyntaxKind.ExtendsKeyword)) return false;
  return cls.members.some((m) => {
    if (!(ts.isMethodDeclaration(m) || ts.isPropertyDeclaration(m) || ts.isGetAccessor(m)) || propertyNameText(m.name) !== name) return false;
    const staticMember = !!ts.getModifiers(m)?.some((mod) => mod.kind === ts.SyntaxKind.StaticKeyword);
    return staticMember === isStatic;
  });
}
