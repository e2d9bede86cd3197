/**
 * Is an ask (or a call into a helper that asks) in the shape the transform rewrites safely?
 * Auto shape: awaited as its own statement — `await ask(…)`, `const x = await ask(…)`,
 * `const { action } = await ask(…)` — directly in the function body or inside plain `if` blocks,
 * with literal request parameters. Everything else gets a manual reason.
 */
import ts from 'typescript';
import { memberChain, outerParent, unwrap } from './ast.js';
import { findConstDeclaration, findProperty, resolveObjectLiteral, type RawSite } from './detect.js';
import type { ReasonId } from './reasons.js';

const PROMISE_COMBINATORS = new Set(['race', 'any', 'all', 'allSettled']);

/**
 * Reasons the node (an ask, or a call into a helper) is not in auto shape inside `fn`.
 * `isHelperCall` picks the reason for a missing await.
 */
export function shapeReasons(node: ts.Node, fn: ts.FunctionLikeDeclaration, isHelperCall: boolean): ReasonId[] {
  const reasons: ReasonId[] = [];
  let statement: ts.Node | undefined;
  if (ts.isThrowStatement(node)) {
    statement = node;
  } else {
    const outer = outerParent(node);
    const parent = outer.parent;
    if (parent && ts.isAwaitExpression(parent)) {
      const awaited = outerParent(parent);
      const holder = awaited.parent;
      if (holder && ts.isVariableDeclaration(holder) && holder.initializer === awaited && ts.isVariableDeclarationList(holder.parent) && ts.isVariableStatement(holder.parent.parent)) {
        statement = holder.parent.parent;
      } else if (holder && ts.isExpressionStatement(holder)) {
        statement = holder;
      } else if (holder && ts.isReturnStatement(holder)) {
        reasons.push('result-escapes');
        statement = holder;
      } else if (holder === fn && ts.isArrowFunction(fn) && fn.body === awaited) {
        reasons.push('result-escapes');
      } else {
        reasons.push(inCombinator(awaited, fn) ? 'raced' : 'in-expression');
      }
    } else if ((parent === fn && ts.isArrowFunction(fn) && fn.body === outer) || (parent && ts.isReturnStatement(parent))) {
      reasons.push(isHelperCall ? 'helper-not-awaited-by-handler' : 'result-escapes');
    } else if (inCombinator(outer, fn)) {
      reasons.push('raced');
    } else {
      reasons.push(isHelperCall ? 'helper-not-awaited-by-handler' : 'not-awaited');
    }
  }
  if (!statement) statement = nearestStatement(node, fn);
  if (statement) reasons.push(...containerReasons(statement, fn));
  return dedupe(reasons);
}

/** Reasons from the statements between `statement` and the function body. */
function containerReasons(statement: ts.Node, fn: ts.FunctionLikeDeclaration): ReasonId[] {
  const reasons: ReasonId[] = [];
  let child: ts.Node = statement;
  for (let n = statement.parent; n && n !== fn; child = n, n = n.parent) {
    if (ts.isBlock(n) || ts.isIfStatement(n)) continue;
    if (ts.isForStatement(n) || ts.isForOfStatement(n) || ts.isForInStatement(n) || ts.isWhileStatement(n) || ts.isDoStatement(n)) {
      reasons.push('in-loop');
    } else if (ts.isTryStatement(n)) {
      if (n.catchClause || child === n.finallyBlock) reasons.push('try-catch');
    } else if (ts.isCatchClause(n)) {
      reasons.push('try-catch');
    } else if (ts.isCaseClause(n) || ts.isDefaultClause(n) || ts.isCaseBlock(n) || ts.isSwitchStatement(n) || ts.isLabeledStatement(n)) {
      if (!reasons.includes('branching-statement')) reasons.push('branching-statement');
    } else if (ts.isStatement(n)) {
      if (!reasons.includes('branching-statement')) reasons.push('branching-statement');
    }
  }
  return reasons;
}

function nearestStatement(node: ts.Node, fn: ts.Node): ts.Node | undefined {
  for (let n: ts.Node | undefined = node; n && n !== fn; n = n.parent) {
    if (ts.isStatement(n) && !ts.isBlock(n)) return n;
  }
  return undefined;
}

/** Inside `Promise.race/any/all/allSettled(...)` arguments (before leaving `fn`)? */
function inCombinator(node: ts.Node, fn: ts.Node): boolean {
  for (let n = node.parent; n && n !== fn; n = n.parent) {
    if (ts.isCallExpression(n)) {
      const chain = memberChain(n.expression);
      if (chain.length === 2 && chain[0] === 'Promise' && PROMISE_COMBINATORS.has(chain[1])) return true;
    }
    if (ts.isStatement(n)) return false;
  }
  return false;
}

/**
 * Request parameters the transform can lift into `inputRequired.*`: an object literal without spreads
 * or computed keys, or a const bound to one. `listRoots()` may have none.
 */
export function requestIsStatic(site: RawSite): boolean {
  const call = site.call;
  const args = call.arguments ?? ts.factory.createNodeArray();
  if (site.form === 'url-elicitation-error') {
    const first = args[0] ? unwrap(args[0]) : undefined;
    const list = first && ts.isIdentifier(first) ? constInitializer(first) : first;
    return !!list && ts.isArrayLiteralExpression(list) && list.elements.every((el) => isStaticObject(el));
  }
  if (site.form === 'listRoots') return args.length === 0 || isStaticObject(args[0]);
  const first = args[0];
  if (!first) return false;
  if (site.form === 'send' || site.form === 'sendRequest' || site.form === 'request') {
    const request = resolveObjectLiteral(first);
    if (!request || !isStaticObject(request)) return false;
    const params = findProperty(request, 'params');
    if (!params) return site.kind === 'roots';
    if (ts.isShorthandPropertyAssignment(params)) return isStaticObject(params.name);
    return ts.isPropertyAssignment(params) && isStaticObject(params.initializer);
  }
  return isStaticObject(first);
}

/** Task-augmented request (`params: { task: { ttl } , … }`): the client may answer with a task to poll. */
export function requestIsTaskAugmented(site: RawSite): boolean {
  const first = site.call.arguments?.[0];
  if (!first) return false;
  let params: ts.ObjectLiteralExpression | undefined = resolveObjectLiteral(first);
  if (params && (site.form === 'send' || site.form === 'sendRequest' || site.form === 'request')) {
    const p = findProperty(params, 'params');
    params = p && ts.isPropertyAssignment(p) ? resolveObjectLiteral(p.initializer) : undefined;
  }
  return !!params && findProperty(params, 'task') !== undefined;
}

function isStaticObject(expr: ts.Expression): boolean {
  const obj = resolveObjectLiteral(expr);
  if (!obj) return false;
  return obj.properties.every((p) => !ts.isSpreadAssignment(p) && !(p.name && ts.isComputedPropertyName(p.name)));
}

function constInitializer(id: ts.Identifier): ts.Expression | undefined {
  const d = findConstDeclaration(id, id.text);
  return d?.initializer ? unwrap(d.initializer) : undefined;
}

/** Verbs of calls that change the world (writes, sends, payments), for the side-effect check. */
const SIDE_EFFECT_VERB = /^(write|delete|remove|insert|update|upsert|save|put|post|patch|send|charge|pay|transfer|refund|reserve|book|commit|publish|enqueue|exec|spawn|unlink|rm|mkdir|rename|append|create(?!Message))/i;

/**
 * A side effect before the ask that the ask depends on: an earlier statement in the same function
 * binds the result of a write-like call, and the ask's arguments read that binding.
 */
export function sideEffectFeedsAsk(askNode: ts.Node, askArgs: readonly ts.Expression[], fn: ts.FunctionLikeDeclaration): boolean {
  const used = new Set<string>();
  const collect = (n: ts.Node): void => {
    if (ts.isIdentifier(n)) used.add(n.text);
    ts.forEachChild(n, collect);
  };
  for (const a of askArgs) {
    collect(a);
    // the request may be a const declared earlier: read its initializer too
    if (ts.isIdentifier(unwrap(a))) {
      const d = findConstDeclaration(askNode, (unwrap(a) as ts.Identifier).text);
      if (d?.initializer) collect(d.initializer);
    }
  }
  if (used.size === 0) return false;
  let child: ts.Node = askNode;
  for (let n = askNode.parent; n && n !== fn; child = n, n = n.parent) {
    if (!ts.isBlock(n)) continue;
    for (const st of n.statements) {
      if (st === child || st.pos >= child.pos) break;
      if (!ts.isVariableStatement(st)) continue;
      for (const d of st.declarationList.declarations) {
        if (!d.initializer || !isSideEffectCall(d.initializer)) continue;
        if (bindingNames(d.name).some((name) => used.has(name))) return true;
      }
    }
  }
  return false;
}

function isSideEffectCall(expr: ts.Expression): boolean {
  let e = unwrap(expr);
  if (ts.isAwaitExpression(e)) e = unwrap(e.expression);
  if (!ts.isCallExpression(e)) return false;
  const name = memberChain(e.expression).at(-1) ?? '';
  return SIDE_EFFECT_VERB.test(name);
}

function bindingNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  const out: string[] = [];
  for (const el of name.elements) if (!ts.isOmittedExpression(el)) out.push(...bindingNames(el.name));
  return out;
}

function dedupe<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}
