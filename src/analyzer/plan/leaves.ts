/**
 * Code in a `return` that asks nothing after it ends its function: it runs once, on the round that
 * returns, however many asks come later in the text (`case 'list': return wrap(…)` in a tool whose
 * `delete` case asks; `return (await session(ctx)).user()` before another case's question). Used by
 * the plan for what to memoize (flow-function.ts) and for whether a helper's caller can ask after the
 * helper returns (index.ts).
 */
import ts from '../../typescript.cjs';
import { isFunctionLike, isLoop } from '../ast.js';

/**
 * Does `node` (in `fn`, outside nested functions) sit in a `return` statement after which no ask of
 * `asks` (the ask points of `fn`) can run in this call? Not when an ask of the returned expression
 * comes after `node`, nor when an enclosing `try` can still ask after it: a `finally` that asks, or
 * (from its `try` block) a `catch` that asks, an ask after the `try`, or a loop with asks around the
 * `try` (an error thrown by the returned expression is caught and the function goes on).
 */
export function leavesWithoutAsking(node: ts.Node, fn: ts.Node, asks: readonly ts.Node[]): boolean {
  let ret: ts.ReturnStatement | undefined;
  for (let n: ts.Node | undefined = node; n && n !== fn; n = n.parent) {
    if (isFunctionLike(n)) return false;
    if (ts.isReturnStatement(n)) {
      ret = n;
      break;
    }
  }
  if (!ret) return false;
  const from = node.end;
  if (asks.some((a) => inside(a, ret) && a.getStart() >= from)) return false;
  let inner: ts.Node = ret;
  for (let n: ts.Node | undefined = ret.parent; n && n !== fn; inner = n, n = n.parent) {
    if (!ts.isTryStatement(n)) continue;
    const t = n;
    if (t.finallyBlock && asks.some((a) => inside(a, t.finallyBlock!))) return false;
    if (inner !== t.tryBlock || !t.catchClause) continue;
    if (asks.some((a) => inside(a, t.catchClause!) || a.getStart() >= t.end)) return false;
    if (asks.some((a) => loopAround(a, t, fn))) return false;
  }
  return true;
}

function inside(node: ts.Node, outer: ts.Node): boolean {
  return node.pos >= outer.pos && node.end <= outer.end;
}

/** Is there a loop of `fn` holding both the ask `a` and the `try` statement `t`? */
function loopAround(a: ts.Node, t: ts.Node, fn: ts.Node): boolean {
  for (let n: ts.Node | undefined = t.parent; n && n !== fn; n = n.parent) {
    if (isFunctionLike(n)) return false;
    if (isLoop(n) && inside(a, n)) return true;
  }
  return false;
}
