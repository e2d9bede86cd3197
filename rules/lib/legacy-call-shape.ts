/**
 * The TSESTree adapter for `matchLegacyCall` (src/vocabulary.ts): turns a call into the AST-free
 * `CallShape` the analyzer and the transforms also build, so all three agree on what a legacy site is.
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type { CallShape, LegacyCallMatch, ReceiverRole } from '../../src/vocabulary.js';
import { LEGACY_METHODS, SPEC_METHODS, URL_ELICITATION_ERROR, isUrlElicitationErrorClass, matchLegacyCall, urlErrorRenaming } from '../../src/vocabulary.js';
import { lastCalleeName } from './callee-name.js';
import { findProperty, memberPath, propertyName, staticString, unwrap, unwrapAwait } from './expressions.js';
import { childNodes, findVariable, localFunction, returnedExpressions, singleValueOf } from './resolve.js';

const LEGACY_NAMES = new Set(LEGACY_METHODS.map((m) => m.name));

/** `Function.prototype.call` / `apply`: `fn.call(thisArg, …args)` invokes `fn` (the analyzer's INVOKE_METHODS). */
const INVOKE_METHODS: ReadonlySet<string> = new Set(['call', 'apply']);
/** Raw request methods that may name the spec method as their first argument, and the receiver role that sends it. */
const RAW_REQUEST_ROLE: Readonly<Record<string, ReceiverRole>> = { request: 'server', send: 'mcpReq', sendRequest: 'extra' };
/** Base classes whose methods a subclass calls through `this` as the protocol's own (`class S extends Server`). */
const SERVER_CLASS_NAMES = new Set(['Server', 'McpServer']);

/** The legacy request a call makes, or undefined. */
export function legacyCallOf(
  sourceCode: Readonly<TSESLint.SourceCode>,
  call: TSESTree.CallExpression,
): LegacyCallMatch | undefined {
  // `fn.call(server, params)` / `fn.apply(server, [params])` ask through `fn`.
  const invoked = invocationOf(call);
  const callee = invoked?.fn ?? call.callee;
  // Cheap exit before building anything: most calls are not named like a legacy method (a bare
  // name may still alias one: `const ask = ctx.mcpReq.elicitInput`).
  const name = lastCalleeName(callee);
  if (name !== undefined && isSpecMethod(name)) return keyedRequest(callee, name);
  const bare = unwrap(callee).type === AST_NODE_TYPES.Identifier;
  if (!bare && (name === undefined || !LEGACY_NAMES.has(name))) return undefined;
  const receiver = receiverOf(callee);
  if (receiver && name !== undefined && isOwnMethodCall(receiver, name)) return undefined;
  return matchLegacyCall(callShapeOf(sourceCode, callee, invoked?.args ?? call.arguments));
}

/** `throw new UrlElicitationRequiredError(...)` (also `new errors.UrlElicitationRequiredError(...)`, or under a renamed import). */
export function isUrlElicitationThrow(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.ThrowStatement): boolean {
  const thrown = unwrap(node.argument);
  if (thrown.type !== AST_NODE_TYPES.NewExpression) return false;
  const path = memberPath(thrown.callee);
  // the file's renamed bindings are collected only for a bare class name in a file that names the error
  const renamed = path.length === 1 && sourceCode.text.includes(URL_ELICITATION_ERROR) ? urlErrorNames(sourceCode.ast) : NONE;
  return isUrlElicitationErrorClass(path, renamed);
}

const NONE: ReadonlySet<string> = new Set();

const urlErrorNamesOf = new WeakMap<TSESTree.Program, Set<string>>();

/**
 * The names a file binds to `UrlElicitationRequiredError` under another name: `import {
 * UrlElicitationRequiredError as NeedsUrl } from …`, `const { UrlElicitationRequiredError: NeedsUrl } =
 * require(…)` (as the analyzer and the transforms collect them).
 */
function urlErrorNames(program: TSESTree.Program): Set<string> {
  let known = urlErrorNamesOf.get(program);
  if (known) return known;
  known = new Set();
  const note = (imported: string | undefined, local: string | undefined): void => {
    const renamed = urlErrorRenaming(imported, local);
    if (renamed) known!.add(renamed);
  };
  const visit = (n: TSESTree.Node): void => {
    if (n.type === AST_NODE_TYPES.ImportSpecifier) {
      note(n.imported.type === AST_NODE_TYPES.Identifier ? n.imported.name : n.imported.value, n.local.name);
    } else if (n.type === AST_NODE_TYPES.VariableDeclarator && n.id.type === AST_NODE_TYPES.ObjectPattern && n.init && isModuleLoad(n.init)) {
      for (const p of n.id.properties) {
        if (p.type === AST_NODE_TYPES.Property && p.key.type === AST_NODE_TYPES.Identifier && p.value.type === AST_NODE_TYPES.Identifier) note(p.key.name, p.value.name);
      }
    }
    for (const child of childNodes(n)) visit(child);
  };
  visit(program);
  urlErrorNamesOf.set(program, known);
  return known;
}

/** `require('x')` or `await import('x')`. */
function isModuleLoad(init: TSESTree.Expression): boolean {
  let e = unwrap(init);
  if (e.type === AST_NODE_TYPES.AwaitExpression) e = unwrap(e.argument);
  if (e.type === AST_NODE_TYPES.ImportExpression) return true;
  return e.type === AST_NODE_TYPES.CallExpression && e.callee.type === AST_NODE_TYPES.Identifier && e.callee.name === 'require';
}

/**
 * The shape of a call in a file that is server-side code: the rule returns before this for a file
 * that imports only the client SDK, so distinctive names (`elicitInput`, `requestSampling`) count on
 * any receiver, as in the analyzer.
 */
export function callShapeOf(
  sourceCode: Readonly<TSESLint.SourceCode>,
  callee: TSESTree.Node,
  args: readonly TSESTree.Node[],
): CallShape {
  const [first, second] = args;
  const receiverNode = receiverOf(callee);
  const bare = unwrap(callee);
  // A bare callee that aliases a legacy method is judged by the chain it was taken from, like the analyzer does.
  const alias = bare.type === AST_NODE_TYPES.Identifier ? aliasedChain(sourceCode, bare) : undefined;
  const chain = alias ?? memberPath(callee);
  const name = chain[chain.length - 1];
  const request = first ? constValue(sourceCode, first) : undefined;
  let methodLiteral = first ? methodLiteralOf(sourceCode, first) : undefined;
  let receiverRole: ReceiverRole | undefined;
  const positional = first && Object.hasOwn(RAW_REQUEST_ROLE, name) ? stringValue(sourceCode, first) : undefined;
  if (positional !== undefined && isSpecMethod(positional)) {
    // `client.request('elicitation/create', params)`: another library's protocol layer; only servers send these methods.
    methodLiteral = positional;
    receiverRole = RAW_REQUEST_ROLE[name];
  } else if (name === 'send' && request?.type === AST_NODE_TYPES.ObjectExpression && findProperty(request, 'jsonrpc') && methodLiteral !== undefined && isSpecMethod(methodLiteral)) {
    // `transport.send({ jsonrpc: '2.0', id, method: 'elicitation/create', params })`: a hand-built request.
    receiverRole = 'mcpReq';
  }
  return {
    callee: chain,
    methodLiteral,
    resultSchemaName: second ? lastName(second) : undefined,
    receiverIsServer: receiverNode ? isServerInstance(sourceCode, receiverNode) : false,
    bareFromLegacyReceiver:
      bare.type === AST_NODE_TYPES.Identifier && (alias !== undefined || isFromLegacyReceiver(sourceCode, bare)),
    serverSideFile: true,
    ...(receiverRole ? { receiverRole } : {}),
  };
}

/**
 * `client['sampling/createMessage'](params)`: another library's protocol client keyed by the spec
 * method (Effect's McpServer client), sent as a `request` by that method, as the analyzer does.
 */
function keyedRequest(callee: TSESTree.Node, method: string): LegacyCallMatch | undefined {
  const c = unwrap(callee);
  if (c.type !== AST_NODE_TYPES.MemberExpression || !c.computed) return undefined;
  return matchLegacyCall({ callee: [...memberPath(c.object), 'request'], methodLiteral: method, serverSideFile: true, receiverRole: 'server' });
}

function isSpecMethod(method: string): boolean {
  return Object.hasOwn(SPEC_METHODS, method);
}

/** `fn.call(thisArg, …args)` / `fn.apply(thisArg, [args])`: the function invoked and the arguments it gets. */
function invocationOf(call: TSESTree.CallExpression): { fn: TSESTree.Node; args: readonly TSESTree.Node[] } | undefined {
  const head = unwrap(call.callee);
  if (head.type !== AST_NODE_TYPES.MemberExpression || head.computed || head.property.type !== AST_NODE_TYPES.Identifier) return undefined;
  if (!INVOKE_METHODS.has(head.property.name)) return undefined;
  if (head.property.name === 'call') return { fn: head.object, args: call.arguments.slice(1) };
  const list = call.arguments[1] ? unwrap(call.arguments[1]) : undefined;
  return { fn: head.object, args: list?.type === AST_NODE_TYPES.ArrayExpression ? list.elements.filter((e): e is TSESTree.Expression => e !== null) : [] };
}

/**
 * `this.elicitInput(...)` inside a class is the class calling its own method (a framework wrapping the
 * ask: the ask inside that method is the site), unless the class extends the protocol `Server` and does
 * not define the method itself. Mirrors the analyzer's own-method test.
 */
function isOwnMethodCall(receiver: TSESTree.Node, name: string): boolean {
  const r = unwrap(receiver);
  const body = enclosingClassBody(r);
  if (!body) return false;
  const self = r.type === AST_NODE_TYPES.ThisExpression || r.type === AST_NODE_TYPES.Super || isSelfGetter(r, body);
  if (!self) return false;
  if (body.body.some((m) => memberName(m) === name)) return true;
  const base = body.parent.superClass;
  return !base || !SERVER_CLASS_NAMES.has(memberPath(base).at(-1) ?? '');
}

function enclosingClassBody(node: TSESTree.Node): TSESTree.ClassBody | undefined {
  let current: TSESTree.Node | undefined = node.parent;
  while (current && current.type !== AST_NODE_TYPES.ClassBody) current = current.parent;
  return current;
}

function memberName(member: TSESTree.ClassElement): string | undefined {
  if (!('key' in member) || !member.key) return undefined;
  return propertyName(member.key, 'computed' in member && member.computed);
}

/** `this.self` where the class's getter `self` ends by returning `this`. */
function isSelfGetter(node: TSESTree.Node, body: TSESTree.ClassBody): boolean {
  if (node.type !== AST_NODE_TYPES.MemberExpression || unwrap(node.object).type !== AST_NODE_TYPES.ThisExpression) return false;
  const name = propertyName(node.property, node.computed);
  const getter = body.body.find((m): m is TSESTree.MethodDefinition => m.type === AST_NODE_TYPES.MethodDefinition && m.kind === 'get' && memberName(m) === name);
  const last = getter?.value.body?.body.at(-1);
  return last?.type === AST_NODE_TYPES.ReturnStatement && !!last.argument && unwrap(last.argument).type === AST_NODE_TYPES.ThisExpression;
}

/**
 * `const ask = ctx.mcpReq.elicitInput` (or `.bind(...)` of it, or `a.elicitInput ?? b.elicitInput`) →
 * `['ctx','mcpReq','elicitInput']`; `const { sendRequest } = extra` → `['extra','sendRequest']`;
 * `const ask = getAsk(server)` where `getAsk`, declared in this file, returns such a read.
 */
function aliasedChain(sourceCode: Readonly<TSESLint.SourceCode>, id: TSESTree.Identifier): string[] | undefined {
  const def = findVariable(sourceCode, id)?.defs[0];
  if (def?.type !== 'Variable' || !def.node.init) return undefined;
  const init = unwrap(def.node.init);
  if (def.node.id.type === AST_NODE_TYPES.Identifier) return legacyMethodRead(init) ?? returnedMethodRead(sourceCode, init);
  if (def.node.id.type === AST_NODE_TYPES.ObjectPattern) {
    for (const prop of def.node.id.properties) {
      if (prop.type !== AST_NODE_TYPES.Property || prop.value !== def.name) continue;
      const key = prop.computed ? undefined : prop.key.type === AST_NODE_TYPES.Identifier ? prop.key.name : staticString(prop.key);
      if (key && LEGACY_NAMES.has(key)) return [...memberPath(init), key];
    }
  }
  return undefined;
}

/** The chain of a legacy method read: `x.elicitInput`, `x.elicitInput.bind(x)`, either side of `??`/`||`/`?:` (the analyzer's legacyMethodRead). */
function legacyMethodRead(node: TSESTree.Node, depth = 0): string[] | undefined {
  if (depth > 6) return undefined;
  const e = unwrap(node);
  if (e.type === AST_NODE_TYPES.MemberExpression) {
    const chain = memberPath(e);
    return LEGACY_NAMES.has(chain.at(-1) ?? '') ? chain : undefined;
  }
  if (e.type === AST_NODE_TYPES.CallExpression && memberPath(e.callee).at(-1) === 'bind') {
    const target = receiverOf(e.callee);
    return target ? legacyMethodRead(target, depth + 1) : undefined;
  }
  if (e.type === AST_NODE_TYPES.LogicalExpression && e.operator !== '&&') return legacyMethodRead(e.left, depth + 1) ?? legacyMethodRead(e.right, depth + 1);
  if (e.type === AST_NODE_TYPES.ConditionalExpression) return legacyMethodRead(e.consequent, depth + 1) ?? legacyMethodRead(e.alternate, depth + 1);
  return undefined;
}

/** `getAsk(server)` (awaited or not) where `getAsk` is a function of this file returning a legacy method read. */
function returnedMethodRead(sourceCode: Readonly<TSESLint.SourceCode>, init: TSESTree.Node): string[] | undefined {
  const call = unwrapAwait(init);
  if (call.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const fn = localFunction(sourceCode, unwrap(call.callee));
  if (!fn) return undefined;
  for (const value of returnedExpressions(fn)) {
    const chain = legacyMethodRead(value);
    if (chain) return chain;
  }
  return undefined;
}

/** The object a method is called on (`a.b.c(...)` → `a.b`), or undefined for a bare call. */
function receiverOf(callee: TSESTree.Node): TSESTree.Node | undefined {
  const c = unwrap(callee);
  return c.type === AST_NODE_TYPES.MemberExpression ? unwrap(c.object) : undefined;
}

/**
 * The request's `method` when statically known: `{ method: 'roots/list' }`, through a local const
 * holding the request object, and a `method` value read from a local const object (`M.elicit`).
 */
function methodLiteralOf(sourceCode: Readonly<TSESLint.SourceCode>, arg: TSESTree.Node): string | undefined {
  const request = constValue(sourceCode, arg);
  if (request?.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  const method = findProperty(request, 'method');
  if (!method) return undefined;
  return stringValue(sourceCode, method.value);
}

function stringValue(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node): string | undefined {
  const direct = staticString(node);
  if (direct !== undefined) return direct;
  const n = unwrap(node);
  if (n.type === AST_NODE_TYPES.Identifier) {
    const value = constValue(sourceCode, n);
    return value && value !== n ? staticString(value) : undefined;
  }
  if (n.type === AST_NODE_TYPES.MemberExpression && !n.computed && n.property.type === AST_NODE_TYPES.Identifier) {
    const holder = constValue(sourceCode, n.object);
    if (holder?.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
    const prop = findProperty(holder, n.property.name);
    return prop ? staticString(prop.value) : undefined;
  }
  return undefined;
}

/** Follows identifiers to the initialiser of a `const` (a few hops at most). */
function constValue(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node): TSESTree.Node | undefined {
  let current = unwrap(node);
  for (let hops = 0; hops < 4 && current.type === AST_NODE_TYPES.Identifier; hops++) {
    const value = singleValueOf(sourceCode, current);
    if (!value) return undefined;
    current = unwrap(value);
  }
  return current;
}

/** `ElicitResultSchema` or `types.ElicitResultSchema` → `ElicitResultSchema`. */
function lastName(node: TSESTree.Node): string | undefined {
  const path = memberPath(node);
  const last = path[path.length - 1];
  return last === '?' ? undefined : last;
}

/**
 * A receiver that is a protocol `Server` although not named `server`: a variable (or class field)
 * initialised with `new Server(...)` or annotated `: Server`.
 */
function isServerInstance(sourceCode: Readonly<TSESLint.SourceCode>, receiver: TSESTree.Node): boolean {
  if (receiver.type === AST_NODE_TYPES.Identifier) {
    const variable = findVariable(sourceCode, receiver);
    const def = variable?.defs[0];
    if (!def) return false;
    if (def.type === 'Variable') {
      return isServerConstruction(def.node.init) || isServerAnnotation(def.node.id.typeAnnotation) || isServerRead(def.node.init);
    }
    if (def.type === 'Parameter' && def.name.type === AST_NODE_TYPES.Identifier) {
      return isServerAnnotation(def.name.typeAnnotation);
    }
    return false;
  }
  if (
    receiver.type === AST_NODE_TYPES.MemberExpression &&
    receiver.object.type === AST_NODE_TYPES.ThisExpression &&
    !receiver.computed &&
    receiver.property.type === AST_NODE_TYPES.Identifier
  ) {
    const field = classField(receiver, receiver.property.name);
    return field !== undefined && (isServerConstruction(field.value) || isServerAnnotation(field.typeAnnotation));
  }
  return false;
}

/**
 * `const low = (server as any).server ?? server`: a local name for the low-level server read off
 * `….server` (the left side of a fallback is what it holds when there is one).
 */
function isServerRead(init: TSESTree.Node | null | undefined): boolean {
  if (!init) return false;
  const n = unwrap(init);
  if (n.type === AST_NODE_TYPES.LogicalExpression && n.operator !== '&&') return isServerRead(n.left);
  return n.type === AST_NODE_TYPES.MemberExpression && memberPath(n).at(-1) === 'server';
}

function isServerConstruction(init: TSESTree.Node | null | undefined): boolean {
  if (!init) return false;
  const n = unwrap(init);
  if (n.type !== AST_NODE_TYPES.NewExpression) return false;
  const path = memberPath(n.callee);
  return path[path.length - 1] === 'Server';
}

function isServerAnnotation(annotation: TSESTree.TSTypeAnnotation | undefined): boolean {
  return annotation !== undefined && isServerType(annotation.typeAnnotation);
}

/** `Server`, `sdk.Server`, and `Server | null` / `Server | undefined` (a reference set later). */
function isServerType(type: TSESTree.TypeNode): boolean {
  if (type.type === AST_NODE_TYPES.TSUnionType) {
    const rest = type.types.filter((t) => t.type !== AST_NODE_TYPES.TSNullKeyword && t.type !== AST_NODE_TYPES.TSUndefinedKeyword);
    return rest.length === 1 && isServerType(rest[0]);
  }
  if (type.type !== AST_NODE_TYPES.TSTypeReference) return false;
  const name = type.typeName;
  if (name.type === AST_NODE_TYPES.Identifier) return name.name === 'Server';
  return name.type === AST_NODE_TYPES.TSQualifiedName && name.right.name === 'Server';
}

function classField(node: TSESTree.Node, name: string): TSESTree.PropertyDefinition | undefined {
  let current = node.parent;
  while (current && current.type !== AST_NODE_TYPES.ClassBody) current = current.parent;
  if (!current) return undefined;
  for (const member of current.body) {
    if (
      member.type === AST_NODE_TYPES.PropertyDefinition &&
      !member.computed &&
      member.key.type === AST_NODE_TYPES.Identifier &&
      member.key.name === name
    ) {
      return member;
    }
  }
  return undefined;
}

/**
 * A bare callee destructured off a legacy receiver: `const { elicitInput } = ctx.mcpReq`,
 * `const { sendRequest } = extra`, or a parameter pattern `(args, { mcpReq: { send } }) => …`.
 */
function isFromLegacyReceiver(sourceCode: Readonly<TSESLint.SourceCode>, id: TSESTree.Identifier): boolean {
  const variable = findVariable(sourceCode, id);
  const def = variable?.defs[0];
  if (!def || (def.type !== 'Variable' && def.type !== 'Parameter')) return false;
  // A legacy method passed on as an argument: `async function ask(send) { await send({ method: … }) }`.
  if (def.type === 'Parameter' && def.name === def.node.params.find((p) => p === def.name)) return true;
  // Walk from the binding up through the pattern, collecting the keys it was read through.
  const keys: string[] = [];
  let node: TSESTree.Node | undefined = def.name;
  while (node?.parent) {
    const parent: TSESTree.Node = node.parent;
    if (parent.type === AST_NODE_TYPES.Property && parent.value === node) {
      node = parent;
      continue;
    }
    if (parent.type === AST_NODE_TYPES.ObjectPattern) {
      const grand: TSESTree.Node | undefined = parent.parent;
      if (grand?.type === AST_NODE_TYPES.Property && grand.value === parent) {
        const key = grand.computed ? undefined : grand.key.type === AST_NODE_TYPES.Identifier ? grand.key.name : undefined;
        if (key) keys.unshift(key);
        node = grand;
        continue;
      }
      if (grand?.type === AST_NODE_TYPES.VariableDeclarator && grand.id === parent && grand.init) {
        return keys.length === 0 ? receiverLooksLegacy(memberPath(grand.init), id.name) : keys.includes('mcpReq');
      }
      // A destructured handler parameter: `{ mcpReq: { send } }` or v1 `{ sendRequest }`.
      return keys.length === 0 ? id.name === 'sendRequest' : keys[keys.length - 1] === 'mcpReq';
    }
    return false;
  }
  return false;
}

function receiverLooksLegacy(path: readonly string[], name: string): boolean {
  const last = path[path.length - 1];
  if (last === 'mcpReq') return true;
  if (last === 'server') return name === 'elicitInput';
  // v1 `extra` has any name; `sendRequest` is the distinctive one.
  return name === 'sendRequest';
}
