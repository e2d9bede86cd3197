/**
 * What a receiver holds, decided by following the value rather than its spelling: a protocol server
 * (`Server`/`McpServer`), a request handler's context (v1 `RequestHandlerExtra`, v2 `ServerContext`)
 * or the v2 context's `mcpReq`. Followed through variables, parameters (their type, or the arguments
 * callers pass), destructuring, returns, object properties, class fields, generic containers
 * (`Map<string, Server>` → `sessions.get(id)`), casts, `!`, optional chains and imports. Syntax only;
 * `undefined` means "not shown", and the caller may then ask the type checker (`typeRole`).
 */
import ts from '../typescript.cjs';
import { enclosingFunction, functionName, outerParent, owningClass, propertyNameText, unwrap } from './ast.js';
import { resolveBinding, type Binding } from './bindings.js';
import { ownsMethodBySyntax } from './own-methods.js';
import { calledFunction, objectMemberFunction, topLevelDeclaration } from './functions.js';
import { legacyMethodRead, type FileIndex, type LegacyAlias } from './file-index.js';
import type { Project } from './project.js';
import { LEGACY_METHODS, REGISTRATION_METHODS, SET_REQUEST_HANDLER } from '../vocabulary.js';

/** `other`: shown to be something else (an object literal, a package's export, a class that extends no server). */
export type ValueRole = 'server' | 'context' | 'mcpReq' | 'other';

/** Type names that make a value a protocol server or a handler context (SDK v1 and v2). */
const SERVER_TYPES = new Set(['Server', 'McpServer']);
const CONTEXT_TYPES = new Set(['ServerContext', 'RequestHandlerExtra']);
/** Generic wrappers whose first type argument is the value's own type. */
const TRANSPARENT_GENERICS = new Set(['Promise', 'Awaited', 'NonNullable', 'Readonly', 'Partial', 'Required', 'Pick', 'Omit', 'PromiseLike']);
/** Containers and where their element type sits among the type arguments. */
const CONTAINER_ELEMENT_ARG: Readonly<Record<string, number>> = { Map: 1, WeakMap: 1, Record: 1, Array: 0, ReadonlyArray: 0, Set: 0, ReadonlyMap: 1 };

const MAX_DEPTH = 10;

/** The raw request methods (`send`, `sendRequest`, `request`…): what they send is named by the request's method. */
const RAW_REQUEST_METHODS: ReadonlySet<string> = new Set(LEGACY_METHODS.filter((m) => m.kind === 'by-method').map((m) => m.name));

interface Located {
  node: ts.Node;
  file: FileIndex;
}

export class ReceiverResolver {
  private readonly memo = new Map<ts.Node, ValueRole | null>();

  constructor(private readonly project: Project) {}

  /**
   * The legacy method a call of a repo function returns (`getAsk(ctx)` whose body says `return
   * ctx.mcpReq.elicitInput.bind(ctx.mcpReq)`, or returns a local bound to one): read where returned.
   */
  returnedMethod(call: ts.CallExpression, file: FileIndex): LegacyAlias | undefined {
    const target = calledFunction(call.expression, file, this.project);
    if (!target?.fn.body) return undefined;
    const read = (e: ts.Expression): LegacyAlias | undefined => {
      const direct = legacyMethodRead(e);
      if (direct) return direct;
      const id = stripWrappers(e);
      const b = ts.isIdentifier(id) ? resolveBinding(id, id.text) : undefined;
      return b && ts.isVariableDeclaration(b) && b.initializer ? legacyMethodRead(b.initializer) : undefined;
    };
    if (!ts.isBlock(target.fn.body)) return read(target.fn.body);
    let found: LegacyAlias | undefined;
    const visit = (n: ts.Node): void => {
      if (found) return;
      if (ts.isReturnStatement(n) && n.expression) found = read(n.expression);
      else if (!ts.isFunctionLike(n) && !ts.isClassLike(n)) ts.forEachChild(n, visit);
    };
    ts.forEachChild(target.fn.body, visit);
    return found;
  }

  /**
   * Is `receiver.name(…)` a call of the repository's own function: the receiver is an object literal
   * (or a const holding one, or the result of a repo function that returns one) that declares `name`
   * as a function of its own (`{ async requestSampling(p) { … } }`, `{ elicitInput: async (q) => … }`)?
   * A member whose value is something else (a bound legacy method, a server) is not.
   */
  ownsMethod(receiver: ts.Expression, name: string, file: FileIndex): boolean {
    // an instance of a class the repository writes, which declares the method and extends nothing
    // (`this.requestManager.elicitInput(this.server, p)` with `this.requestManager = new RequestManager()`),
    // or a value whose written type is such a class (`manager: SamplingManager | null`, a typed parameter).
    // Not for the raw request names: a repository's own transport class declares `send`, and what it
    // sends (a hand-built `elicitation/create`) goes to the client (cloudflare/agents' McpAgent)
    if (!RAW_REQUEST_METHODS.has(name) && (ownsMethodBySyntax(this.project, receiver, name, file) || this.classImplements(receiver, name, file))) return true;
    let x = stripWrappers(receiver);
    if (ts.isIdentifier(x)) {
      const b = resolveBinding(x, x.text);
      if (!b || !ts.isVariableDeclaration(b) || !(b.parent.flags & ts.NodeFlags.Const) || !b.initializer) return false;
      x = stripWrappers(b.initializer);
    }
    if (ts.isObjectLiteralExpression(x)) return declaresOwnFunction(x, name);
    if (!ts.isCallExpression(x)) return false;
    const target = calledFunction(x.expression, file, this.project);
    const body = target?.fn.body;
    if (!body) return false;
    const returned: ts.Expression[] = [];
    if (!ts.isBlock(body)) returned.push(body);
    const visit = (n: ts.Node): void => {
      if (ts.isReturnStatement(n) && n.expression) returned.push(n.expression);
      else if (!ts.isFunctionLike(n) && !ts.isClassLike(n)) ts.forEachChild(n, visit);
    };
    if (ts.isBlock(body)) ts.forEachChild(body, visit);
    return returned.length > 0 && returned.every((r) => {
      const o = stripWrappers(r);
      return ts.isObjectLiteralExpression(o) && declaresOwnFunction(o, name);
    });
  }

  /**
   * `this.manager.requestSampling(…)` over `manager: SamplingManager | null` (a field, a parameter
   * property, a typed parameter or variable) or a value made with `new SamplingManager()`: the
   * repository's own class implements `name` (a method with a body, its own or a repo base class's),
   * so the call is that method, not the SDK's. An interface or type literal that only declares the
   * method is a structural stand-in for the SDK object and does not count.
   */
  private classImplements(receiver: ts.Expression, name: string, file: FileIndex): boolean {
    const made = madeWith(receiver);
    const cls = made ? this.typeDeclaration(made, file) : undefined;
    const owner = cls ? undefined : this.declaredTypeOfValue(receiver, file, 0);
    const method = cls ? this.methodOfDeclaration(cls.node as TypeDeclaration, name, cls.file, 0) : owner ? this.methodOf(owner.node, name, owner.file, 0) : undefined;
    return !!method && ts.isMethodDeclaration(method.decl) && !!method.decl.body && ts.isClassDeclaration(method.decl.parent);
  }

  /** The role the value of `expr` (in `file`) plays, when syntax shows it. */
  role(expr: ts.Expression, file: FileIndex): ValueRole | undefined {
    return this.value(expr, file, 0);
  }

  private value(expr: ts.Expression, file: FileIndex, depth: number): ValueRole | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const known = this.memo.get(expr);
    if (known !== undefined) return known ?? undefined;
    this.memo.set(expr, null); // cycle guard
    const role = this.computeValue(expr, file, depth + 1);
    this.memo.set(expr, role ?? null);
    return role;
  }

  private computeValue(e: ts.Expression, file: FileIndex, depth: number): ValueRole | undefined {
    if (ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e) || ts.isAwaitExpression(e)) return this.value(e.expression, file, depth);
    if (ts.isAsExpression(e) || ts.isTypeAssertionExpression(e) || ts.isSatisfiesExpression(e)) {
      // a cast changes what the checker believes, not the value: `ctx as unknown as { createMessage?: … }` is still the context
      return preferProtocol(this.type(e.type, file, depth), () => this.value(e.expression, file, depth));
    }
    if (ts.isIdentifier(e)) return this.identifier(e, file, depth);
    if (e.kind === ts.SyntaxKind.ThisKeyword) {
      // a class extending the SDK's server is one
      const cls = ts.findAncestor(e, ts.isClassLike);
      return cls && ts.isClassDeclaration(cls) ? this.declarationRole(cls, file, depth) : undefined;
    }
    if (ts.isPropertyAccessExpression(e)) return this.property(e.expression, e.name.text, file, depth);
    if (ts.isElementAccessExpression(e)) {
      const key = ts.isStringLiteralLike(e.argumentExpression) ? e.argumentExpression.text : undefined;
      return (key !== undefined ? this.property(e.expression, key, file, depth) : undefined) ?? this.element(e.expression, file, depth);
    }
    if (ts.isCallExpression(e)) return this.callResult(e, file, depth);
    if (ts.isNewExpression(e)) {
      const cls = this.classValue(e.expression, file, depth);
      return cls === 'server' ? 'server' : cls === undefined ? undefined : 'other';
    }
    if (ts.isObjectLiteralExpression(e) || ts.isArrayLiteralExpression(e) || ts.isLiteralExpression(e) || ts.isFunctionLike(e)) return 'other';
    if (ts.isConditionalExpression(e)) return this.value(e.whenTrue, file, depth) ?? this.value(e.whenFalse, file, depth);
    if (ts.isBinaryExpression(e)) {
      const op = e.operatorToken.kind;
      if (op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken || op === ts.SyntaxKind.AmpersandAmpersandToken) {
        return this.value(e.right, file, depth) ?? this.value(e.left, file, depth);
      }
      if (op === ts.SyntaxKind.EqualsToken) return this.value(e.right, file, depth);
    }
    return undefined;
  }

  private identifier(id: ts.Identifier, file: FileIndex, depth: number): ValueRole | undefined {
    const binding = resolveBinding(id, id.text);
    if (!binding) return undefined;
    const declared = this.binding(binding, file, depth);
    if (declared) return declared;
    // `let server; … server = new Server(…)`: any assignment to the same binding
    if (ts.isVariableDeclaration(binding) && !(binding.parent.flags & ts.NodeFlags.Const)) {
      for (const ref of file.identRefs.get(id.text) ?? []) {
        const p = outerParent(ref).parent;
        if (p && ts.isBinaryExpression(p) && p.operatorToken.kind === ts.SyntaxKind.EqualsToken && outerParent(p.left) === outerParent(ref) && resolveBinding(ref, id.text) === binding) {
          const r = this.value(p.right, file, depth);
          if (r) return r;
        }
      }
    }
    return undefined;
  }

  private binding(b: Binding, file: FileIndex, depth: number): ValueRole | undefined {
    if (ts.isVariableDeclaration(b)) {
      return (b.type ? this.type(b.type, file, depth) : undefined) ?? (b.initializer ? this.value(b.initializer, file, depth) : undefined);
    }
    if (ts.isBindingElement(b)) return this.destructured(b, file, depth);
    if (ts.isParameter(b)) return this.parameter(b, file, depth);
    if (ts.isImportSpecifier(b) || ts.isImportClause(b)) return this.imported(b, file, depth);
    return undefined;
  }

  /** `const { server } = mcp`, `({ mcpReq }) => …`, `const { sessions } = this`. */
  private destructured(el: ts.BindingElement, file: FileIndex, depth: number): ValueRole | undefined {
    const prop = propertyNameText(el.propertyName ?? el.name);
    if (prop === undefined) return undefined;
    const byName = roleOfMemberName(prop);
    if (byName) return byName;
    let holder: ts.Node = el.parent;
    while (ts.isBindingElement(holder) || ts.isObjectBindingPattern(holder) || ts.isArrayBindingPattern(holder)) holder = holder.parent;
    if (ts.isVariableDeclaration(holder)) {
      if (holder.type) return this.member(holder.type, prop, file, depth);
      if (holder.initializer) return this.property(holder.initializer, prop, file, depth);
    }
    if (ts.isParameter(holder) && holder.type) return this.member(holder.type, prop, file, depth);
    return undefined;
  }

  private parameter(p: ts.ParameterDeclaration, file: FileIndex, depth: number): ValueRole | undefined {
    // a parameter typed by a structural stand-in (`caps: { createMessage?: … }`) holds what callers pass
    if (p.type) return preferProtocol(this.type(p.type, file, depth), () => this.passedTo(p, file, depth));
    if (p.initializer) return this.value(p.initializer, file, depth);
    const fn = p.parent;
    if (!ts.isFunctionLike(fn)) return undefined;
    const index = fn.parameters.indexOf(p);
    // `(input, extra) => …` returned where the function's return type is written: that type's parameter
    const contextual = contextualParameterType(fn, index);
    if (contextual) {
      const r = this.type(contextual, file, depth);
      if (r) return r;
    }
    // the last parameter of a registered handler is its context (`extra`, `ctx`)
    if (isRegisteredHandler(fn) && index === fn.parameters.length - 1 && index > 0) return 'context';
    if (isRegisteredHandler(fn) && fn.parameters.length === 1 && isToolWithoutArgs(fn)) return 'context';
    // otherwise: what the callers pass
    return this.passedTo(p, file, depth);
  }

  /** What the direct callers of a parameter's function pass for it. */
  private passedTo(p: ts.ParameterDeclaration, file: FileIndex, depth: number): ValueRole | undefined {
    const fn = p.parent;
    if (!ts.isFunctionLike(fn)) return undefined;
    const index = fn.parameters.indexOf(p);
    return strongest(this.argumentsPassed(fn as ts.FunctionLikeDeclaration, index, file).map((arg) => () => this.value(arg.node as ts.Expression, arg.file, depth)));
  }

  /** Arguments given at `index` by direct calls of a named function (this file, and files importing it). */
  private argumentsPassed(fn: ts.FunctionLikeDeclaration, index: number, file: FileIndex): Located[] {
    const name = functionName(fn);
    if (!name || name === 'constructor') return [];
    const out: Located[] = [];
    const collect = (f: FileIndex, refs: readonly ts.Node[]): void => {
      for (const ref of refs) {
        const call = outerParent(ref).parent;
        if (call && ts.isCallExpression(call) && outerParent(call.expression) === outerParent(ref) && call.arguments[index]) {
          out.push({ node: call.arguments[index], file: f });
        }
      }
    };
    if (owningClass(fn) || ts.isMethodDeclaration(fn)) {
      collect(file, file.propRefs.get(name) ?? []);
      for (const imp of this.project.importersOf(file)) collect(imp.from, imp.from.propRefs.get(name) ?? []);
      return out;
    }
    collect(file, file.identRefs.get(name) ?? []);
    for (const imp of this.project.importersOf(file)) {
      if (!('namespace' in imp) && imp.name === name) collect(imp.from, imp.from.identRefs.get(imp.local) ?? []);
    }
    return out;
  }

  private imported(b: ts.ImportSpecifier | ts.ImportClause, file: FileIndex, depth: number): ValueRole | undefined {
    const decl = ts.isImportSpecifier(b) ? b.parent.parent.parent : b.parent;
    if (!ts.isStringLiteral(decl.moduleSpecifier)) return undefined;
    const imported = ts.isImportSpecifier(b) ? (b.propertyName ?? b.name).text : 'default';
    // a package's export (the SDK's `inputRequired`, an LLM client) is what that package says it is
    if (!this.project.isLocalSpecifier(decl.moduleSpecifier.text, file.file)) return roleOfTypeName(imported) ?? 'other';
    const target = this.project.resolveImport(file, decl.moduleSpecifier.text, imported);
    if (!target || 'namespace' in target) return undefined;
    const local = topLevelDeclaration(target.file.sf, target.local);
    return local ? this.binding(local, target.file, depth) : undefined;
  }

  /** `obj.name`: by the name (`x.server`, `x.mcpReq`), or by what `obj` declares under it. */
  private property(obj: ts.Expression, name: string, file: FileIndex, depth: number): ValueRole | undefined {
    const byName = roleOfMemberName(name);
    if (byName) return byName;
    const o = stripWrappers(obj);
    if (o.kind === ts.SyntaxKind.ThisKeyword) return this.classMember(o, name, file, depth);
    if (ts.isIdentifier(o)) {
      const b = resolveBinding(o, o.text);
      if (b && (ts.isVariableDeclaration(b) || ts.isParameter(b))) {
        if (b.type) return this.member(b.type, name, file, depth);
        if (b.initializer) {
          const init = stripWrappers(b.initializer);
          if (ts.isObjectLiteralExpression(init)) return this.objectMember(init, name, file, depth);
        }
      }
    }
    if (ts.isObjectLiteralExpression(o)) return this.objectMember(o, name, file, depth);
    // a chain through declared types: `ha.context.samplingServer` over `ha: HandlerArgs`
    const declared = this.typeNodeOf(o, file, depth);
    if (declared) {
      const r = this.member(declared.node, name, declared.file, depth);
      if (r) return r;
    }
    // a member of something shown not to be a protocol object (`anthropic.messages`) is not one either
    return this.value(o, file, depth) === 'other' ? 'other' : undefined;
  }

  private objectMember(obj: ts.ObjectLiteralExpression, name: string, file: FileIndex, depth: number): ValueRole | undefined {
    for (const p of obj.properties) {
      if (ts.isPropertyAssignment(p) && propertyNameText(p.name) === name) return this.value(p.initializer, file, depth);
      if (ts.isShorthandPropertyAssignment(p) && p.name.text === name) return this.identifier(p.name, file, depth);
    }
    return undefined;
  }

  /** `this.name` inside a class: the field's type or initializer, a parameter property, `this.name = …` assignments, a getter's returns. */
  private classMember(self: ts.Node, name: string, file: FileIndex, depth: number): ValueRole | undefined {
    const fn = enclosingNonArrow(self);
    const cls = fn ? owningClass(fn) : undefined;
    if (!cls) return undefined;
    for (const m of cls.members) {
      if (propertyNameText(m.name) !== name) continue;
      if (ts.isPropertyDeclaration(m)) {
        const r = (m.type ? this.type(m.type, file, depth) : undefined) ?? (m.initializer ? this.value(m.initializer, file, depth) : undefined);
        if (r) return r;
      } else if (ts.isGetAccessorDeclaration(m) && m.body) {
        const r = this.returned(m, file, depth);
        if (r) return r;
      }
    }
    const ctor = cls.members.find(ts.isConstructorDeclaration);
    const param = ctor?.parameters.find((p) => ts.isIdentifier(p.name) && p.name.text === name && ts.getModifiers(p)?.length);
    if (param) {
      const r = this.parameter(param, file, depth);
      if (r) return r;
    }
    for (const pa of file.propRefs.get(name) ?? []) {
      if (pa.expression.kind !== ts.SyntaxKind.ThisKeyword || !isWithin(pa, cls)) continue;
      const p = outerParent(pa).parent;
      if (p && ts.isBinaryExpression(p) && p.operatorToken.kind === ts.SyntaxKind.EqualsToken && outerParent(p.left) === outerParent(pa)) {
        const r = this.value(p.right, file, depth);
        if (r) return r;
      }
    }
    return undefined;
  }

  /** The element of a container: `sessions.get(id)`, `servers[id]`, over `Map<string, Server>` and the like. */
  private element(container: ts.Expression, file: FileIndex, depth: number): ValueRole | undefined {
    const c = stripWrappers(container);
    const declared = this.declaredOf(c, file);
    if (!declared) return undefined;
    if (declared.type) {
      const r = this.elementType(declared.type, file, depth);
      if (r) return r;
    }
    const init = declared.init ? stripWrappers(declared.init) : undefined;
    if (init && ts.isNewExpression(init) && init.typeArguments) {
      const at = CONTAINER_ELEMENT_ARG[identifierText(init.expression) ?? ''];
      const t = at !== undefined ? init.typeArguments[at] : undefined;
      if (t) return this.type(t, file, depth);
    }
    // an untyped `new Map()`: what is put in it (`sessions.set(id, server)`)
    const key = ts.isIdentifier(c) ? c.text : ts.isPropertyAccessExpression(c) ? c.name.text : undefined;
    if (key) {
      for (const set of file.propRefs.get('set') ?? []) {
        const call = set.parent;
        const holder = stripWrappers(set.expression);
        const holderKey = ts.isIdentifier(holder) ? holder.text : ts.isPropertyAccessExpression(holder) ? holder.name.text : undefined;
        if (holderKey === key && ts.isCallExpression(call) && call.expression === set && call.arguments[1]) {
          const r = this.value(call.arguments[1], file, depth);
          if (r) return r;
        }
      }
    }
    return undefined;
  }

  /** A declared type and/or initializer for an identifier or a `this.x` field. */
  private declaredOf(e: ts.Expression, file: FileIndex): { type?: ts.TypeNode; init?: ts.Expression } | undefined {
    if (ts.isIdentifier(e)) {
      const b = resolveBinding(e, e.text);
      if (b && (ts.isVariableDeclaration(b) || ts.isParameter(b))) return { type: b.type, init: b.initializer };
      return undefined;
    }
    if (ts.isPropertyAccessExpression(e) && e.expression.kind === ts.SyntaxKind.ThisKeyword) {
      const fn = enclosingNonArrow(e);
      const cls = fn ? owningClass(fn) : undefined;
      const m = cls?.members.find((x) => ts.isPropertyDeclaration(x) && propertyNameText(x.name) === e.name.text) as ts.PropertyDeclaration | undefined;
      if (m) return { type: m.type, init: m.initializer };
      const ctor = cls?.members.find(ts.isConstructorDeclaration);
      const param = ctor?.parameters.find((p) => ts.isIdentifier(p.name) && p.name.text === e.name.text);
      if (param) return { type: param.type, init: param.initializer };
    }
    return undefined;
  }

  private callResult(call: ts.CallExpression, file: FileIndex, depth: number): ValueRole | undefined {
    const callee = stripWrappers(call.expression);
    if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'get') {
      const r = this.element(callee.expression, file, depth);
      if (r) return r;
    }
    // `sessions.serverFor(id)` over `export const sessions = { serverFor }`: that function's result
    const fn = calledFunction(callee, file, this.project) ?? objectMemberFunction(callee, file, this.project);
    if (!fn) return ts.isPropertyAccessExpression(callee) ? this.methodResult(callee, file, depth) : undefined;
    return (fn.fn.type ? this.type(fn.fn.type, fn.file, depth) : undefined) ?? this.returned(fn.fn, fn.file, depth);
  }

  /**
   * `handler.getServerForSession(id)`: the method of the class or interface the object is declared
   * or made as (`const handler = getHandler()` over `getHandler(): McpHandler | null`), by what it returns.
   */
  private methodResult(callee: ts.PropertyAccessExpression, file: FileIndex, depth: number): ValueRole | undefined {
    const made = madeWith(callee.expression);
    const cls = made ? this.typeDeclaration(made, file) : undefined;
    const owner = cls ? undefined : this.declaredTypeOfValue(callee.expression, file, depth);
    const method = cls ? this.methodOfDeclaration(cls.node as TypeDeclaration, callee.name.text, cls.file, depth) : owner ? this.methodOf(owner.node, callee.name.text, owner.file, depth) : undefined;
    if (!method) return undefined;
    return (method.decl.type ? this.type(method.decl.type, method.file, depth) : undefined) ??
      (ts.isMethodDeclaration(method.decl) ? this.returned(method.decl, method.file, depth) : undefined);
  }

  /** The type written for a value: declared on it (`typeNodeOf`), or the declared return type of the call that made it, or the class it was made with. */
  private declaredTypeOfValue(e: ts.Expression, file: FileIndex, depth: number): { node: ts.TypeNode; file: FileIndex } | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const declared = this.typeNodeOf(e, file, depth);
    if (declared) return declared;
    const x = stripWrappers(e);
    let init: ts.Expression | undefined;
    if (ts.isIdentifier(x)) {
      const b = resolveBinding(x, x.text);
      init = b && ts.isVariableDeclaration(b) && b.initializer ? stripWrappers(b.initializer) : undefined;
    } else {
      init = x;
    }
    if (!init) return undefined;
    if (ts.isCallExpression(init)) {
      const fn = calledFunction(init.expression, file, this.project);
      if (fn?.fn.type) return { node: fn.fn.type, file: fn.file };
    }
    return undefined;
  }

  /** A method member `name` of a type written in the source (class or interface, their bases, unions with null). */
  private methodOf(t: ts.TypeNode, name: string, file: FileIndex, depth: number): { decl: ts.MethodDeclaration | ts.MethodSignature; file: FileIndex } | undefined {
    if (depth > MAX_DEPTH) return undefined;
    if (ts.isParenthesizedTypeNode(t)) return this.methodOf(t.type, name, file, depth + 1);
    if (ts.isUnionTypeNode(t) || ts.isIntersectionTypeNode(t)) {
      for (const m of t.types) {
        const r = this.methodOf(m, name, file, depth + 1);
        if (r) return r;
      }
      return undefined;
    }
    const inMembers = (members: readonly ts.Node[], at: FileIndex) => {
      for (const m of members) if ((ts.isMethodDeclaration(m) || ts.isMethodSignature(m)) && propertyNameText(m.name) === name) return { decl: m, file: at };
      return undefined;
    };
    if (ts.isTypeLiteralNode(t)) return inMembers(t.members, file);
    if (!ts.isTypeReferenceNode(t) || !ts.isIdentifier(t.typeName)) return undefined;
    if (TRANSPARENT_GENERICS.has(t.typeName.text) && t.typeArguments?.[0]) return this.methodOf(t.typeArguments[0], name, file, depth + 1);
    const decl = this.typeDeclaration(t.typeName, file);
    return decl ? this.methodOfDeclaration(decl.node as TypeDeclaration, name, decl.file, depth + 1) : undefined;
  }

  private methodOfDeclaration(d: TypeDeclaration, name: string, file: FileIndex, depth: number): { decl: ts.MethodDeclaration | ts.MethodSignature; file: FileIndex } | undefined {
    if (depth > MAX_DEPTH) return undefined;
    if (ts.isTypeAliasDeclaration(d)) return this.methodOf(d.type, name, file, depth + 1);
    for (const m of d.members as readonly ts.Node[]) {
      if ((ts.isMethodDeclaration(m) || ts.isMethodSignature(m)) && propertyNameText(m.name) === name) return { decl: m, file };
    }
    for (const h of d.heritageClauses ?? []) {
      for (const base of h.types) {
        const inner = ts.isIdentifier(base.expression) ? this.typeDeclaration(base.expression, file) : undefined;
        const r = inner ? this.methodOfDeclaration(inner.node as TypeDeclaration, name, inner.file, depth + 1) : undefined;
        if (r) return r;
      }
    }
    return undefined;
  }

  /** What a function returns: `return server`, an arrow's expression body. */
  private returned(fn: ts.FunctionLikeDeclaration, file: FileIndex, depth: number): ValueRole | undefined {
    if (!fn.body) return undefined;
    if (!ts.isBlock(fn.body)) return this.value(fn.body, file, depth);
    let found: ValueRole | undefined;
    const visit = (n: ts.Node): void => {
      if (found) return;
      if (ts.isReturnStatement(n) && n.expression) found = this.value(n.expression, file, depth);
      else if (!ts.isFunctionLike(n) && !ts.isClassLike(n)) ts.forEachChild(n, visit);
    };
    ts.forEachChild(fn.body, visit);
    return found;
  }

  /** The role a class name's instances play: the SDK classes, or a repo class extending one. */
  private classValue(expr: ts.Expression, file: FileIndex, depth: number): ValueRole | undefined {
    const name = identifierText(expr);
    if (!name) return undefined;
    if (SERVER_TYPES.has(name)) return 'server';
    if (!ts.isIdentifier(stripWrappers(expr))) return undefined;
    const b = resolveBinding(expr, name);
    if (b && ts.isClassDeclaration(b)) return this.declarationRole(b, file, depth);
    if (b && (ts.isImportSpecifier(b) || ts.isImportClause(b))) {
      const original = ts.isImportSpecifier(b) ? (b.propertyName ?? b.name).text : 'default';
      if (SERVER_TYPES.has(original)) return 'server';
      const spec = (ts.isImportSpecifier(b) ? b.parent.parent.parent : b.parent).moduleSpecifier;
      // `new Anthropic()`, `new OpenAI()`: a package's class that is not the SDK's server
      if (ts.isStringLiteral(spec) && !this.project.isLocalSpecifier(spec.text, file.file)) return 'other';
    }
    return undefined;
  }

  /** The role of a type written in the source. */
  private type(t: ts.TypeNode, file: FileIndex, depth: number): ValueRole | undefined {
    if (depth > MAX_DEPTH) return undefined;
    if (ts.isParenthesizedTypeNode(t)) return this.type(t.type, file, depth + 1);
    if (ts.isUnionTypeNode(t) || ts.isIntersectionTypeNode(t)) return strongest(t.types.map((m) => () => this.type(m, file, depth + 1)));
    if (ts.isIndexedAccessTypeNode(t) && ts.isLiteralTypeNode(t.indexType) && ts.isStringLiteral(t.indexType.literal)) {
      const key = t.indexType.literal.text;
      return roleOfMemberName(key) ?? this.member(t.objectType, key, file, depth + 1);
    }
    if (ts.isTypeQueryNode(t) && ts.isIdentifier(t.exprName)) return this.identifier(t.exprName, file, depth + 1);
    if (ts.isTypeLiteralNode(t) || ts.isFunctionTypeNode(t) || ts.isArrayTypeNode(t) || ts.isLiteralTypeNode(t)) return 'other';
    if (!ts.isTypeReferenceNode(t)) return undefined;
    const name = ts.isIdentifier(t.typeName) ? t.typeName.text : t.typeName.right.text;
    if (SERVER_TYPES.has(name)) return 'server';
    if (CONTEXT_TYPES.has(name)) return 'context';
    if (TRANSPARENT_GENERICS.has(name) && t.typeArguments?.[0]) return this.type(t.typeArguments[0], file, depth + 1);
    if (ts.isIdentifier(t.typeName) && isPackageImport(resolveBinding(t.typeName, name), this.project)) return 'other';
    const decl = ts.isIdentifier(t.typeName) ? this.typeDeclaration(t.typeName, file) : undefined;
    return decl ? this.declarationRole(decl.node as TypeDeclaration, decl.file, depth + 1) : undefined;
  }

  /** The element type's role of a container type (`Map<string, Server>`, `Server[]`, `{ [id: string]: Server }`). */
  private elementType(t: ts.TypeNode, file: FileIndex, depth: number): ValueRole | undefined {
    if (ts.isArrayTypeNode(t)) return this.type(t.elementType, file, depth + 1);
    if (ts.isUnionTypeNode(t) || ts.isParenthesizedTypeNode(t)) {
      const parts = ts.isUnionTypeNode(t) ? t.types : [t.type];
      for (const m of parts) {
        const r = this.elementType(m, file, depth + 1);
        if (r) return r;
      }
      return undefined;
    }
    if (ts.isTypeLiteralNode(t)) {
      const sig = t.members.find(ts.isIndexSignatureDeclaration);
      return sig ? this.type(sig.type, file, depth + 1) : undefined;
    }
    if (ts.isTypeReferenceNode(t) && t.typeArguments) {
      const name = ts.isIdentifier(t.typeName) ? t.typeName.text : t.typeName.right.text;
      const at = CONTAINER_ELEMENT_ARG[name];
      const arg = at !== undefined ? t.typeArguments[at] : undefined;
      if (arg) return this.type(arg, file, depth + 1);
    }
    return undefined;
  }

  /** The declared type of member `name` of a type written in the source (type literal, interface, alias). */
  private member(t: ts.TypeNode, name: string, file: FileIndex, depth: number): ValueRole | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const byName = roleOfMemberName(name);
    if (byName) return byName;
    if (ts.isTypeLiteralNode(t)) return this.memberOf(t.members, name, file, depth);
    if (ts.isUnionTypeNode(t) || ts.isIntersectionTypeNode(t)) {
      for (const m of t.types) {
        const r = this.member(m, name, file, depth + 1);
        if (r) return r;
      }
      return undefined;
    }
    if (ts.isParenthesizedTypeNode(t)) return this.member(t.type, name, file, depth + 1);
    if (ts.isTypeReferenceNode(t) && ts.isIdentifier(t.typeName)) {
      if (TRANSPARENT_GENERICS.has(t.typeName.text) && t.typeArguments?.[0]) return this.member(t.typeArguments[0], name, file, depth + 1);
      const decl = this.typeDeclaration(t.typeName, file);
      if (!decl) return undefined;
      const d = decl.node as TypeDeclaration;
      if (ts.isTypeAliasDeclaration(d)) return this.member(d.type, name, decl.file, depth + 1);
      const own = this.memberOf(d.members as readonly ts.Node[], name, decl.file, depth);
      if (own) return own;
      for (const h of d.heritageClauses ?? []) {
        for (const base of h.types) {
          const baseName = identifierText(base.expression);
          const bdecl = baseName && ts.isIdentifier(base.expression) ? this.typeDeclaration(base.expression, decl.file) : undefined;
          if (bdecl) {
            const r = this.memberOf(((bdecl.node as TypeDeclaration) as ts.InterfaceDeclaration).members ?? [], name, bdecl.file, depth + 1);
            if (r) return r;
          }
        }
      }
    }
    return undefined;
  }

  /** The type written for an expression's value: a typed variable or parameter, or a member of one (`a.b.c`). */
  private typeNodeOf(e: ts.Expression, file: FileIndex, depth: number): { node: ts.TypeNode; file: FileIndex } | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const x = stripWrappers(e);
    if (ts.isIdentifier(x)) {
      const b = resolveBinding(x, x.text);
      return b && (ts.isVariableDeclaration(b) || ts.isParameter(b)) && b.type ? { node: b.type, file } : undefined;
    }
    if (ts.isPropertyAccessExpression(x)) {
      // `this.checker` inside a class: the type written on the field or the parameter property
      const field = unwrap(x.expression).kind === ts.SyntaxKind.ThisKeyword ? ownField(x) : undefined;
      if (field?.type) return { node: field.type, file };
      const owner = this.typeNodeOf(x.expression, file, depth + 1);
      return owner ? this.memberType(owner.node, x.name.text, owner.file, depth + 1) : undefined;
    }
    return undefined;
  }

  /** The type node declared for member `name` of a type literal, interface (and its bases) or alias. */
  private memberType(t: ts.TypeNode, name: string, file: FileIndex, depth: number): { node: ts.TypeNode; file: FileIndex } | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const inMembers = (members: readonly ts.Node[], at: FileIndex) => {
      for (const m of members) {
        if ((ts.isPropertySignature(m) || ts.isPropertyDeclaration(m)) && propertyNameText(m.name) === name && m.type) return { node: m.type, file: at };
      }
      return undefined;
    };
    if (ts.isTypeLiteralNode(t)) return inMembers(t.members, file);
    if (ts.isParenthesizedTypeNode(t)) return this.memberType(t.type, name, file, depth + 1);
    if (ts.isUnionTypeNode(t) || ts.isIntersectionTypeNode(t)) {
      for (const m of t.types) {
        const r = this.memberType(m, name, file, depth + 1);
        if (r) return r;
      }
      return undefined;
    }
    if (!ts.isTypeReferenceNode(t) || !ts.isIdentifier(t.typeName)) return undefined;
    if (TRANSPARENT_GENERICS.has(t.typeName.text) && t.typeArguments?.[0]) return this.memberType(t.typeArguments[0], name, file, depth + 1);
    const decl = this.typeDeclaration(t.typeName, file);
    if (!decl) return undefined;
    const d = decl.node as TypeDeclaration;
    if (ts.isTypeAliasDeclaration(d)) return this.memberType(d.type, name, decl.file, depth + 1);
    const own = inMembers(d.members as readonly ts.Node[], decl.file);
    if (own) return own;
    for (const h of d.heritageClauses ?? []) {
      for (const base of h.types) {
        const r = ts.isIdentifier(base.expression) ? this.memberType(ts.factory.createTypeReferenceNode(base.expression.text), name, decl.file, depth + 1) : undefined;
        if (r) return r;
      }
    }
    return undefined;
  }

  private memberOf(members: readonly ts.Node[], name: string, file: FileIndex, depth: number): ValueRole | undefined {
    for (const m of members) {
      if ((ts.isPropertySignature(m) || ts.isPropertyDeclaration(m)) && propertyNameText(m.name) === name) {
        if (m.type) return this.type(m.type, file, depth + 1);
        if (ts.isPropertyDeclaration(m) && m.initializer) return this.value(m.initializer, file, depth + 1);
      }
    }
    return undefined;
  }

  /**
   * A class, interface or type alias: does it extend (or alias) a server or context type? `other`
   * when every base is known not to (a local declaration extending nothing of the SDK's).
   */
  private declarationRole(d: TypeDeclaration, file: FileIndex, depth: number): ValueRole | undefined {
    if (depth > MAX_DEPTH) return undefined;
    if (ts.isTypeAliasDeclaration(d)) return this.type(d.type, file, depth + 1);
    let unknownBase = false;
    for (const h of d.heritageClauses ?? []) {
      for (const base of h.types) {
        const name = identifierText(base.expression);
        const byName = name ? roleOfTypeName(name) : undefined;
        if (byName) return byName;
        const inner = ts.isIdentifier(base.expression) ? this.typeDeclaration(base.expression, file) : undefined;
        const r = inner ? this.declarationRole(inner.node as TypeDeclaration, inner.file, depth + 1) : undefined;
        if (r && r !== 'other') return r;
        if (r === undefined) unknownBase = true;
      }
    }
    return unknownBase ? undefined : 'other';
  }

  /** Where a type name is declared: in this file, or (through an import) in another analyzed file; an import of an SDK name counts by its original name. */
  private typeDeclaration(id: ts.Identifier, file: FileIndex): Located | undefined {
    const local = localTypeDeclaration(file.sf, id.text);
    if (local) return { node: local, file };
    const b = resolveBinding(id, id.text);
    if (!b || !ts.isImportSpecifier(b)) return undefined;
    const original = (b.propertyName ?? b.name).text;
    const decl = b.parent.parent.parent;
    if (!ts.isStringLiteral(decl.moduleSpecifier)) return undefined;
    if (SERVER_TYPES.has(original) || CONTEXT_TYPES.has(original)) {
      // `import { Server as SdkServer }`: a synthetic alias naming the original
      return { node: syntheticAlias(original), file };
    }
    const target = this.project.resolveImport(file, decl.moduleSpecifier.text, original);
    if (!target || 'namespace' in target) return undefined;
    const there = localTypeDeclaration(target.file.sf, target.local);
    return there ? { node: there, file: target.file } : undefined;
  }
}

type TypeDeclaration = ts.ClassDeclaration | ts.InterfaceDeclaration | ts.TypeAliasDeclaration;

/** `type X = Original` for an imported SDK type under another local name. */
function syntheticAlias(original: string): ts.TypeAliasDeclaration {
  return ts.factory.createTypeAliasDeclaration(undefined, 'Alias', undefined, ts.factory.createTypeReferenceNode(original));
}

/**
 * The type a function's parameter gets from where the function stands: returned from (or the body of)
 * a function whose return type is a written function type, or the initializer of a variable typed so.
 */
function contextualParameterType(fn: ts.SignatureDeclaration, index: number): ts.TypeNode | undefined {
  if (!ts.isArrowFunction(fn) && !ts.isFunctionExpression(fn)) return undefined;
  const outer = outerParent(fn);
  const p = outer.parent;
  let written: ts.TypeNode | undefined;
  if (p && ts.isReturnStatement(p)) written = enclosingFunction(p)?.type;
  else if (p && ts.isArrowFunction(p) && p.body === outer) written = p.type;
  else if (p && ts.isVariableDeclaration(p) && p.initializer === outer) written = p.type;
  while (written && ts.isParenthesizedTypeNode(written)) written = written.type;
  return written && ts.isFunctionTypeNode(written) ? written.parameters[index]?.type : undefined;
}

/** An object literal's own function member `name`: a method, or a property whose value is a function written there. */
function declaresOwnFunction(o: ts.ObjectLiteralExpression, name: string): boolean {
  return o.properties.some((p) => {
    if (p.name === undefined || propertyNameText(p.name) !== name) return false;
    if (ts.isMethodDeclaration(p)) return true;
    if (!ts.isPropertyAssignment(p)) return false;
    const v = stripWrappers(p.initializer);
    return ts.isArrowFunction(v) || ts.isFunctionExpression(v);
  });
}

/** The class identifier a value was made with: `new X(…)`, a const initialised so, or a field of this class made so (untyped). */
function madeWith(e: ts.Expression): ts.Identifier | undefined {
  let x = stripWrappers(e);
  if (ts.isIdentifier(x)) {
    const b = resolveBinding(x, x.text);
    if (!b || !ts.isVariableDeclaration(b) || !b.initializer || b.type) return undefined;
    x = stripWrappers(b.initializer);
  } else if (ts.isPropertyAccessExpression(x) && unwrap(x.expression).kind === ts.SyntaxKind.ThisKeyword) {
    const field = ownField(x);
    if (!field || field.type || !field.made) return undefined;
    x = stripWrappers(field.made);
  }
  return ts.isNewExpression(x) && ts.isIdentifier(x.expression) ? x.expression : undefined;
}

/**
 * The field `this.name` names in the class around it (`this` bound by a method, accessor or
 * constructor of that class): the type written on it (a property declaration or a constructor's
 * parameter property), else the value it is made with: its initializer, or the one `this.name = …`
 * assignment in the constructor.
 */
function ownField(access: ts.PropertyAccessExpression): { type?: ts.TypeNode; made?: ts.Expression } | undefined {
  const fn = enclosingNonArrow(access);
  const cls = fn ? owningClass(fn) : undefined;
  if (!cls) return undefined;
  const name = access.name.text;
  const declared = cls.members.find((m): m is ts.PropertyDeclaration => ts.isPropertyDeclaration(m) && propertyNameText(m.name) === name);
  const ctor = cls.members.find(ts.isConstructorDeclaration);
  const param = ctor?.parameters.find((p) => ts.isIdentifier(p.name) && p.name.text === name && !!ts.getModifiers(p)?.length);
  if (declared?.type || param?.type) return { type: declared?.type ?? param?.type };
  if (declared?.initializer) return { made: declared.initializer };
  const made: ts.Expression[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
      const left = unwrap(n.left);
      if (ts.isPropertyAccessExpression(left) && left.name.text === name && unwrap(left.expression).kind === ts.SyntaxKind.ThisKeyword) made.push(n.right);
    }
    if (!ts.isFunctionLike(n) || ts.isArrowFunction(n)) ts.forEachChild(n, visit);
  };
  if (ctor?.body) ts.forEachChild(ctor.body, visit);
  return declared || param || made.length > 0 ? { made: made.length === 1 ? made[0] : undefined } : undefined;
}

/** A protocol role from `first`, else from `then` if it shows one, else whatever `first` said (or `then`, when `first` said nothing). */
function preferProtocol(first: ValueRole | undefined, then: () => ValueRole | undefined): ValueRole | undefined {
  if (first && first !== 'other') return first;
  const second = then();
  if (second && second !== 'other') return second;
  return first ?? second;
}

/** The first role that is not `other`; `other` only when every candidate says so; else unknown. */
function strongest(candidates: ReadonlyArray<() => ValueRole | undefined>): ValueRole | undefined {
  let all: ValueRole | undefined;
  let unknown = candidates.length === 0;
  for (const c of candidates) {
    const r = c();
    if (r && r !== 'other') return r;
    if (r === 'other') all = 'other';
    else unknown = true;
  }
  return unknown ? undefined : all;
}

/** An import from a package (not a relative module), under a name that is not one of the SDK's server types. */
function isPackageImport(b: Binding | undefined, project: Project): boolean {
  if (!b || !(ts.isImportSpecifier(b) || ts.isImportClause(b) || ts.isNamespaceImport(b))) return false;
  const decl = ts.isImportSpecifier(b) ? b.parent.parent.parent : ts.isImportClause(b) ? b.parent : b.parent.parent;
  return ts.isStringLiteral(decl.moduleSpecifier) && !project.isLocalSpecifier(decl.moduleSpecifier.text, b.getSourceFile().fileName);
}

function roleOfTypeName(name: string): ValueRole | undefined {
  if (SERVER_TYPES.has(name)) return 'server';
  if (CONTEXT_TYPES.has(name)) return 'context';
  return undefined;
}

/** Member names that say what they hold on any receiver: `x.server`, `x.mcpReq`. */
function roleOfMemberName(name: string): ValueRole | undefined {
  if (name === 'server') return 'server';
  if (name === 'mcpReq') return 'mcpReq';
  return undefined;
}

function stripWrappers(e: ts.Expression): ts.Expression {
  let n = e;
  while (ts.isParenthesizedExpression(n) || ts.isNonNullExpression(n) || ts.isAsExpression(n) || ts.isSatisfiesExpression(n) || ts.isTypeAssertionExpression(n) || ts.isAwaitExpression(n)) n = n.expression;
  return n;
}

function identifierText(e: ts.Expression): string | undefined {
  const n = stripWrappers(e);
  if (ts.isIdentifier(n)) return n.text;
  if (ts.isPropertyAccessExpression(n)) return n.name.text;
  return undefined;
}

/** The nearest enclosing function that binds `this` (arrows see their parent's). */
function enclosingNonArrow(node: ts.Node): ts.FunctionLikeDeclaration | undefined {
  let fn = enclosingFunction(node);
  while (fn && ts.isArrowFunction(fn)) fn = enclosingFunction(fn);
  if (!fn) {
    // a class field initializer: `private readonly x = this.y`
    const cls = ts.findAncestor(node, ts.isClassLike);
    return cls ? (cls.members.find(ts.isConstructorDeclaration) ?? undefined) : undefined;
  }
  return fn;
}

function isWithin(node: ts.Node, outer: ts.Node): boolean {
  for (let n: ts.Node | undefined = node; n; n = n.parent) if (n === outer) return true;
  return false;
}

/** Is the function passed as the last argument of a registration (`registerTool(n, cfg, fn)`, `setRequestHandler(S, fn)`)? */
function isRegisteredHandler(fn: ts.SignatureDeclaration): boolean {
  const outer = outerParent(fn);
  const call = outer.parent;
  if (!call || !ts.isCallExpression(call) || call.arguments[call.arguments.length - 1] !== outer) return false;
  const callee = stripWrappers(call.expression);
  const name = ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
  return name !== undefined && (Object.prototype.hasOwnProperty.call(REGISTRATION_METHODS, name) || name === SET_REQUEST_HANDLER);
}

/** `registerTool(name, config, (ctx) => …)` on v2, or a v1 `tool(name, (extra) => …)` without arguments. */
function isToolWithoutArgs(fn: ts.SignatureDeclaration): boolean {
  const call = outerParent(fn).parent as ts.CallExpression;
  const callee = stripWrappers(call.expression);
  return ts.isPropertyAccessExpression(callee) && callee.name.text !== SET_REQUEST_HANDLER;
}

function localTypeDeclaration(sf: ts.SourceFile, name: string): TypeDeclaration | undefined {
  for (const st of sf.statements) {
    if ((ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st) || ts.isClassDeclaration(st)) && st.name?.text === name) return st;
  }
  return undefined;
}
