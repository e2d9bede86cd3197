/**
 * A closure made before an ask and called after it: the state it closes over outlives the round.
 *
 *   const stopHeartbeat = this.startHeartbeat(progress);   // starts a setInterval, returns () => clearInterval(…)
 *   try { answer = await ask(…) } finally { stopHeartbeat(); }
 *
 * A closure cannot travel in the sealed state, so the port would compute it again on every round: each
 * round that stops to ask starts another interval, and the only call that clears one runs in the round
 * that completes (maybe on another replica). The same holds for an unsubscribe function, a release
 * callback, any closure over a timer, a socket or a server. Such a site is manual: `timer-across-ask`
 * when the function called visibly starts a timer, `not-carryable` otherwise, naming the variable —
 * unless the function is visible and its body has no effect (the effect judge's `bodyHasEffects`): then
 * each round builds the same closure over its own values, computed again like any sync value.
 * A closure used only before the ask is computed again each round as before (`recomputed-value`).
 */
import ts from '../../typescript.cjs';
import { isFunctionLike, memberChain, owningClass, propertyNameText, unwrap } from '../ast.js';
import { resolveBinding } from '../bindings.js';
import type { ReasonId } from '../reasons.js';
import { GLOBAL_OBJECTS, TIMER_STARTS } from './builtins.js';
import { bodyHasEffects, type EffectJudge } from './effects.js';

export interface HeldContext {
  /** The path function being planned. */
  fn: ts.FunctionLikeDeclaration;
  /** Where it is past each of its ask points (start of the point, end of its await). */
  askPoints: readonly { start: number; awaitEnd: number }[];
  checker: ts.TypeChecker | undefined;
  /** The planner's effect judge (and, through it, the functions the module declares at its top level). */
  judge: EffectJudge;
}

export interface HeldValue {
  reason: Extract<ReasonId, 'timer-across-ask' | 'not-carryable'>;
  detail: string;
}

/** Does the closure `e` returns (kept in `names`) live across an ask of the function? */
export function heldAcrossAsk(e: ts.Expression, names: readonly string[], context: HeldContext): HeldValue | undefined {
  const call = unwrap(e);
  if (names.length === 0 || !ts.isCallExpression(call)) return undefined;
  const callee = calledFunction(call, context);
  if (!returnsFunction(call, callee, context.checker)) return undefined;
  if (!readAfterNextAsk(names, e, context)) return undefined;
  const list = names.map((n) => `\`${n}\``).join(', ');
  const timer = callee && startedTimer(callee);
  if (timer) return { reason: 'timer-across-ask', detail: `${list} (stops the \`${timer}\` that \`${calleeText(call)}\` starts)` };
  // a factory whose body has no effect (reads, locals, pure built-ins: the effect judge's test) makes the
  // same closure again each round, over this round's values (a progress reporter over the request's
  // context): computed again, as any sync value
  if (callee && !bodyHasEffects(callee, undefined, judgeFor(callee, context), 'other')) return undefined;
  return { reason: 'not-carryable', detail: `${list} (a closure from \`${calleeText(call)}\`, called after the answer)` };
}

/**
 * A promise made with `new Promise(…)` before an ask and awaited after it: the deferred pattern, settled by
 * a callback (a form's POST, a redirect, a notifier) that fires only after the user acted on the question.
 * Memoized, the round would wait for it before asking (and never ask); made again, each round would hold
 * its own, and only the one of the round that completes could be settled. A human must decide.
 */
export function heldPromise(e: ts.Expression, names: readonly string[], context: HeldContext): HeldValue | undefined {
  const made = unwrap(e);
  if (names.length === 0 || !ts.isNewExpression(made) || memberChain(made.expression).join('.') !== 'Promise') return undefined;
  if (!readAfterNextAsk(names, e, context)) return undefined;
  const list = names.map((n) => `\`${n}\``).join(', ');
  return { reason: 'not-carryable', detail: `${list} (a promise made before the question and awaited after the answer: what settles it would have to outlive the round)` };
}

/**
 * The judge for a function's body: the planner's for one of this file; for one in another file (found by
 * the checker), one that knows none of that file's imports or functions, so a call of its own helpers
 * counts as an effect rather than being looked up among this file's.
 */
function judgeFor(fn: ts.FunctionLikeDeclaration, context: HeldContext): EffectJudge {
  if (fn.getSourceFile() === context.fn.getSourceFile()) return context.judge;
  return { ...context.judge, imported: new Set(), moduleFunction: () => undefined };
}

/** With types: the value is callable. Without: the function called returns a function literal. */
function returnsFunction(call: ts.CallExpression, callee: ts.FunctionLikeDeclaration | undefined, checker: ts.TypeChecker | undefined): boolean {
  if (checker) {
    const type = checker.getTypeAtLocation(call);
    if (!(type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown))) {
      const parts = type.isUnion() ? type.types : [type];
      return parts.some((t) => t.getCallSignatures().length > 0);
    }
  }
  if (!callee?.body) return false;
  if (!ts.isBlock(callee.body)) return isFunctionLike(unwrap(callee.body));
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found || (isFunctionLike(n) && n !== callee)) return;
    if (ts.isReturnStatement(n) && n.expression && isFunctionLike(unwrap(n.expression))) found = true;
    else ts.forEachChild(n, visit);
  };
  visit(callee.body);
  return found;
}

/** The function a call runs, when the project shows it: the checker's declaration, else `this.m()` of the class, a local or module function. */
function calledFunction(call: ts.CallExpression, context: HeldContext): ts.FunctionLikeDeclaration | undefined {
  const declared = context.checker?.getResolvedSignature(call)?.declaration;
  if (declared && isFunctionLike(declared) && declared.body) return declared;
  const callee = unwrap(call.expression);
  if (ts.isPropertyAccessExpression(callee) && callee.expression.kind === ts.SyntaxKind.ThisKeyword) {
    const cls = owningClass(context.fn) ?? enclosingClass(context.fn);
    const member = cls?.members.find((m) => propertyNameText(m.name) === callee.name.text);
    if (member && ts.isMethodDeclaration(member)) return member;
    if (member && ts.isPropertyDeclaration(member) && member.initializer && isFunctionLike(unwrap(member.initializer))) return unwrap(member.initializer) as ts.FunctionLikeDeclaration;
    return undefined;
  }
  if (ts.isIdentifier(callee)) {
    const decl = resolveBinding(call, callee.text);
    if (decl && ts.isFunctionDeclaration(decl)) return decl;
    if (decl && ts.isVariableDeclaration(decl) && decl.initializer && isFunctionLike(unwrap(decl.initializer))) return unwrap(decl.initializer) as ts.FunctionLikeDeclaration;
    return decl ? undefined : context.judge.moduleFunction(callee.text);
  }
  return undefined;
}

function enclosingClass(node: ts.Node): ts.ClassLikeDeclaration | undefined {
  for (let n = node.parent; n; n = n.parent) if (ts.isClassLike(n)) return n;
  return undefined;
}

/** The global timer the function's own body starts (`setInterval(…)`), not one inside a callback it makes. */
function startedTimer(fn: ts.FunctionLikeDeclaration): string | undefined {
  let found: string | undefined;
  const visit = (n: ts.Node): void => {
    if (found || (isFunctionLike(n) && n !== fn)) return;
    if (ts.isCallExpression(n)) {
      const chain = memberChain(n.expression);
      const name = chain.length === 1 ? chain[0] : chain.length === 2 && GLOBAL_OBJECTS.has(chain[0]) ? chain[1] : undefined;
      // a name bound in scope (a local, an import from node:timers/promises) is not the global timer
      if (name !== undefined && TIMER_STARTS.has(name) && !resolveBinding(n, chain[0])) {
        found = chain.join('.');
        return;
      }
    }
    ts.forEachChild(n, visit);
  };
  if (fn.body) visit(fn.body);
  return found;
}

/** Where the answer of the first ask point after `made` is in (`Infinity`: no ask follows it). */
export function nextAnswerEnd(askPoints: HeldContext['askPoints'], made: ts.Node): number {
  return Math.min(...askPoints.filter((p) => p.start >= made.end).map((p) => p.awaitEnd));
}

/** Is a name the value `made` is kept in read past the answer of the first ask after it? */
function readAfterNextAsk(names: readonly string[], made: ts.Expression, context: HeldContext): boolean {
  const askEnd = nextAnswerEnd(context.askPoints, made);
  return Number.isFinite(askEnd) && readAfter(names, askEnd, made, context.fn);
}

function readAfter(names: readonly string[], from: number, made: ts.Expression, fn: ts.FunctionLikeDeclaration): boolean {
  const bindings = new Map(names.map((n) => [n, resolveBinding(made, n)]));
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found) return;
    if (ts.isIdentifier(n) && n.getStart() >= from && bindings.has(n.text) && !isDeclarationName(n) && resolveBinding(n, n.text) === bindings.get(n.text)) {
      found = true;
      return;
    }
    ts.forEachChild(n, visit);
  };
  if (fn.body) visit(fn.body);
  return found;
}

function isDeclarationName(id: ts.Identifier): boolean {
  const p = id.parent;
  return (ts.isVariableDeclaration(p) || ts.isBindingElement(p) || ts.isParameter(p)) && p.name === id || (ts.isPropertyAccessExpression(p) && p.name === id);
}

function calleeText(call: ts.CallExpression): string {
  const text = call.expression.getText().replace(/\s+/g, ' ');
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
