/**
 * What counts as a side effect, syntactically (for `no-side-effects-before-last-answer` and
 * `require-at-most-once-final-round`): assignments to state outside the handler, awaited calls whose
 * name reads like a write (`save*`, `charge*`, `notify*`; an unknown name such as `describeTargets` is
 * not an effect), writes through fs/db/http clients, mutating methods on outside state, and `fetch` with
 * a non-GET method.
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { findProperty, memberPath, staticString, unwrap } from './expressions.js';
import { findVariable } from './resolve.js';
import { BUILTIN_MUTATOR_NAMES } from '../../src/analyzer/plan/builtins.js';

export interface EffectPatterns {
  /** Callee patterns that are reads (never effects when awaited). */
  readonly pure: readonly CalleePattern[];
  /** Callee patterns that are always effects, awaited or not (wins over `pure`). */
  readonly effect: readonly CalleePattern[];
}

export type CalleePattern = (dotted: string, name: string) => boolean;

/**
 * Names (camelCase prefixes) of calls that only read: `get`, `getUser`, `findMany`, … but not `getaway`.
 * `open` is the continuation's open; `seal`/`mint` are pure encodings of state.
 */
const READ_PREFIXES = [
  'get', 'find', 'list', 'read', 'stat', 'lstat', 'exists', 'has', 'is', 'count', 'search', 'lookup', 'load',
  'select', 'fetch', 'open', 'seal', 'mint', 'verify', 'bind', 'parse', 'safeParse', 'validate', 'digest', 'hash',
  'inputResponse', 'acceptedContent', 'requestState', 'sleep', 'delay', 'check', 'can', 'compute', 'resolve',
  'format', 'render',
];

/** Receivers whose calls are logging, not state changes. */
const LOG_RECEIVERS = new Set(['console', 'logger', 'log']);

/** `Promise.*` combinators: their array elements are what is awaited. */
const PROMISE_COMBINATORS = new Set(['all', 'allSettled', 'race', 'any']);

/** Names (camelCase prefixes) of calls that write when made on an fs/db/http client. */
const WRITE_PREFIXES = [
  'write', 'append', 'insert', 'update', 'upsert', 'delete', 'del', 'remove', 'rm', 'rmdir', 'unlink', 'mkdir',
  'mkdtemp', 'rename', 'copy', 'cp', 'truncate', 'chmod', 'chown', 'symlink', 'link', 'utimes', 'save', 'create',
  'put', 'post', 'patch', 'send', 'publish', 'exec', 'spawn', 'fork', 'set', 'incr', 'decr', 'hset', 'lpush',
  'rpush', 'sadd', 'expire', 'charge', 'pay', 'refund', 'transfer', 'enqueue', 'request', 'commit',
];

/**
 * More verbs that read like a write when they start an awaited call's name, whatever the receiver
 * (`notifyTeam`, `rooms.reserve`, `provisionVm`). An awaited call whose name is none of these nor a
 * write verb above is not an effect: unknown names are mostly reads (`describeTargets`, `previewPlan`).
 */
const EFFECT_VERBS = [
  'notify', 'email', 'mail', 'sms', 'alert', 'emit', 'dispatch', 'broadcast', 'trigger', 'schedule',
  'reserve', 'book', 'acquire', 'lock', 'unlock', 'release', 'grant', 'revoke', 'approve', 'reject', 'assign',
  'provision', 'deploy', 'install', 'uninstall', 'apply', 'submit', 'merge', 'tag', 'archive', 'restore', 'purge',
  'wipe', 'drop', 'destroy', 'kill', 'terminate', 'start', 'stop', 'restart', 'reset', 'clear', 'cancel',
  'increment', 'decrement', 'add', 'push', 'store', 'persist', 'record', 'track', 'audit', 'upload',
  'move', 'mv', 'replace', 'modify', 'edit', 'withdraw', 'deposit', 'purchase', 'buy', 'sell', 'invite',
  'register', 'unregister', 'subscribe', 'unsubscribe', 'execute',
];

/** Receiver names that are clients of something outside the process. */
const CLIENT_NAMES = new Set([
  'fs', 'fsp', 'db', 'database', 'prisma', 'knex', 'sql', 'pool', 'redis', 'mongo', 'collection', 'stripe', 'axios',
  'http', 'https', 'got', 'ky', 'api', 'client', 'queue', 'bus', 's3', 'storage', 'kv', 'cache', 'store', 'repo',
]);

/** Node modules whose exports act on the world outside the process. */
const FS_MODULES = new Set(['fs', 'node:fs', 'fs/promises', 'node:fs/promises', 'fs-extra']);
const PROCESS_MODULES = new Set(['child_process', 'node:child_process']);
const HTTP_MODULES = new Set(['http', 'node:http', 'https', 'node:https']);

/** Methods that mutate the object they are called on (the built-ins', by name: rules have no types). */
const MUTATORS = BUILTIN_MUTATOR_NAMES;

/** The options both effect rules take, as their schemas declare them. */
export const EFFECT_OPTION_PROPERTIES = {
  pureCallees: {
    type: 'array',
    items: { type: 'string' },
    description:
      'Callee patterns that only read (`*` matches anything; a pattern with a dot matches the whole callee, e.g. `db.users.select*`, without one the method name).',
  },
  effectCallees: {
    type: 'array',
    items: { type: 'string' },
    description: 'Callee patterns that always have a side effect, awaited or not; they win over `pureCallees` and the built-in reads.',
  },
} as const;

/** The rule options' patterns, compiled. */
export function effectPatterns(options: { pureCallees?: string[]; effectCallees?: string[] }): EffectPatterns {
  return { pure: compilePatterns(options.pureCallees ?? []), effect: compilePatterns(options.effectCallees ?? []) };
}

/** Compiles rule-option globs: `*` is any run of characters; a pattern without `.` matches the last name. */
export function compilePatterns(globs: readonly string[]): CalleePattern[] {
  return globs.map((glob) => {
    const regex = new RegExp(`^${glob.split('*').map(escapeRegExp).join('.*')}$`);
    return glob.includes('.') ? (dotted: string) => regex.test(dotted) : (_dotted: string, name: string) => regex.test(name);
  });
}

export interface CallEffect {
  /** For messages: what the call does. */
  readonly what: string;
  /** Set for mutating methods: the effect only counts where this object is not a local of the function. */
  readonly mutates?: TSESTree.Node;
}

/** The effect a call has, or undefined when it has none we can see. */
export function callEffect(
  sourceCode: Readonly<TSESLint.SourceCode>,
  call: TSESTree.CallExpression,
  patterns: EffectPatterns,
): CallEffect | undefined {
  const path = memberPath(call.callee);
  const name = path[path.length - 1];
  const dotted = path.join('.');
  const text = `\`${dotted.replaceAll('?', '…')}(...)\``;
  if (patterns.effect.some((p) => p(dotted, name))) return { what: `call ${text}` };
  if (name === 'fetch' && path.length === 1) {
    const method = fetchMethod(call);
    return method === 'GET' || method === 'HEAD' ? undefined : { what: `\`fetch(...)\` with method ${method}` };
  }
  if (isPromiseCombinator(path)) return undefined;
  const receiver = path.slice(0, -1);
  // A local Map/array/Set being filled is no effect; the same method on outside state is (the rule
  // decides "local" per function, since a callback's outside can be its handler's inside).
  const callee = unwrap(call.callee);
  // An IIFE's body is walked as a callback of its own; the call itself does nothing more.
  if (callee.type === AST_NODE_TYPES.ArrowFunctionExpression || callee.type === AST_NODE_TYPES.FunctionExpression) {
    return undefined;
  }
  if (isWorldWrite(sourceCode, call, path)) return { what: `write ${text}` };
  if (receiver.length > 0 && MUTATORS.has(name) && callee.type === AST_NODE_TYPES.MemberExpression) {
    return { what: `mutating call ${text} on state outside the handler`, mutates: callee.object };
  }
  if (isAwaited(call) && !isRead(path, dotted, name, patterns) && looksLikeWrite(name)) return { what: `awaited call ${text}` };
  return undefined;
}

/** A name that starts with a write verb (`saveOrder`, `notify`, `db_insert` is not: camelCase words only). */
function looksLikeWrite(name: string): boolean {
  return hasPrefix(name, WRITE_PREFIXES) || hasPrefix(name, EFFECT_VERBS);
}

/** Is this assignment/update/delete target state that outlives one round of `fn`? */
export function writesOutside(
  sourceCode: Readonly<TSESLint.SourceCode>,
  target: TSESTree.Node,
  fn: TSESTree.Node,
): boolean {
  const t = unwrap(target);
  switch (t.type) {
    case AST_NODE_TYPES.Identifier: {
      const variable = findVariable(sourceCode, t);
      return !variable || !within(variable.scope.block, fn);
    }
    case AST_NODE_TYPES.MemberExpression: {
      let root: TSESTree.Node = unwrap(t.object);
      while (root.type === AST_NODE_TYPES.MemberExpression) root = unwrap(root.object);
      // `this.x`, `getStore().x`: not a local of this function.
      if (root.type !== AST_NODE_TYPES.Identifier) return true;
      return writesOutside(sourceCode, root, fn);
    }
    case AST_NODE_TYPES.ArrayPattern:
      return t.elements.some((e) => e !== null && writesOutside(sourceCode, e, fn));
    case AST_NODE_TYPES.ObjectPattern:
      return t.properties.some((p) =>
        writesOutside(sourceCode, p.type === AST_NODE_TYPES.RestElement ? p.argument : p.value, fn),
      );
    case AST_NODE_TYPES.AssignmentPattern:
      return writesOutside(sourceCode, t.left, fn);
    case AST_NODE_TYPES.RestElement:
      return writesOutside(sourceCode, t.argument, fn);
    default:
      return false;
  }
}

/** The name written in an assignment, for messages. */
export function targetText(sourceCode: Readonly<TSESLint.SourceCode>, target: TSESTree.Node): string {
  const text = sourceCode.getText(target);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/** Awaited directly, or as an element of an awaited `Promise.all([...])`. */
export function isAwaited(node: TSESTree.Node): boolean {
  let current: TSESTree.Node = node;
  while (current.parent) {
    const parent: TSESTree.Node = current.parent;
    switch (parent.type) {
      case AST_NODE_TYPES.AwaitExpression:
        return true;
      case AST_NODE_TYPES.TSAsExpression:
      case AST_NODE_TYPES.TSNonNullExpression:
      case AST_NODE_TYPES.TSSatisfiesExpression:
      case AST_NODE_TYPES.ChainExpression:
        current = parent;
        continue;
      case AST_NODE_TYPES.ArrayExpression: {
        const call = parent.parent;
        if (call?.type === AST_NODE_TYPES.CallExpression && isPromiseCombinator(memberPath(call.callee))) {
          current = call;
          continue;
        }
        return false;
      }
      default:
        return false;
    }
  }
  return false;
}

export function within(inner: TSESTree.Node, outer: TSESTree.Node): boolean {
  return outer.range[0] <= inner.range[0] && inner.range[1] <= outer.range[1];
}

function isRead(path: readonly string[], dotted: string, name: string, patterns: EffectPatterns): boolean {
  if (patterns.pure.some((p) => p(dotted, name))) return true;
  if (path.length > 1 && LOG_RECEIVERS.has(path[path.length - 2])) return true;
  if (path[0] === 'Promise') return true;
  return hasPrefix(name, READ_PREFIXES);
}

/** A write through an fs/child_process/http import or a client-named receiver (`db.insert`, `this.api.post`). */
function isWorldWrite(sourceCode: Readonly<TSESLint.SourceCode>, call: TSESTree.CallExpression, path: readonly string[]): boolean {
  const name = path[path.length - 1];
  // Every fs/child_process/http write starts with a write verb: test that before any scope lookup.
  if (!hasPrefix(name, WRITE_PREFIXES)) return false;
  const rootModule = importedFrom(sourceCode, call.callee);
  if (rootModule !== undefined) {
    if (PROCESS_MODULES.has(rootModule)) return true;
    if (HTTP_MODULES.has(rootModule)) return name === 'request';
    if (FS_MODULES.has(rootModule)) return true;
  }
  const receiver = path.slice(0, -1);
  return receiver.some((segment) => CLIENT_NAMES.has(segment));
}

/** The module a callee's root identifier was imported (or required) from. */
function importedFrom(sourceCode: Readonly<TSESLint.SourceCode>, callee: TSESTree.Node): string | undefined {
  let root: TSESTree.Node = unwrap(callee);
  while (root.type === AST_NODE_TYPES.MemberExpression) root = unwrap(root.object);
  if (root.type !== AST_NODE_TYPES.Identifier) return undefined;
  const def = findVariable(sourceCode, root)?.defs[0];
  if (!def) return undefined;
  if (def.type === 'ImportBinding') {
    const declaration = def.parent;
    return declaration?.type === AST_NODE_TYPES.ImportDeclaration ? declaration.source.value : undefined;
  }
  if (def.type === 'Variable' && def.node.init) {
    const init = unwrap(def.node.init);
    if (
      init.type === AST_NODE_TYPES.CallExpression &&
      init.callee.type === AST_NODE_TYPES.Identifier &&
      init.callee.name === 'require' &&
      init.arguments[0]
    ) {
      return staticString(init.arguments[0]);
    }
  }
  return undefined;
}

/** `fetch(url, { method })`: the method when written as a literal, `GET` when absent, `(unknown)` otherwise. */
function fetchMethod(call: TSESTree.CallExpression): string {
  const init = call.arguments[1];
  if (!init) return 'GET';
  const options = unwrap(init);
  if (options.type !== AST_NODE_TYPES.ObjectExpression) return '(unknown)';
  const method = findProperty(options, 'method');
  if (!method) return options.properties.some((p) => p.type === AST_NODE_TYPES.SpreadElement) ? '(unknown)' : 'GET';
  return staticString(method.value)?.toUpperCase() ?? '(unknown)';
}

function isPromiseCombinator(path: readonly string[]): boolean {
  return path.length === 2 && path[0] === 'Promise' && PROMISE_COMBINATORS.has(path[1]);
}

/** `name` equals a prefix or continues it with an uppercase letter, digit or `_` (camelCase word boundary). */
export function hasPrefix(name: string, prefixes: readonly string[]): boolean {
  return prefixes.some(
    (prefix) => name === prefix || (name.startsWith(prefix) && /^[A-Z0-9_]/.test(name.slice(prefix.length))),
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}
