/**
 * An object read out of state that outlives the call, and written through after an answer:
 *
 *   const ticket = tickets.get(id);       // the Map's own entry, not a copy
 *   const answer = await elicit(…);
 *   ticket.status = 'closed';             // changes the entry in `tickets`
 *
 * Memoized, a later round would get the entry from the journal: a copy, so the write after the answer
 * would change the copy and leave `tickets` as it was. Such a read is not memoized: each round reads the
 * entry again, and the completing round writes through it as the legacy code did after its `await` (into
 * the state of the replica that completes: module state is per replica, ported or not). Only reads that
 * run no code of the server's are left live this way: a member or element of state the function does not
 * own (`this.carts[user]`, `store.items`), or a built-in's read of it (`Map#get`, `Array#find`/`findLast`/`at`),
 * whose value is the state's own object by specification. A value a server's function returns (which may
 * be a copy or a fresh object) is memoized as before.
 */
import ts from '../../typescript.cjs';
import { unwrap } from '../ast.js';
import { resolveBinding } from '../bindings.js';
import { isAssignment } from './effects.js';
import { isIncrement } from './references.js';

export interface AliasContext {
  fn: ts.FunctionLikeDeclaration;
  /** Where the function is past each of its ask points (start of the point, end of its await). */
  askPoints: readonly { start: number; awaitEnd: number }[];
  checker: ts.TypeChecker | undefined;
  /** Is the name bound inside the path functions (a local or parameter)? */
  isLocal(name: string): boolean;
}

/** `Map#get`, `Array#find`…: built-in reads that hand out the collection's own element. */
const ELEMENT_READS: Record<string, readonly string[]> = {
  Map: ['get'],
  ReadonlyMap: ['get'],
  WeakMap: ['get'],
  Array: ['find', 'findLast', 'at'],
  ReadonlyArray: ['find', 'findLast', 'at'],
};
/** Built-in methods that change their receiver in place (by specification). */
const MUTATORS: Record<string, readonly string[]> = {
  Array: ['push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'copyWithin'],
  Map: ['set', 'delete', 'clear'],
  WeakMap: ['set', 'delete'],
  Set: ['add', 'delete', 'clear'],
  WeakSet: ['add', 'delete'],
};
const ANY_MUTATOR = new Set(Object.values(MUTATORS).flat());

/**
 * Is `e`, kept in `names`, a read of an object of outer state that the function writes through after the
 * first answer that follows it? Then it must stay live (see above).
 */
export function aliasedStateRead(e: ts.Expression, names: readonly string[], context: AliasContext): boolean {
  if (names.length === 0 || !readsOuterElement(unwrap(e), context)) return false;
  const askEnd = Math.min(...context.askPoints.filter((p) => p.start >= e.end).map((p) => p.awaitEnd));
  if (!Number.isFinite(askEnd)) return false;
  return writtenThroughAfter(names, askEnd, e, context);
}

/** A member or element of state the function does not own, or a built-in's element read of it. */
function readsOuterElement(e: ts.Expression, context: AliasContext): boolean {
  if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) return outerRoot(e.expression, context);
  if (!ts.isCallExpression(e)) return false;
  const callee = unwrap(e.expression);
  if (!ts.isPropertyAccessExpression(callee) || !outerRoot(callee.expression, context)) return false;
  const method = callee.name.text;
  // without a checker, the built-in names alone; with one, the receiver must be the built-in (an `any`
  // receiver may be a server's own `get` that does more than read: memoized as before)
  if (!context.checker) return ['get', 'find', 'findLast', 'at'].includes(method);
  const kind = collectionKind(callee.expression, context.checker);
  return kind !== undefined && (ELEMENT_READS[kind]?.includes(method) ?? false);
}

/** Is the chain rooted at `this` or at a name the path functions do not bind (a module or closure variable)? */
function outerRoot(e: ts.Expression, context: AliasContext): boolean {
  let n = unwrap(e);
  while (ts.isPropertyAccessExpression(n) || ts.isElementAccessExpression(n)) n = unwrap(n.expression);
  if (n.kind === ts.SyntaxKind.ThisKeyword) return true;
  return ts.isIdentifier(n) && !context.isLocal(n.text) && n.text !== 'undefined';
}

/** `Map`, `Array`, `Set`…: the built-in collection the type is, if any (`undefined`: no checker, `any`, unknown). */
function collectionKind(e: ts.Expression, checker: ts.TypeChecker | undefined): string | undefined {
  if (!checker) return undefined;
  const type = checker.getNonNullableType(checker.getTypeAtLocation(e));
  if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return undefined;
  if (checker.isArrayType(type) || checker.isTupleType(type)) return 'Array';
  return type.getSymbol()?.getName() ?? '';
}

/**
 * Does the function, at or after `from`, write through one of `names` (the same bindings `made` keeps):
 * assign, update or delete a member of it, call a built-in mutator on it or on a member of it, or hand it
 * to `Object.assign` as the target? Closures made there count: they run there.
 */
function writtenThroughAfter(names: readonly string[], from: number, made: ts.Expression, context: AliasContext): boolean {
  const bindings = new Map(names.map((n) => [n, resolveBinding(made, n)]));
  const rootedAtName = (target: ts.Expression, member: boolean): boolean => {
    let n = unwrap(target);
    let depth = 0;
    while (ts.isPropertyAccessExpression(n) || ts.isElementAccessExpression(n)) {
      n = unwrap(n.expression);
      depth++;
    }
    return (!member || depth > 0) && ts.isIdentifier(n) && bindings.has(n.text) && resolveBinding(n, n.text) === bindings.get(n.text);
  };
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found) return;
    if (n.end <= from) return;
    if (n.getStart() >= from) {
      if (isAssignment(n)) found = rootedAtName(n.left, true);
      else if (isIncrement(n)) found = rootedAtName(n.operand, true);
      else if (ts.isDeleteExpression(n)) found = rootedAtName(n.expression, true);
      else if (ts.isCallExpression(n)) found = mutates(n, rootedAtName, context.checker);
      if (found) return;
    }
    ts.forEachChild(n, visit);
  };
  if (context.fn.body) ts.forEachChild(context.fn.body, visit);
  return found;
}

function mutates(call: ts.CallExpression, rootedAtName: (e: ts.Expression, member: boolean) => boolean, checker: ts.TypeChecker | undefined): boolean {
  const callee = unwrap(call.expression);
  if (!ts.isPropertyAccessExpression(callee)) return false;
  if (callee.getText() === 'Object.assign') return call.arguments.length > 0 && rootedAtName(call.arguments[0], false);
  const method = callee.name.text;
  if (!ANY_MUTATOR.has(method) || !rootedAtName(callee.expression, false)) return false;
  const kind = collectionKind(callee.expression, checker);
  return kind === undefined || (MUTATORS[kind]?.includes(method) ?? false);
}

