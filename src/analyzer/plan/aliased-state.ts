/**
 * An object read out of state that outlives the call, and used as that object after an answer:
 *
 *   const ticket = tickets.get(id);       // the Map's own entry, not a copy
 *   const answer = await elicit(…);
 *   ticket.status = 'closed';             // changes the entry in `tickets`
 *
 *   const done = todos.filter((t) => t.done);                      // the store's own elements
 *   …ask…; for (const t of done) todos.splice(todos.indexOf(t), 1); // found by identity
 *
 * Memoized, a later round would get the value from the journal: a copy, so a write through it would
 * change the copy, and a look-up by identity would find nothing (`indexOf` → -1: `splice(-1, 1)` drops
 * the last todo). Such a read is not memoized: each round reads it again, and the completing round uses the
 * store's own objects as the legacy code did after its `await` (the state of the replica that completes:
 * module state is per replica, ported or not). Only reads that run no code of the server's are left live
 * this way: a member or element of state the function does not own (`this.carts[user]`, `store.items`), or a
 * built-in's read of it (`Map#get`, `Array#find`/`findLast`/`at`/`filter`/`slice`), whose value is (or holds)
 * the state's own objects by specification. A value a server's function returns (which may be a copy or a
 * fresh object) is memoized as before.
 */
import ts from '../../typescript.cjs';
import { isFunctionLike, unwrap } from '../ast.js';
import { bindingNames } from './scope.js';
import { resolveBinding } from '../bindings.js';
import { nextAnswerEnd, type HeldContext } from './held-values.js';
import { isRead, isWriteTarget } from './references.js';
import { BUILTIN_MUTATOR_NAMES, BUILTIN_MUTATORS } from './builtins.js';

export type AliasContext = Pick<HeldContext, 'fn' | 'askPoints' | 'checker'> & {
  /** Is the name bound inside the path functions (a local or parameter)? */
  isLocal(name: string): boolean;
};

/** `Map#get`, `Array#find`…: built-in reads that hand out the collection's own element. */
const ELEMENT_READS: Record<string, readonly string[]> = {
  Map: ['get'],
  ReadonlyMap: ['get'],
  WeakMap: ['get'],
  Array: ['find', 'findLast', 'at', 'filter', 'slice'],
  ReadonlyArray: ['find', 'findLast', 'at', 'filter', 'slice'],
};

/**
 * Is `e`, kept in `names`, a read of an object of outer state (or of an array of its elements) that the
 * function uses as the object itself after the first answer that follows it? Then it must stay live.
 */
export function aliasedStateRead(e: ts.Expression, names: readonly string[], context: AliasContext): boolean {
  if (names.length === 0 || !readsOuterElement(unwrap(e), context)) return false;
  const askEnd = nextAnswerEnd(context.askPoints, e);
  if (!Number.isFinite(askEnd)) return false;
  return usedAsItselfAfter(names, askEnd, e, context);
}

/**
 * A member or element of state the function does not own, or a built-in's element read of it; or a call
 * of the server's own accessor that does nothing but return one (`get(id) { return this.tickets.get(id); }`,
 * awaited or not), seen through the checker.
 */
function readsOuterElement(e: ts.Expression, context: AliasContext, viaAccessor = false): boolean {
  if (ts.isAwaitExpression(e)) return !viaAccessor && readsOuterElement(unwrap(e.expression), context);
  if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) return outerRoot(e.expression, context);
  if (!ts.isCallExpression(e)) return false;
  const callee = unwrap(e.expression);
  if (ts.isPropertyAccessExpression(callee) && outerRoot(callee.expression, context)) {
    const method = callee.name.text;
    // without a checker, the built-in names alone; with one, the receiver must be the built-in (an `any`
    // receiver may be a server's own `get` that does more than read: memoized as before)
    if (!context.checker) return ['get', 'find', 'findLast', 'at', 'filter', 'slice'].includes(method);
    const kind = collectionKind(callee.expression, context.checker);
    if (kind !== undefined && ELEMENT_READS[kind]?.includes(method)) return true;
  } else if (!ts.isIdentifier(callee) || context.isLocal(callee.text)) {
    return false;
  }
  return !viaAccessor && returnsOuterElement(e, context);
}

/** The function called only returns a read of outer state (its own `this`, or names it does not bind). */
function returnsOuterElement(call: ts.CallExpression, context: AliasContext): boolean {
  const decl = context.checker?.getResolvedSignature(call)?.declaration;
  if (!decl || !isFunctionLike(decl) || !decl.body) return false;
  const body = decl.body;
  const only = ts.isBlock(body) ? (body.statements.length === 1 && ts.isReturnStatement(body.statements[0]) ? body.statements[0].expression : undefined) : body;
  if (!only) return false;
  const own = new Set(decl.parameters.flatMap((p) => bindingNames(p.name)));
  const inner: AliasContext = { ...context, fn: decl, isLocal: (name) => own.has(name) };
  const returned = unwrap(only);
  // `this.items.find(…) ?? null`: the read is the left side
  const read = ts.isBinaryExpression(returned) && returned.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken ? unwrap(returned.left) : returned;
  // what it reads with runs on every round too: only names, literals and member reads (no call)
  return readsOuterElement(read, inner, true) && !containsCall(ts.isCallExpression(read) ? read.arguments : ts.isElementAccessExpression(read) ? [read.argumentExpression] : []);
}

function containsCall(nodes: readonly ts.Node[]): boolean {
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found) return;
    if ((ts.isCallExpression(n) && !isFunctionLike(unwrap(n.expression))) || ts.isNewExpression(n) || ts.isTaggedTemplateExpression(n) || ts.isAwaitExpression(n)) found = true;
    else if (!isFunctionLike(n)) ts.forEachChild(n, visit);
  };
  for (const n of nodes) visit(n);
  return found;
}

/** Is the chain rooted at `this` or at a name the path functions do not bind (a module or closure variable)? */
function outerRoot(e: ts.Expression, context: AliasContext): boolean {
  let n = unwrap(e);
  while (ts.isPropertyAccessExpression(n) || ts.isElementAccessExpression(n)) n = unwrap(n.expression);
  if (n.kind === ts.SyntaxKind.ThisKeyword) return true;
  return ts.isIdentifier(n) && !context.isLocal(n.text) && n.text !== 'undefined';
}

/** `Map`, `Array`, `Set`…: the built-in collection the type is, if any (`undefined`: no checker, `any`, unknown). */
export function collectionKind(e: ts.Expression, checker: ts.TypeChecker | undefined): string | undefined {
  if (!checker) return undefined;
  const type = checker.getNonNullableType(checker.getTypeAtLocation(e));
  if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return undefined;
  if (checker.isArrayType(type) || checker.isTupleType(type)) return 'Array';
  return type.getSymbol()?.getName() ?? '';
}

/** Array methods whose callback's first parameter is an element of the receiver. */
const ELEMENT_CALLBACKS = new Set(['forEach', 'map', 'filter', 'some', 'every', 'find', 'findLast', 'findIndex', 'flatMap']);

/**
 * Does the function, at or after `from`, use one of `names` (the bindings `made` keeps) as the object
 * itself, where a copy would behave otherwise: write through it (assign, update or delete a member, call a
 * built-in mutator on it or a member), hand it or an object member of it on (an argument, `Object.assign`'s
 * target, a property of a new object, another variable), or compare it by identity? Its elements count too
 * (a `for…of` variable over it, an element callback's parameter). Reads of its data do not: a copy has them.
 * Closures made there count: they run there.
 */
function usedAsItselfAfter(names: readonly string[], from: number, made: ts.Expression, context: AliasContext): boolean {
  const tracked = new Set<ts.Node>();
  for (const n of names) {
    const b = resolveBinding(made, n);
    if (b) tracked.add(b);
  }
  const isTracked = (n: ts.Node): n is ts.Identifier => ts.isIdentifier(n) && tracked.has(resolveBinding(n, n.text) as ts.Node);
  const track = (name: ts.BindingName): void => {
    if (ts.isIdentifier(name)) {
      const b = resolveBinding(name, name.text);
      if (b) tracked.add(b);
    }
  };
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found) return;
    // an element of a tracked value is tracked too
    if (ts.isForOfStatement(n) && isTracked(unwrap(n.expression)) && ts.isVariableDeclarationList(n.initializer)) {
      for (const d of n.initializer.declarations) track(d.name);
    }
    if (ts.isCallExpression(n)) {
      const callee = unwrap(n.expression);
      const cb = n.arguments[0] && unwrap(n.arguments[0]);
      if (ts.isPropertyAccessExpression(callee) && ELEMENT_CALLBACKS.has(callee.name.text) && isTracked(unwrap(callee.expression)) && cb && (ts.isArrowFunction(cb) || ts.isFunctionExpression(cb)) && cb.parameters[0]) {
        track(cb.parameters[0].name);
      }
    }
    if (n.getStart() >= from && isTracked(n) && isRead(n) && usedAsItself(n, context.checker)) {
      found = true;
      return;
    }
    ts.forEachChild(n, visit);
  };
  if (context.fn.body) ts.forEachChild(context.fn.body, visit);
  return found;
}

/** Is this reference a use of the object itself (see usedAsItselfAfter)? */
function usedAsItself(id: ts.Identifier, checker: ts.TypeChecker | undefined): boolean {
  let top: ts.Expression = id;
  let member = false;
  for (;;) {
    const p = top.parent;
    if ((ts.isPropertyAccessExpression(p) || ts.isElementAccessExpression(p)) && p.expression === top) {
      top = p;
      member = true;
    } else if ((ts.isNonNullExpression(p) || ts.isParenthesizedExpression(p)) && p.expression === top) {
      top = p;
    } else break;
  }
  const p = top.parent;
  if (member && isWriteTarget(top)) return true;
  if (ts.isCallExpression(p) && p.expression === top) {
    // a method of the value or of a member: only a built-in mutator changes it (`items.push`)
    if (!member || !ts.isPropertyAccessExpression(unwrap(top))) return false;
    const callee = unwrap(top) as ts.PropertyAccessExpression;
    if (!BUILTIN_MUTATOR_NAMES.has(callee.name.text)) return false;
    const kind = collectionKind(callee.expression, checker);
    return kind === undefined || (BUILTIN_MUTATORS[kind]?.includes(callee.name.text) ?? false);
  }
  // a member's value that is no object (`ticket.id`) is data, wherever it goes
  if (member && (!checker || isPrimitive(checker.getTypeAtLocation(top)))) return false;
  if ((ts.isCallExpression(p) || ts.isNewExpression(p)) && p.arguments?.includes(top)) return !isCopyingCall(p);
  if (ts.isBinaryExpression(p)) return isEquality(p.operatorToken.kind) || (p.operatorToken.kind === ts.SyntaxKind.EqualsToken && p.right === top);
  if (ts.isVariableDeclaration(p)) return p.initializer === top;
  return ts.isShorthandPropertyAssignment(p) || (ts.isPropertyAssignment(p) && p.initializer === top) || ts.isArrayLiteralExpression(p);
}

/** `===`, `!==`, `==`, `!=` (a function, not a module-level set: the compiler loads on first use, not on import). */
function isEquality(kind: ts.SyntaxKind): boolean {
  const k = ts.SyntaxKind;
  return kind === k.EqualsEqualsEqualsToken || kind === k.ExclamationEqualsEqualsToken || kind === k.EqualsEqualsToken || kind === k.ExclamationEqualsToken;
}

/** `JSON.stringify(x)`, `String(x)`: a call that only reads a copy of its argument. */
function isCopyingCall(call: ts.CallExpression | ts.NewExpression): boolean {
  const text = call.expression.getText();
  return text === 'JSON.stringify' || text === 'String' || text === 'structuredClone';
}

function isPrimitive(type: ts.Type): boolean {
  const parts = type.isUnion() ? type.types : [type];
  return parts.every((t) => !!(t.flags & (ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BooleanLike | ts.TypeFlags.BigIntLike | ts.TypeFlags.EnumLike | ts.TypeFlags.Null | ts.TypeFlags.Undefined | ts.TypeFlags.Void)));
}
