/**
 * The TypeScript-AST adapter of the shared vocabulary: turns a call into a `CallShape` and asks
 * `matchLegacyCall` whether it is a legacy server→client request.
 */
import ts from '../typescript.cjs';
import { enclosingFunction, memberChain, outerParent, propertyNameText, stringValue, unwrap } from './ast.js';
import { resolveBinding } from './bindings.js';
import { INVOKE_METHODS, legacyMethodRead, type FileIndex, type LegacyAlias } from './file-index.js';
import type { ValueRole } from './receivers.js';
import { LEGACY_METHODS, matchLegacyCall, SPEC_METHODS, TASK_STREAM_METHODS, isUrlElicitationErrorClass, type CallShape, type LegacyCallMatch, type ReceiverRole, type SiteForm, type SiteKind } from '../vocabulary.js';

export interface RawSite {
  /** The node whose start is the reported position: the call, or the `throw` statement. */
  node: ts.Node;
  call: ts.CallExpression | ts.NewExpression;
  kind: SiteKind;
  form: SiteForm;
  /** v1's experimental task stream (`experimental.tasks.elicitInputStream`, …): never servable by MRTR. */
  stream: boolean;
  /** Not the SDK's own call shape (the port cannot rewrite it in place): see `Indirection`. */
  indirect?: Indirection;
}

/**
 * How a request is made when not as `receiver.method(params)`: through `Function.prototype.call`/
 * `apply`, with the spec method as a positional argument (`request('roots/list', …)`), or as a
 * hand-built JSON-RPC message on a transport.
 */
export type Indirection = 'call-apply' | 'method-argument' | 'transport-message';

/** How detection learns what a receiver holds beyond its spelling (flow, then types). */
export interface ReceiverEvidence {
  /** Syntax: the value followed through the program. */
  flow(receiver: ts.Expression, index: FileIndex): ValueRole | undefined;
  /** The legacy method a call's result is, when the repo function called returns one. */
  returnedMethod?(call: ts.CallExpression, index: FileIndex): LegacyAlias | undefined;
  /** The receiver is the repository's own object, declaring a function `name` of its own. */
  ownsMethod?(receiver: ts.Expression, name: string, index: FileIndex): boolean;
}

/** A call that is a site only if its receiver turns out to be a protocol server (or `mcpReq`): the checker decides. */
export interface UndecidedCall {
  call: ts.CallExpression;
  receiver: ts.Expression;
  /** What the receiver would have to be. */
  needs: 'server' | 'mcpReq';
}

const LEGACY_NAMES = new Set(LEGACY_METHODS.map((m) => m.name));

export type Detection = { site: RawSite } | { undecided: UndecidedCall } | undefined;

export function detectSite(call: ts.CallExpression | ts.NewExpression, index: FileIndex, evidence?: ReceiverEvidence): Detection {
  if (ts.isNewExpression(call)) {
    const site = detectUrlElicitationThrow(call, index);
    return site ? { site } : undefined;
  }
  // `fn.call(thisArg, params)` / `fn.apply(thisArg, [params])` invoke `fn` with the arguments after thisArg
  const invoked = invocationOf(call);
  const calleeExpr = invoked?.fn ?? call.expression;
  const args = invoked?.args ?? call.arguments;
  let indirect: Indirection | undefined = invoked ? 'call-apply' : undefined;
  const keyed = specMethodKeyed(calleeExpr);
  if (keyed && isServerSide(index)) return keyedRequest(call, keyed);
  const written = memberChain(calleeExpr);
  let callee = written;
  let receiverExpr = receiverOf(calleeExpr);
  let bareFromLegacyReceiver = false;
  if (written.length === 1) {
    const at = unwrap(calleeExpr);
    const alias = index.legacyAliases.has(written[0]) ? aliasAt(at, written[0]) : index.callResults.has(written[0]) ? returnedAliasAt(at, written[0], index, evidence) : undefined;
    if (alias) {
      callee = alias.chain;
      receiverExpr = alias.receiver;
      bareFromLegacyReceiver = true;
    } else if (isParameterNamed(call, written[0])) {
      // a legacy method passed on as an argument: `async function ask(send) { await send({ method: 'elicitation/create', … }) }`
      bareFromLegacyReceiver = true;
    }
  }
  const name = callee[callee.length - 1];
  if (!LEGACY_NAMES.has(name)) return undefined;
  if (receiverExpr && isOwnMethodCall(receiverExpr, name)) return undefined;
  // `helper.requestSampling(p)` over `const helper = createHelper(server)` returning `{ async requestSampling(p) { … } }`
  if (receiverExpr && !bareFromLegacyReceiver && evidence?.ownsMethod?.(receiverExpr, name, index)) return undefined;

  const first = args[0] ? unwrap(args[0]) : undefined;
  const request = first ? resolveObjectLiteral(first) : undefined;
  const methodProp = request ? findProperty(request, 'method') : undefined;
  const second = args[1] ? unwrap(args[1]) : undefined;
  const receiver = callee.slice(0, -1);
  const serverSideFile = isServerSide(index);
  let methodLiteral = methodProp && ts.isPropertyAssignment(methodProp) ? stringValue(methodProp.initializer) : undefined;
  let receiverRole: ReceiverRole | undefined;
  if (first && RAW_REQUEST_NAMES.has(name) && serverSideFile) {
    const positional = stringValue(first);
    if (positional !== undefined && isSpecMethod(positional)) {
      // `client.request('elicitation/create', params)`: the method as an argument (another library's
      // protocol layer); only servers send these methods, whatever the receiver
      methodLiteral = positional;
      receiverRole = RAW_REQUEST_ROLE[name];
      indirect ??= 'method-argument';
    } else if (name === 'send' && request && methodLiteral !== undefined && isSpecMethod(methodLiteral) && findProperty(request, 'jsonrpc') && !index.isTest) {
      // `transport.send({ jsonrpc: '2.0', id, method: 'elicitation/create', params })`: a hand-built request
      receiverRole = 'mcpReq';
      indirect = 'transport-message';
    }
  }
  const base: CallShape = {
    callee,
    methodLiteral,
    resultSchemaName: second && (ts.isIdentifier(second) || ts.isPropertyAccessExpression(second)) ? memberChain(second).at(-1) : undefined,
    receiverIsServer: receiver.length > 0 && isServerReceiver(receiver, index),
    bareFromLegacyReceiver,
    serverSideFile,
    ...(receiverRole ? { receiverRole } : {}),
  };
  const site = (match: LegacyCallMatch): Detection => ({
    site: { node: call, call, kind: match.kind, form: match.form, stream: TASK_STREAM_METHODS.includes(match.method.name), ...(indirect ? { indirect } : {}) },
  });
  const direct = matchLegacyCall(base);
  if (direct) return site(direct);
  if (!receiverExpr || receiver.length === 0) return undefined;

  // the spelling did not decide: would a server (or mcpReq) receiver make it a site? then follow the value
  const asServer = matchLegacyCall({ ...base, receiverRole: 'server' });
  const asMcpReq = asServer ? undefined : matchLegacyCall({ ...base, receiverRole: 'mcpReq' });
  if (!asServer && !asMcpReq) return undefined;
  const role = evidence?.flow(receiverExpr, index);
  // a handler context is a protocol object too: its createMessage/listRoots are never an LLM client's
  if (asServer && (role === 'server' || role === 'context')) return site(asServer);
  if (asMcpReq && role === 'mcpReq') return site(asMcpReq);
  if (role !== undefined || !ts.isCallExpression(call)) return undefined;
  return { undecided: { call, receiver: receiverExpr, needs: asServer ? 'server' : 'mcpReq' } };
}

/**
 * `client['sampling/createMessage'](params)`: another library's protocol client keyed by the spec
 * method (Effect's `McpServerClient` RPC client), in a server-side file: sent as `request` by method,
 * with the method written as the key, like the spec method as an argument.
 */
function specMethodKeyed(callee: ts.Expression): { receiver: ts.Expression; method: string } | undefined {
  const c = unwrap(callee);
  if (!ts.isElementAccessExpression(c)) return undefined;
  const method = stringValue(unwrap(c.argumentExpression));
  return method !== undefined && isSpecMethod(method) ? { receiver: c.expression, method } : undefined;
}

function keyedRequest(call: ts.CallExpression, keyed: { receiver: ts.Expression; method: string }): Detection {
  const match = matchLegacyCall({
    callee: [...memberChain(keyed.receiver), 'request'],
    methodLiteral: keyed.method,
    resultSchemaName: undefined,
    receiverIsServer: false,
    bareFromLegacyReceiver: false,
    serverSideFile: true,
    receiverRole: 'server',
  });
  return match ? { site: { node: call, call, kind: match.kind, form: match.form, stream: false, indirect: 'method-argument' } } : undefined;
}

/** Raw request methods that may name the spec method as their first argument, and the receiver role that sends it. */
const RAW_REQUEST_NAMES: ReadonlySet<string> = new Set(['request', 'send', 'sendRequest']);
const RAW_REQUEST_ROLE: Readonly<Record<string, ReceiverRole>> = { request: 'server', send: 'mcpReq', sendRequest: 'extra' };

function isSpecMethod(method: string): boolean {
  return Object.prototype.hasOwnProperty.call(SPEC_METHODS, method);
}

/** `fn.call(thisArg, …args)` / `fn.apply(thisArg, [args])`: the function invoked and the arguments it gets. */
function invocationOf(call: ts.CallExpression): { fn: ts.Expression; args: readonly ts.Expression[] } | undefined {
  const head = unwrap(call.expression);
  if (!ts.isPropertyAccessExpression(head) || !INVOKE_METHODS.has(head.name.text)) return undefined;
  if (head.name.text === 'call') return { fn: head.expression, args: call.arguments.slice(1) };
  const list = call.arguments[1] ? unwrap(call.arguments[1]) : undefined;
  return { fn: head.expression, args: list && ts.isArrayLiteralExpression(list) ? list.elements : [] };
}

/** The site an undecided call is once the checker says its receiver is what it needs. */
export function siteOfConfirmed(u: UndecidedCall, index: FileIndex): RawSite | undefined {
  const found = detectSite(u.call, index, { flow: () => (u.needs === 'server' ? 'server' : 'mcpReq') });
  return found && 'site' in found ? found.site : undefined;
}

/** Sites, and calls only types can decide, of one parsed file. */
export function detectSites(index: FileIndex, evidence: ReceiverEvidence): { sites: RawSite[]; undecided: UndecidedCall[] } {
  const sites: RawSite[] = [];
  const undecided: UndecidedCall[] = [];
  for (const call of index.candidates) {
    const found = detectSite(call, index, evidence);
    if (!found) continue;
    if ('site' in found) sites.push(found.site);
    else undecided.push(found.undecided);
  }
  return { sites, undecided };
}

/**
 * A file that imports only the client side of the SDK answers requests; every other file may send
 * them. A test file drives a server through a client and is judged by its calls.
 */
export function isServerSide(index: FileIndex): boolean {
  return index.isTest || !(index.sides.has('client') && !index.sides.has('server'));
}

/**
 * The legacy method a bare name stands for where it is called: the declaration in scope,
 * `const ask = ctx.mcpReq.elicitInput` (optionally `.bind(…)`) or `const { send } = ctx.mcpReq`.
 */
function aliasAt(at: ts.Node, name: string): LegacyAlias | undefined {
  const b = resolveBinding(at, name);
  if (b && ts.isVariableDeclaration(b) && b.initializer) {
    const read = legacyMethodRead(b.initializer);
    if (read) return read;
  }
  if (b && ts.isBindingElement(b) && ts.isObjectBindingPattern(b.parent) && ts.isVariableDeclaration(b.parent.parent) && b.parent.parent.initializer) {
    const prop = propertyNameText(b.propertyName ?? b.name);
    const init = b.parent.parent.initializer;
    if (prop && LEGACY_NAMES.has(prop)) return { chain: [...memberChain(init), prop], receiver: init };
  }
  return undefined;
}

/**
 * `const ask = getAsk(ctx)` where the function called returns a legacy method (`return
 * ctx.mcpReq.elicitInput.bind(ctx.mcpReq)`): the method it returns, read where it is returned.
 */
function returnedAliasAt(at: ts.Node, name: string, index: FileIndex, evidence: ReceiverEvidence | undefined): LegacyAlias | undefined {
  const b = resolveBinding(at, name);
  if (!b || !ts.isVariableDeclaration(b) || !b.initializer || !evidence?.returnedMethod) return undefined;
  let init = unwrap(b.initializer);
  if (ts.isAwaitExpression(init)) init = unwrap(init.expression);
  return ts.isCallExpression(init) ? evidence.returnedMethod(init, index) : undefined;
}

/** The receiver expression of a member call's callee (`a.b` in `a.b.c(…)`), if it has one. */
function receiverOf(callee: ts.Expression): ts.Expression | undefined {
  const e = unwrap(callee);
  return ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e) ? e.expression : undefined;
}

/** `throw new UrlElicitationRequiredError(...)` (also under a renamed import); a bare `new` (not thrown on the spot) is not a site. */
function detectUrlElicitationThrow(expr: ts.NewExpression, index: FileIndex): RawSite | undefined {
  if (!isUrlElicitationErrorClass(memberChain(expr.expression), index.urlErrorNames)) return undefined;
  const holder = outerParent(expr).parent;
  if (!holder || !ts.isThrowStatement(holder)) return undefined;
  return { node: holder, call: expr, kind: 'elicitation', form: 'url-elicitation-error', stream: false };
}

/** A protocol Server held in a variable, field or parameter the file declares as such. */
function isServerReceiver(receiver: readonly string[], index: FileIndex): boolean {
  const last = receiver[receiver.length - 1];
  return index.serverNames.has(last) && (receiver.length === 1 || (receiver.length === 2 && receiver[0] === 'this'));
}

function isParameterNamed(node: ts.Node, name: string): boolean {
  for (let fn = enclosingFunction(node); fn; fn = enclosingFunction(fn)) {
    if (fn.parameters.some((p) => ts.isIdentifier(p.name) && p.name.text === name)) return true;
  }
  return false;
}

/**
 * `this.m(…)` / `super.m(…)` (or through a getter that returns `this`): the object's own method, not
 * a request to the client. A class that declares `m` implements it (the SDK's `Server#elicitInput`
 * calling `this.request`, a repo's forwarder): its site, if any, is inside. Only a class extending the
 * SDK's server inherits the real method.
 */
function isOwnMethodCall(receiver: ts.Expression, name: string): boolean {
  const r = unwrap(receiver);
  let self: ts.Node | undefined;
  if (r.kind === ts.SyntaxKind.ThisKeyword || r.kind === ts.SyntaxKind.SuperKeyword) self = r;
  else if (ts.isPropertyAccessExpression(r) && unwrap(r.expression).kind === ts.SyntaxKind.ThisKeyword && isGetterOfOwnClass(r)) self = r;
  if (!self) return false;
  const cls = ts.findAncestor(self, ts.isClassLike);
  if (!cls) return false;
  if (cls.members.some((m) => propertyNameText(m.name) === name)) return true;
  const bases = cls.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types ?? [];
  return !bases.some((b) => SERVER_CLASS_NAMES.has(memberChain(b.expression).at(-1) ?? ''));
}

const SERVER_CLASS_NAMES = new Set(['Server', 'McpServer']);

/** `this.self` where the class's getter `self` returns `this`. */
function isGetterOfOwnClass(access: ts.PropertyAccessExpression): boolean {
  const cls = ts.findAncestor(access, ts.isClassLike);
  const getter = cls?.members.find((m): m is ts.GetAccessorDeclaration => ts.isGetAccessorDeclaration(m) && propertyNameText(m.name) === access.name.text);
  const body = getter?.body?.statements;
  const last = body?.[body.length - 1];
  return !!last && ts.isReturnStatement(last) && !!last.expression && unwrap(last.expression).kind === ts.SyntaxKind.ThisKeyword;
}

/**
 * The object literal an argument is, or the one a `const` it names was initialised with (searched in
 * the enclosing blocks, then at module level).
 */
export function resolveObjectLiteral(arg: ts.Expression): ts.ObjectLiteralExpression | undefined {
  const e = unwrap(arg);
  if (ts.isObjectLiteralExpression(e)) return e;
  if (!ts.isIdentifier(e)) return undefined;
  const decl = findConstDeclaration(e, e.text);
  const init = decl?.initializer ? unwrap(decl.initializer) : undefined;
  return init && ts.isObjectLiteralExpression(init) ? init : undefined;
}

export function findConstDeclaration(from: ts.Node, name: string): ts.VariableDeclaration | undefined {
  for (let n: ts.Node | undefined = from.parent; n; n = n.parent) {
    const statements = ts.isBlock(n) || ts.isSourceFile(n) || ts.isModuleBlock(n) ? n.statements : ts.isCaseClause(n) || ts.isDefaultClause(n) ? n.statements : undefined;
    if (!statements) continue;
    for (const st of statements) {
      if (!ts.isVariableStatement(st) || !(st.declarationList.flags & ts.NodeFlags.Const)) continue;
      for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name) && d.name.text === name) return d;
    }
  }
  return undefined;
}

export function findProperty(obj: ts.ObjectLiteralExpression, name: string): ts.ObjectLiteralElementLike | undefined {
  return obj.properties.find((p) => !ts.isSpreadAssignment(p) && propertyNameText(p.name) === name);
}

