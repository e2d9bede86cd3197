/**
 * Which request a callback serves, read from where it is registered (syntactically, by the names in
 * src/vocabulary.ts). Only `tools/call`, `prompts/get` and `resources/read` handlers may return
 * `input_required`; everything else registered on a server is "ineligible".
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import {
  ELIGIBLE_REQUEST_METHODS,
  ELIGIBLE_REQUEST_SCHEMAS,
  INELIGIBLE_ENTRY_POINTS,
  REGISTRATION_METHODS,
  SET_REQUEST_HANDLER,
  SPEC_METHODS,
} from '../../src/vocabulary.js';
import { memberPath, propertyName, staticString, unwrap } from './expressions.js';
import type { FunctionNode } from './resolve.js';
import { findVariable } from './resolve.js';

export type HandlerRole =
  | { eligible: true; serves: string }
  | { eligible: false; serves: string; why: IneligibleReason };

/** Why a role cannot ask (the analyzer's reason id for a legacy site there, src/analyzer/reasons.ts). */
export type IneligibleReason = 'notification-handler' | 'lifecycle-hook' | 'ineligible-request';

/** v2 request-method names of common v1 request schemas, for messages (`ListToolsRequestSchema` → `tools/list`). */
const SCHEMA_METHODS: Readonly<Record<string, string>> = {
  ListToolsRequestSchema: 'tools/list',
  ListPromptsRequestSchema: 'prompts/list',
  ListResourcesRequestSchema: 'resources/list',
  ListResourceTemplatesRequestSchema: 'resources/templates/list',
  SubscribeRequestSchema: 'resources/subscribe',
  UnsubscribeRequestSchema: 'resources/unsubscribe',
  CompleteRequestSchema: 'completion/complete',
  SetLevelRequestSchema: 'logging/setLevel',
  InitializeRequestSchema: 'initialize',
  PingRequestSchema: 'ping',
};

const NOTIFICATION_REGISTRATION = INELIGIBLE_ENTRY_POINTS.notificationRegistration;
const COMPLETABLE = 'completable';
const RESOURCE_TEMPLATE = 'ResourceTemplate';
/** The port's handler wrapper (docs/engine.md), imported from `./mrtr-flow.js`. */
const RESUMABLE = 'resumable';

/** The role of the nearest enclosing function that has one (inner helpers inherit it). */
export function enclosingRole(node: TSESTree.Node, named: NamedHandlerRoles): HandlerRole | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (!isFunction(current)) continue;
    const role = roleAtDefinition(current) ?? named.roleOf(current);
    if (role) return role;
  }
  return undefined;
}

/** Is `node` inside a callback given to a timer (`setTimeout(() => …)`) before any handler encloses it? */
export function insideTimer(node: TSESTree.Node, named: NamedHandlerRoles): boolean {
  for (let current = node.parent; current; current = current.parent) {
    if (!isFunction(current)) continue;
    if (roleAtDefinition(current) ?? named.roleOf(current)) return false;
    const call = current.parent;
    if (call?.type === AST_NODE_TYPES.CallExpression && call.arguments.includes(current as TSESTree.CallExpressionArgument)) {
      const callee = memberPath(call.callee).at(-1);
      if (callee !== undefined && INELIGIBLE_ENTRY_POINTS.timers.includes(callee)) return true;
    }
  }
  return false;
}

/** Calls that can register a callback by name (the cheap test before looking at arguments). */
export const REGISTRATION_NAMES = new Set([
  SET_REQUEST_HANDLER,
  INELIGIBLE_ENTRY_POINTS.notificationRegistration,
  COMPLETABLE,
  // `routes.set('tools/list', listTools)`
  'set',
  ...Object.keys(REGISTRATION_METHODS),
]);

function isFunction(node: TSESTree.Node): node is FunctionNode {
  return (
    node.type === AST_NODE_TYPES.FunctionDeclaration ||
    node.type === AST_NODE_TYPES.FunctionExpression ||
    node.type === AST_NODE_TYPES.ArrowFunctionExpression
  );
}

/** The role of a callback by where it is written (an argument, an option, an assigned hook), if it has one. */
export function roleAtDefinition(fn: FunctionNode): HandlerRole | undefined {
  return roleOfUse(fn.type === AST_NODE_TYPES.FunctionDeclaration ? undefined : fn);
}

/**
 * Roles of functions registered by name (`server.setRequestHandler('tools/list', listTools)`): call
 * `collect` on every CallExpression and AssignmentExpression, then look functions up.
 */
export class NamedHandlerRoles {
  private readonly roles = new Map<FunctionNode, HandlerRole>();

  constructor(private readonly sourceCode: Readonly<TSESLint.SourceCode>) {}

  collect(node: TSESTree.CallExpression | TSESTree.AssignmentExpression | TSESTree.Property): void {
    const candidates =
      node.type === AST_NODE_TYPES.CallExpression ? node.arguments : node.type === AST_NODE_TYPES.Property ? [node.value] : [node.right];
    for (const arg of candidates) {
      const id = unwrap(arg);
      if (id.type !== AST_NODE_TYPES.Identifier) continue;
      const role = roleOfUse(id);
      if (!role) continue;
      const fn = this.functionNamed(id);
      if (fn && !this.roles.has(fn)) this.roles.set(fn, role);
    }
  }

  roleOf(fn: FunctionNode): HandlerRole | undefined {
    return this.roles.get(fn);
  }

  private functionNamed(id: TSESTree.Identifier): FunctionNode | undefined {
    const def = findVariable(this.sourceCode, id)?.defs[0];
    if (!def) return undefined;
    if (def.type === 'FunctionName' && def.node.type === AST_NODE_TYPES.FunctionDeclaration) return def.node;
    if (def.type === 'Variable' && def.node.init) {
      const init = unwrap(def.node.init);
      if (init.type === AST_NODE_TYPES.ArrowFunctionExpression || init.type === AST_NODE_TYPES.FunctionExpression) {
        return init;
      }
    }
    return undefined;
  }
}

/** The role of a callback expression by its position (argument of a registration, option, hook). */
function roleOfUse(node: TSESTree.Node | undefined): HandlerRole | undefined {
  if (!node) return undefined;
  let value: TSESTree.Node = node;
  // Look through wrappers that pass the callback on unchanged.
  while (value.parent && isTransparent(value.parent, value)) value = value.parent;
  const parent = value.parent;
  if (!parent) return undefined;

  if (parent.type === AST_NODE_TYPES.CallExpression && parent.arguments.includes(value as TSESTree.CallExpressionArgument)) {
    return roleAsArgument(parent, value);
  }
  if (parent.type === AST_NODE_TYPES.AssignmentExpression && parent.right === value) {
    const path = memberPath(parent.left);
    const hook = path[path.length - 1];
    if (INELIGIBLE_ENTRY_POINTS.lifecycleHooks.includes(hook)) return { eligible: false, serves: `\`${hook}\` hook`, why: 'lifecycle-hook' };
    // A method-keyed handler map: `handlers['tools/list'] = fn`.
    return parent.left.type === AST_NODE_TYPES.MemberExpression ? roleOfMethodKey(staticKey(parent.left)) : undefined;
  }
  if (parent.type === AST_NODE_TYPES.Property && parent.value === value) {
    return roleAsTemplateOption(parent) ?? roleOfMethodKey(propertyName(parent.key, parent.computed));
  }
  return undefined;
}

/** `m['tools/list']` / `m.initialize` → the key written. */
function staticKey(member: TSESTree.MemberExpression): string | undefined {
  return propertyName(member.property, member.computed);
}

/** Request methods with no `/` in their name; any other method-map key names a method only when it has one. */
const SLASHLESS_METHODS = new Set(['initialize', 'ping']);

/**
 * The role of a handler stored under a JSON-RPC method name in a dispatch map (`{ 'tools/call': fn }`,
 * `handlers['tools/list'] = fn`, `routes.set('prompts/list', fn)`), as hand-written servers do.
 */
export function roleOfMethodKey(key: string | undefined): HandlerRole | undefined {
  if (key === undefined || !(SLASHLESS_METHODS.has(key) || /^[a-z][\w-]*(\/[\w-]+)+$/i.test(key))) return undefined;
  // `elicitation/create` & co. are requests the client serves (a client's own dispatch map).
  if (Object.hasOwn(SPEC_METHODS, key)) return undefined;
  return Object.hasOwn(ELIGIBLE_REQUEST_METHODS, key) ? { eligible: true, serves: key } : { eligible: false, serves: `\`${key}\` handler`, why: 'ineligible-request' };
}


function roleAsArgument(call: TSESTree.CallExpression, callback: TSESTree.Node): HandlerRole | undefined {
  const path = memberPath(call.callee);
  const name = path[path.length - 1];
  const isLast = call.arguments[call.arguments.length - 1] === callback;
  if (name === SET_REQUEST_HANDLER && isLast && call.arguments.length >= 2) {
    return roleOfRequestMethod(call.arguments[0]);
  }
  if (name === NOTIFICATION_REGISTRATION && isLast) return { eligible: false, serves: 'notification handler', why: 'notification-handler' };
  if (name === COMPLETABLE) return { eligible: false, serves: 'completion callback (`completion/complete`)', why: 'ineligible-request' };
  // `resumable(name, fn)` (the port's wrapper) hands `fn` on unchanged: the role is the wrapper's.
  if (name === RESUMABLE && call.arguments[1] === callback) return roleOfUse(call);
  // `routes.set('tools/list', fn)`: a Map used as a method-keyed dispatch table.
  if (name === 'set' && isLast && call.arguments.length === 2) return roleOfMethodKey(staticString(call.arguments[0]));
  if (path.length >= 2 && Object.hasOwn(REGISTRATION_METHODS, name) && isLast) {
    return { eligible: true, serves: `${REGISTRATION_METHODS[name]} callback` };
  }
  return undefined;
}

function roleOfRequestMethod(first: TSESTree.Node): HandlerRole | undefined {
  const method = staticString(first);
  if (method !== undefined) {
    return Object.hasOwn(ELIGIBLE_REQUEST_METHODS, method)
      ? { eligible: true, serves: method }
      : { eligible: false, serves: `\`${method}\` handler`, why: 'ineligible-request' };
  }
  const path = memberPath(first);
  const schema = path[path.length - 1];
  if (Object.hasOwn(ELIGIBLE_REQUEST_SCHEMAS, schema)) return { eligible: true, serves: ELIGIBLE_REQUEST_SCHEMAS[schema] };
  if (Object.hasOwn(SCHEMA_METHODS, schema)) return { eligible: false, serves: `\`${SCHEMA_METHODS[schema]}\` handler`, why: 'ineligible-request' };
  // Any other `*RequestSchema` is some other request; a non-literal method is unknown.
  if (schema.endsWith('RequestSchema')) return { eligible: false, serves: `\`${schema}\` handler`, why: 'ineligible-request' };
  return undefined;
}

/** `new ResourceTemplate(uri, { list: cb, complete: { name: cb } })`: list and completion callbacks. */
function roleAsTemplateOption(prop: TSESTree.Property): HandlerRole | undefined {
  const key = propertyName(prop.key, prop.computed);
  const object = prop.parent;
  if (object.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  if (key === 'list' && isTemplateOptions(object)) return { eligible: false, serves: 'resource template `list` callback (`resources/list`)', why: 'ineligible-request' };
  const outer = object.parent;
  if (outer?.type === AST_NODE_TYPES.Property && propertyName(outer.key, outer.computed) === 'complete') {
    const options = outer.parent;
    if (options.type === AST_NODE_TYPES.ObjectExpression && isTemplateOptions(options)) {
      return { eligible: false, serves: 'resource template `complete` callback (`completion/complete`)', why: 'ineligible-request' };
    }
  }
  return undefined;
}

function isTemplateOptions(object: TSESTree.ObjectExpression): boolean {
  const parent = object.parent;
  if (parent?.type !== AST_NODE_TYPES.NewExpression) return false;
  const path = memberPath(parent.callee);
  return path[path.length - 1] === RESOURCE_TEMPLATE;
}

/** Nodes a callback passes through unchanged on its way to the registration (`cb as X`, `(cb)`). */
function isTransparent(parent: TSESTree.Node, child: TSESTree.Node): boolean {
  switch (parent.type) {
    case AST_NODE_TYPES.TSAsExpression:
    case AST_NODE_TYPES.TSSatisfiesExpression:
    case AST_NODE_TYPES.TSNonNullExpression:
    case AST_NODE_TYPES.TSTypeAssertion:
      return parent.expression === child;
    default:
      return false;
  }
}
