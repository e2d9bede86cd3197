/**
 * Is an ask point awaited where it stands? The runtime stops a round by rejecting the ask's promise,
 * so the promise must reach an `await` of the function (or be returned to a caller that awaits it):
 * `await ask(…)`, `await Promise.all([ask(a), ask(b)])`, `cond ? await ask() : x`, `return ask(…)`.
 * A promise raced against another, stored, chained with `.then` or dropped is not: the round would
 * stop somewhere the legacy code never waited, or not at all.
 */
import ts from '../../typescript.cjs';
import { memberChain, outerParent, propertyNameText, unwrap } from '../ast.js';
import { resolveBinding } from '../bindings.js';

export type AwaitedPosition =
  | {
      ok: true;
      /** Where the function is past the answer: the end of the `await` (or `return`) that waits for it. */
      awaitEnd: number;
      /** Awaited through `Promise.allSettled`: a stopped round does not stop the code after it. */
      settled: boolean;
    }
  | { ok: false; reason: 'raced' | 'not-awaited' };

const BATCHES = new Set(['all', 'allSettled']);
const RACES = new Set(['race', 'any']);

/** The position of `node` (an ask, a helper call, an IIFE, a `Promise.all` of a map) inside `fn`. */
export function awaitedPosition(node: ts.Node, fn: ts.FunctionLikeDeclaration): AwaitedPosition {
  let settled = false;
  let n: ts.Node = node;
  for (let guard = 0; guard < 64; guard++) {
    const outer = outerParent(n);
    const p = outer.parent;
    if (!p) return { ok: false, reason: 'not-awaited' };
    if (ts.isAwaitExpression(p)) return { ok: true, awaitEnd: p.end, settled };
    if (ts.isReturnStatement(p)) return { ok: true, awaitEnd: p.end, settled };
    if (p === fn && ts.isArrowFunction(fn) && fn.body === outer) return { ok: true, awaitEnd: fn.end, settled };
    if (ts.isConditionalExpression(p) && p.condition !== outer) {
      n = p;
      continue;
    }
    if (ts.isBinaryExpression(p)) {
      const kind = p.operatorToken.kind;
      // `a, ask()` hands the ask on; `ask(), a` drops it
      if (kind === ts.SyntaxKind.CommaToken && p.right !== outer) return { ok: false, reason: 'not-awaited' };
      if (kind === ts.SyntaxKind.CommaToken || isShortCircuit(kind)) {
        n = p;
        continue;
      }
    }
    if (ts.isArrayLiteralExpression(p)) {
      const combinator = combinatorOf(p);
      if (combinator && BATCHES.has(combinator.name)) {
        settled ||= combinator.name === 'allSettled';
        n = combinator.call;
        continue;
      }
      if (combinator && RACES.has(combinator.name)) return { ok: false, reason: 'raced' };
      return { ok: false, reason: 'not-awaited' };
    }
    if (ts.isCallExpression(p) && p.arguments.some((a) => outerParent(a) === outer)) {
      const chain = memberChain(p.expression);
      if (chain.length === 2 && chain[0] === 'Promise' && RACES.has(chain[1])) return { ok: false, reason: 'raced' };
    }
    return { ok: false, reason: 'not-awaited' };
  }
  return { ok: false, reason: 'not-awaited' };
}

/** `&&`, `||`, `??` hand either operand on as their value. */
function isShortCircuit(kind: ts.SyntaxKind): boolean {
  return kind === ts.SyntaxKind.AmpersandAmpersandToken || kind === ts.SyntaxKind.BarBarToken || kind === ts.SyntaxKind.QuestionQuestionToken;
}

/** `Promise.<name>([ … ])` whose first argument is `array`. */
function combinatorOf(array: ts.ArrayLiteralExpression): { name: string; call: ts.CallExpression } | undefined {
  const outer = outerParent(array);
  const call = outer.parent;
  if (!call || !ts.isCallExpression(call) || call.arguments[0] === undefined || outerParent(call.arguments[0]) !== outer) return undefined;
  const chain = memberChain(call.expression);
  return chain.length === 2 && chain[0] === 'Promise' ? { name: chain[1], call } : undefined;
}

/**
 * A nested function the enclosing function waits for, with the node that stands for it there:
 * an IIFE (`await (async () => { … })()`) — the call; a callback run in a request context
 * (`await storage.run(ctx, () => tool.handler(args))`, node's AsyncLocalStorage, which calls it on the
 * spot and returns its value) — the `run` call; a callback handed to the port's own `once(() => …)` in a
 * ported file (run on the spot, or its value replayed) — the `once` call; or a callback mapped over and batched
 * (`await Promise.all(items.map(async (item) => { … }))`) — the `Promise.all` call.
 */
export function awaitedCallback(fn: ts.FunctionLikeDeclaration): ts.CallExpression | undefined {
  if (!ts.isArrowFunction(fn) && !ts.isFunctionExpression(fn)) return undefined;
  const outer = outerParent(fn);
  const p = outer.parent;
  if (!p || !ts.isCallExpression(p)) return undefined;
  if (outerParent(p.expression) === outer) return p;
  if (isAsyncLocalRun(p, outer) || isRuntimeOnce(p, outer)) return p;
  if (p.arguments[0] === undefined || outerParent(p.arguments[0]) !== outer) return undefined;
  const callee = p.expression;
  if (!ts.isPropertyAccessExpression(callee) || (callee.name.text !== 'map' && callee.name.text !== 'flatMap')) return undefined;
  const mapped = outerParent(p);
  const batch = mapped.parent;
  if (!batch || !ts.isCallExpression(batch) || batch.arguments[0] === undefined || outerParent(batch.arguments[0]) !== mapped) return undefined;
  const chain = memberChain(batch.expression);
  return chain.length === 2 && chain[0] === 'Promise' && BATCHES.has(chain[1]) ? batch : undefined;
}

/** The port runtime's helper file, as ported files import it (`./mrtr-flow.js`, `../mrtr-flow`, `./mrtr-flow.cjs`). */
const FLOW_MODULE = /(^|\/)mrtr-flow(\.[cm]?[jt]s)?$/;

/** `once(compute, …)` of the port's runtime (imported, or required, from its `mrtr-flow` file), `arg` its first argument. */
export function isRuntimeOnce(call: ts.CallExpression, arg: ts.Node): boolean {
  if (call.arguments[0] === undefined || outerParent(call.arguments[0]) !== arg) return false;
  const callee = unwrap(call.expression);
  if (!ts.isIdentifier(callee)) return false;
  const b = resolveBinding(callee, callee.text);
  let from: ts.Expression | undefined;
  if (b && ts.isImportSpecifier(b) && (b.propertyName ?? b.name).text === 'once') from = b.parent.parent.parent.moduleSpecifier;
  else if (b && ts.isBindingElement(b) && propertyNameText(b.propertyName ?? b.name) === 'once' && ts.isObjectBindingPattern(b.parent) && ts.isVariableDeclaration(b.parent.parent)) {
    const init = b.parent.parent.initializer ? unwrap(b.parent.parent.initializer) : undefined;
    if (init && ts.isCallExpression(init) && ts.isIdentifier(init.expression) && init.expression.text === 'require') from = init.arguments[0];
  }
  return !!from && ts.isStringLiteralLike(from) && FLOW_MODULE.test(from.text);
}

/** `storage.run(store, callback)` where `storage` is a const made by `new AsyncLocalStorage(…)` imported from node:async_hooks. */
function isAsyncLocalRun(call: ts.CallExpression, callback: ts.Node): boolean {
  const callee = unwrap(call.expression);
  if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== 'run' || call.arguments[1] === undefined || outerParent(call.arguments[1]) !== callback) return false;
  const storage = unwrap(callee.expression);
  if (!ts.isIdentifier(storage)) return false;
  const decl = resolveBinding(storage, storage.text);
  if (!decl || !ts.isVariableDeclaration(decl) || !decl.initializer || !(decl.parent.flags & ts.NodeFlags.Const)) return false;
  const made = unwrap(decl.initializer);
  if (!ts.isNewExpression(made) || !ts.isIdentifier(made.expression)) return false;
  const cls = resolveBinding(made.expression, made.expression.text);
  if (!cls || !ts.isImportSpecifier(cls) || (cls.propertyName ?? cls.name).text !== 'AsyncLocalStorage') return false;
  const from = cls.parent.parent.parent.moduleSpecifier;
  return ts.isStringLiteral(from) && (from.text === 'node:async_hooks' || from.text === 'async_hooks');
}
