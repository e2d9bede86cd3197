/**
 * Which side effects are harmless when a round runs twice (for `require-at-most-once-final-round`):
 * setting a value (`cache[id] = v`, `kv.set`, `fs.writeFile`, `PUT`), deleting one, a "list changed"
 * notification, or a call that carries an idempotency key. Appending, counting, charging, sending and inserting are not: a second run adds a
 * second row, mail or charge.
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { findProperty, memberPath, propertyName, staticString, unwrap } from './expressions.js';
import { hasPrefix } from './side-effects.js';

/** Verbs (camelCase prefixes) of calls that leave the same state when repeated with the same arguments. */
const SETTING_VERBS = [
  'set', 'put', 'upsert', 'replace', 'delete', 'del', 'remove', 'rm', 'rmdir', 'unlink', 'write', 'mkdir', 'chmod',
  'chown', 'utimes', 'truncate', 'hset', 'hdel', 'sadd', 'srem', 'expire', 'copy', 'cp', 'revoke', 'unsubscribe',
  'unregister', 'clear', 'reset', 'cancel', 'stop', 'disable', 'enable', 'mark',
];
/** Receivers whose `write` appends (`res.write(chunk)`), unlike `fs.writeFile`. */
const STREAM_RECEIVER = /^(stream|socket|res|response|out|stdout|stderr|writer)$/i;

/** A notification that something changed (`sendResourceListChanged`, `notifyBoardUpdated`): a second one says the same. */
const CHANGE_SIGNAL = /^(send|notify|emit|publish|broadcast)\w*(Changed|Updated)$/;

/** Array methods that change the array differently on each run. */
const ACCUMULATING_MUTATORS = new Set(['push', 'unshift', 'splice', 'pop', 'shift', 'reverse', 'copyWithin']);

/** `{ idempotencyKey }`, `{ idempotency_key }`, `headers: { 'Idempotency-Key': k }`. */
const IDEMPOTENCY_KEY = /^idempotency[-_]?key$/i;

/**
 * Is this effect (an assignment, update, `delete` or call the round tracker recorded) safe to repeat?
 * `idempotent` holds the rule option's patterns for helpers that make the calls inside them repeat-safe.
 */
export function isRepeatSafe(
  sourceCode: Readonly<TSESLint.SourceCode>,
  effect: TSESTree.Node,
  isIdempotentCallee: (call: TSESTree.CallExpression) => boolean,
): boolean {
  if (insideIdempotentCall(effect, isIdempotentCallee)) return true;
  switch (effect.type) {
    case AST_NODE_TYPES.UpdateExpression:
      return false;
    case AST_NODE_TYPES.UnaryExpression:
      return effect.operator === 'delete';
    case AST_NODE_TYPES.AssignmentExpression:
      // `total = total + x` reads what it writes; `x ||= v` / `x ??= v` set once.
      if (effect.operator === '||=' || effect.operator === '??=') return true;
      return effect.operator === '=' && !readsTarget(sourceCode, effect.left, effect.right);
    case AST_NODE_TYPES.CallExpression:
      return isRepeatSafeCall(effect);
    default:
      return false;
  }
}

function isRepeatSafeCall(call: TSESTree.CallExpression): boolean {
  if (call.arguments.some(carriesIdempotencyKey)) return true;
  const path = memberPath(call.callee);
  const name = path[path.length - 1];
  if (name === 'fetch' && path.length === 1) return fetchIsIdempotent(call);
  if (ACCUMULATING_MUTATORS.has(name)) return false;
  if (CHANGE_SIGNAL.test(name)) return true;
  if (name === 'write' && path.length > 1 && STREAM_RECEIVER.test(path[path.length - 2])) return false;
  return hasPrefix(name, SETTING_VERBS);
}

/** `fetch(url, { method: 'PUT' | 'DELETE' })`, or any method with an `Idempotency-Key` header. */
function fetchIsIdempotent(call: TSESTree.CallExpression): boolean {
  const init = call.arguments[1] && unwrap(call.arguments[1]);
  if (init?.type !== AST_NODE_TYPES.ObjectExpression) return false;
  const method = findProperty(init, 'method');
  const verb = method ? staticString(method.value)?.toUpperCase() : undefined;
  return verb === 'PUT' || verb === 'DELETE';
}

/** An object argument (or its `headers`) with an idempotency key. */
function carriesIdempotencyKey(argument: TSESTree.Node, depth = 0): boolean {
  const object = unwrap(argument);
  if (object.type !== AST_NODE_TYPES.ObjectExpression || depth > 2) return false;
  return object.properties.some((p) => {
    if (p.type !== AST_NODE_TYPES.Property) return false;
    const key = propertyName(p.key, p.computed);
    if (key !== undefined && IDEMPOTENCY_KEY.test(key)) return true;
    return carriesIdempotencyKey(p.value, depth + 1);
  });
}

/** Is `node` an argument of (or inside a callback given to) a call of an idempotency helper? */
function insideIdempotentCall(node: TSESTree.Node, isIdempotentCallee: (call: TSESTree.CallExpression) => boolean): boolean {
  for (let current: TSESTree.Node | undefined = node; current; current = current.parent) {
    if (current.type === AST_NODE_TYPES.CallExpression && isIdempotentCallee(current)) return true;
  }
  return false;
}

/** Does the assigned value read the assignment's target (`balance = balance - amount`, `list = [...list, x]`)? */
function readsTarget(sourceCode: Readonly<TSESLint.SourceCode>, target: TSESTree.Node, value: TSESTree.Node): boolean {
  const written = sourceCode.getText(unwrap(target));
  const root = /^[\w$]+/.exec(written)?.[0];
  if (!root) return true;
  return new RegExp(`(^|[^\\w$.])${root.replace(/\$/g, '\\$')}\\b`).test(sourceCode.getText(value));
}
