/**
 * What a function passed somewhere is: an eligible request handler (tools/call, prompts/get,
 * resources/read), another entry point MRTR cannot serve (notification handler, lifecycle hook,
 * timer, HTTP route, task relay, other request), a client-side handler, or just a callback.
 */
import ts from '../typescript.cjs';
import { calleeName, memberChain, outerParent, propertyNameText, stringValue, unwrap } from './ast.js';
import { findConstDeclaration } from './detect.js';
import type { ReasonId } from './reasons.js';
import {
  ELIGIBLE_REQUEST_METHODS,
  ELIGIBLE_REQUEST_SCHEMAS,
  INELIGIBLE_ENTRY_POINTS,
  REGISTRATION_METHODS,
  SET_REQUEST_HANDLER,
  SPEC_METHODS,
  type HandlerKind,
} from '../vocabulary.js';

export type EntryVerdict =
  | { type: 'handler'; kind: HandlerKind; name: string | null; nameDynamic: boolean; lowLevel: boolean; registration: ts.CallExpression }
  | { type: 'unportable'; reason: ReasonId }
  | { type: 'client' }
  /** A server factory (`createMcpHandler`/`serveStdio`): runs per connection, not per request. */
  | { type: 'factory' };

/** Client-side request schemas (the client answers these; the server sends them). */
const CLIENT_SIDE_SCHEMAS = new Set(['ElicitRequestSchema', 'CreateMessageRequestSchema', 'ListRootsRequestSchema']);
const HTTP_VERBS = new Set(['get', 'post', 'put', 'patch', 'delete', 'all', 'use', 'options', 'head']);
const HTTP_SERVER_FACTORIES = new Set(['createServer']);
const SERVER_FACTORIES = new Set(['createMcpHandler', 'serveStdio', 'legacyStatelessFallback']);
const TASK_REGISTRATIONS = new Set(['registerToolTask']);

/**
 * The verdict for a callback passed as argument `argIndex` of `call`; undefined when the call is
 * not an entry point (the callback is then an ordinary nested callback).
 */
export function classifyCallbackArgument(call: ts.CallExpression | ts.NewExpression, argIndex: number): EntryVerdict | undefined {
  const name = calleeName(call);
  if (!name) return undefined;
  const chain = memberChain(call.expression);
  const args = call.arguments ?? ts.factory.createNodeArray<ts.Expression>();
  const isLast = argIndex === args.length - 1;

  if (TASK_REGISTRATIONS.has(name) || (chain.includes('experimental') && chain.includes('tasks'))) {
    return { type: 'unportable', reason: 'task-relay' };
  }
  if (ts.isNewExpression(call)) return undefined;
  if (Object.prototype.hasOwnProperty.call(REGISTRATION_METHODS, name) && chain.length > 1 && isLast && args.length >= 2) {
    const first = unwrap(args[0]);
    if (ts.isStringLiteralLike(first) || ts.isIdentifier(first) || ts.isPropertyAccessExpression(first) || ts.isTemplateExpression(first)) {
      const toolName = stringValue(first) ?? constString(first) ?? null;
      return { type: 'handler', kind: REGISTRATION_METHODS[name], name: toolName, nameDynamic: toolName === null, lowLevel: false, registration: call };
    }
    return undefined;
  }
  if (name === SET_REQUEST_HANDLER && isLast && args.length >= 2) {
    return classifyRequestHandler(call);
  }
  if (name === INELIGIBLE_ENTRY_POINTS.notificationRegistration) return { type: 'unportable', reason: 'notification-handler' };
  if (INELIGIBLE_ENTRY_POINTS.timers.includes(name) && chain.length === 1) return { type: 'unportable', reason: 'timer' };
  if (name === 'nextTick' && chain[0] === 'process') return { type: 'unportable', reason: 'timer' };
  // `cron.schedule('*/5 * * * *', job)`, `scheduler.scheduleJob('0 * * * *', job)`
  if ((name === 'schedule' || name === 'scheduleJob') && chain.length > 1 && stringValue(args[0]) !== undefined) return { type: 'unportable', reason: 'timer' };
  if (chain.length === 1 && SERVER_FACTORIES.has(name)) return { type: 'factory' };
  if (HTTP_SERVER_FACTORIES.has(name)) return { type: 'unportable', reason: 'http-route' };
  if (HTTP_VERBS.has(name) && chain.length > 1 && args.length >= 2) {
    const path = stringValue(args[0]);
    if (path !== undefined && (path.startsWith('/') || path === '*')) return { type: 'unportable', reason: 'http-route' };
  }
  // another protocol layer's method table: `rpc.addMethod('notifications/roots/list_changed', cb)`
  if (chain.length > 1 && isLast && args.length >= 2 && stringValue(args[0])?.startsWith(NOTIFICATION_PREFIX)) return { type: 'unportable', reason: 'notification-handler' };
  return undefined;
}

/** The spec's notification methods all start so (`notifications/initialized`, `notifications/roots/list_changed`). */
const NOTIFICATION_PREFIX = 'notifications/';

/** A name given through a `const` bound to a string literal (`const name = 'refund'`). */
function constString(expr: ts.Expression): string | undefined {
  if (!ts.isIdentifier(expr)) return undefined;
  const decl = findConstDeclaration(expr, expr.text);
  return stringValue(decl?.initializer);
}

function classifyRequestHandler(call: ts.CallExpression): EntryVerdict {
  const first = unwrap(call.arguments[0]);
  const method = stringValue(first) ?? memberChain(first).at(-1) ?? '';
  const eligible = ELIGIBLE_REQUEST_METHODS[method] ?? ELIGIBLE_REQUEST_METHODS[ELIGIBLE_REQUEST_SCHEMAS[method] ?? ''];
  if (eligible) return { type: 'handler', kind: eligible, name: null, nameDynamic: false, lowLevel: true, registration: call };
  if (Object.prototype.hasOwnProperty.call(SPEC_METHODS, method) || CLIENT_SIDE_SCHEMAS.has(method)) return { type: 'client' };
  if (method.startsWith('tasks/') || /Task/.test(method)) return { type: 'unportable', reason: 'task-relay' };
  return { type: 'unportable', reason: 'ineligible-request' };
}

/** Route handlers exported by HTTP method name (Next.js `route.ts` files and the like): `export async function POST(req)`. */
const HTTP_METHOD_EXPORTS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);

export function isHttpMethodExport(name: string | undefined, exported: boolean): boolean {
  return exported && name !== undefined && HTTP_METHOD_EXPORTS.has(name);
}

/** `server.oninitialized = () => …` and the other lifecycle hooks. */
export function classifyAssignment(fnOrRef: ts.Node): EntryVerdict | undefined {
  const outer = outerParent(fnOrRef);
  const p = outer.parent;
  if (p && ts.isBinaryExpression(p) && p.operatorToken.kind === ts.SyntaxKind.EqualsToken && p.right === outer) {
    const target = memberChain(p.left).at(-1) ?? '';
    if (INELIGIBLE_ENTRY_POINTS.lifecycleHooks.includes(target)) return { type: 'unportable', reason: 'lifecycle-hook' };
  }
  return undefined;
}

/** A class member a framework registers through a decorator: `@Tool({ name: 'greet' })`, `@McpPrompt('x')`. */
export interface DecoratedHandler {
  kind: HandlerKind;
  name: string | null;
  /** The package the decorator comes from (`@rekog/mcp-nest`), else the decorator's name. */
  framework: string;
}

const DECORATOR_KINDS: ReadonlyArray<[RegExp, HandlerKind]> = [
  [/tool$/i, 'tool'],
  [/prompt$/i, 'prompt'],
  [/resource(template)?$/i, 'resource'],
];

export function decoratedHandler(fn: ts.FunctionLikeDeclaration): DecoratedHandler | undefined {
  if (!ts.isMethodDeclaration(fn) && !ts.isPropertyDeclaration(outerParent(fn).parent ?? fn)) return undefined;
  const holder = ts.isMethodDeclaration(fn) ? fn : (outerParent(fn).parent as ts.PropertyDeclaration);
  for (const d of ts.getDecorators(holder) ?? []) {
    const e = unwrap(d.expression);
    const callee = ts.isCallExpression(e) ? e.expression : e;
    const decoratorName = memberChain(callee).at(-1) ?? '';
    const kind = DECORATOR_KINDS.find(([re]) => re.test(decoratorName))?.[1];
    if (!kind) continue;
    const args = ts.isCallExpression(e) ? e.arguments : undefined;
    const meta = args?.[0] ? unwrap(args[0]) : undefined;
    let name: string | null = stringValue(meta) ?? null;
    if (meta && ts.isObjectLiteralExpression(meta)) {
      const prop = meta.properties.find((p) => ts.isPropertyAssignment(p) && (propertyNameText(p.name) === 'name' || propertyNameText(p.name) === 'uri'));
      name = prop && ts.isPropertyAssignment(prop) ? (stringValue(prop.initializer) ?? null) : null;
    }
    // without metadata naming it, `@Tool` alone still declares a tool named after the method
    if (name === null && !meta) name = propertyNameText(holder.name) ?? null;
    return { kind, name, framework: decoratorPackage(holder.getSourceFile(), memberChain(callee)[0]) ?? decoratorName };
  }
  return undefined;
}

/**
 * A callback (or an object of callbacks) handed to another library's tool, prompt or resource
 * registration (`server.addTool({ name, execute })` in FastMCP, `server.tool({ name }, cb)` in tmcp):
 * an eligible handler, but registered by code the port does not know. `call` is not the SDK's (the
 * caller checked) nor a repo function.
 */
export function frameworkRegistration(call: ts.CallExpression, argIndex: number): DecoratedHandler | undefined {
  const method = memberChain(call.expression).at(-1) ?? '';
  const kind = FRAMEWORK_METHODS.find(([re]) => re.test(method))?.[1];
  if (!kind) return undefined;
  let name: string | null = stringValue(call.arguments[0]) ?? null;
  const described = [call.arguments[argIndex], call.arguments[0]].map((a) => (a ? unwrap(a) : undefined)).find((a) => a && ts.isObjectLiteralExpression(a));
  if (name === null && described && ts.isObjectLiteralExpression(described)) {
    const prop = described.properties.find((p) => ts.isPropertyAssignment(p) && (propertyNameText(p.name) === 'name' || propertyNameText(p.name) === 'uri'));
    name = prop && ts.isPropertyAssignment(prop) ? (stringValue(prop.initializer) ?? null) : null;
  }
  const root = memberChain(call.expression)[0];
  return { kind, name, framework: receiverPackage(call.getSourceFile(), root) ?? method };
}

const FRAMEWORK_METHODS: ReadonlyArray<[RegExp, HandlerKind]> = [
  [/^(add|register|define)?tool$/i, 'tool'],
  [/^(add|register|define)?prompt$/i, 'prompt'],
  [/^(add|register|define)?resource(template)?$/i, 'resource'],
];

/** The package a receiver comes from: imported itself, or a module-level `new X(…)` / `X(…)` of an imported X. */
function receiverPackage(sf: ts.SourceFile, root: string | undefined): string | undefined {
  if (!root) return undefined;
  const direct = decoratorPackage(sf, root);
  if (direct) return direct;
  for (const st of sf.statements) {
    if (!ts.isVariableStatement(st)) continue;
    for (const d of st.declarationList.declarations) {
      if (!ts.isIdentifier(d.name) || d.name.text !== root || !d.initializer) continue;
      const init = unwrap(d.initializer);
      const made = ts.isNewExpression(init) || ts.isCallExpression(init) ? memberChain(init.expression)[0] : undefined;
      return decoratorPackage(sf, made);
    }
  }
  return undefined;
}

/** The module a decorator's name is imported from. */
function decoratorPackage(sf: ts.SourceFile, local: string | undefined): string | undefined {
  if (!local) return undefined;
  for (const st of sf.statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier) || !st.importClause) continue;
    const nb = st.importClause.namedBindings;
    const named = nb && ts.isNamedImports(nb) && nb.elements.some((el) => el.name.text === local);
    const ns = nb && ts.isNamespaceImport(nb) && nb.name.text === local;
    if (named || ns || st.importClause.name?.text === local) return st.moduleSpecifier.text;
  }
  return undefined;
}
