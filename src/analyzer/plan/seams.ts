/**
 * What the plan reads from a route beyond the analyzer's verdict: the registration call a handler is
 * given to, the call that enters each helper, and the type checker. The analyzer's routes carry the
 * first two (`HandlerEnd.registration`, `ViaFunction.call`); when a route lacks them (an end the
 * walker built without one) they are found here from the function itself, the way the walker finds
 * them, so the plan never guesses a registration it cannot point at.
 */
import ts from '../../typescript.cjs';
import { calleeName, enclosingFunction, functionName, memberChain, outerParent, unwrap } from '../ast.js';
import { classifyCallbackArgument } from '../entries.js';
import type { FileIndex } from '../file-index.js';
import type { Project } from '../project.js';
import type { Route, RouteEnd, ViaFunction } from '../reach.js';

export type HandlerRouteEnd = Extract<RouteEnd, { type: 'handler' }>;

export interface RegistrationSeam {
  call: ts.CallExpression;
  handlerArg: ts.Expression;
  nameArg: ts.Expression | undefined;
  file: FileIndex;
}

/** The registration of a route's handler: the analyzer's, or the call the handler (or a wrapper around it) is an argument of. */
export function registrationOf(end: HandlerRouteEnd): RegistrationSeam | undefined {
  const given = (end as { registration?: RegistrationSeam }).registration;
  if (given) return given;
  return registrationAround(end.fn, end.file) ?? registrationByName(end.fn, end.file);
}

/** Registered inline: the function, or a call wrapping it (`withAuth(fn)`, `fn.bind(this)`), is the last argument of a registration. */
function registrationAround(node: ts.Node, file: FileIndex): RegistrationSeam | undefined {
  let outer = outerParent(node);
  for (let depth = 0; depth < 3; depth++) {
    const p = outer.parent;
    if (!p) return undefined;
    // `this.run.bind(this)`: the bound method stands for the method
    if (ts.isPropertyAccessExpression(p) && p.expression === outer && p.name.text === 'bind' && p.parent && ts.isCallExpression(p.parent)) {
      outer = outerParent(p.parent);
      continue;
    }
    if (!ts.isCallExpression(p)) return undefined;
    const i = p.arguments.findIndex((a) => outerParent(a) === outer);
    if (i < 0) return undefined;
    const verdict = classifyCallbackArgument(p, i);
    if (verdict?.type === 'handler') return seamOf(verdict.registration, file, verdict.lowLevel);
    if (verdict) return undefined;
    outer = outerParent(p);
  }
  return undefined;
}

/** Registered by reference: `registerTool('x', cfg, handler)`, `this.handle.bind(this)`, in the same file. */
function registrationByName(fn: ts.FunctionLikeDeclaration, file: FileIndex): RegistrationSeam | undefined {
  const name = functionName(fn);
  if (!name) return undefined;
  const refs: ts.Node[] = [...(file.identRefs.get(name) ?? []), ...(file.propRefs.get(name) ?? [])];
  for (const ref of refs) {
    if (ref.pos >= fn.pos && ref.end <= fn.end) continue;
    const found = registrationAround(ref, file) ?? registrationOfDispatcher(ref, file);
    if (found) return found;
  }
  return undefined;
}

/** `(args) => this.cut(args)` registered: a function that only returns the handler's call stands for it. */
function registrationOfDispatcher(ref: ts.Node, file: FileIndex): RegistrationSeam | undefined {
  const callee = outerParent(ref);
  const call = callee.parent;
  if (!call || !ts.isCallExpression(call) || outerParent(call.expression) !== callee) return undefined;
  let returned = outerParent(call);
  if (returned.parent && ts.isAwaitExpression(returned.parent)) returned = outerParent(returned.parent);
  const holder = returned.parent;
  const dispatcher = holder && ts.isReturnStatement(holder) ? enclosingFunction(holder) : holder && ts.isArrowFunction(holder) && holder.body === returned ? holder : undefined;
  return dispatcher ? registrationAround(dispatcher, file) : undefined;
}

function seamOf(call: ts.CallExpression, file: FileIndex, lowLevel: boolean): RegistrationSeam {
  return { call, handlerArg: call.arguments[call.arguments.length - 1], nameArg: lowLevel ? undefined : call.arguments[0], file };
}

/**
 * The calls, inside `caller`, that enter `helper`: the route's own call when it has one, else every
 * call in `caller` (nested callbacks included) whose callee is named like the helper.
 */
export function hopCalls(caller: ts.FunctionLikeDeclaration, helper: ViaFunction): ts.CallExpression[] {
  const hop: { name: string; call?: ts.CallExpression } = helper;
  if (hop.call) return [hop.call];
  if ('call' in hop) return []; // the walker says: not a direct call (a callback passed on)
  const out: ts.CallExpression[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n) && calleeName(n) === hop.name) out.push(n);
    // `this.run.bind(this)(…)` and `helper.call(this, …)` are not followed: the walker marks them
    ts.forEachChild(n, visit);
  };
  if (caller.body) visit(caller.body);
  return out;
}

/** The receiver expression of a registration call (`server` in `server.registerTool(…)`), when it is a plain member chain. */
export function registrationReceiver(call: ts.CallExpression): ts.Expression | undefined {
  const callee = unwrap(call.expression);
  if (!ts.isPropertyAccessExpression(callee)) return undefined;
  const receiver = unwrap(callee.expression);
  return memberChain(receiver).includes('?') ? undefined : receiver;
}

/**
 * The analyzer's type checker for a file, when the project offers one and its program holds this very
 * tree. Each question judges the type of its own expression: where that type is unknown to the checker
 * (an unresolved import, an error, `any`), the answer is "the types do not say" and syntax decides. No
 * file-wide check first: the full diagnostics of every planned file cost as much as building the program.
 */
export interface TypeAccess {
  checker(file: FileIndex): ts.TypeChecker | undefined;
}

interface CheckingProject {
  typeChecker(forFile?: FileIndex): ts.TypeChecker | undefined;
  typeProgram(): ts.Program | undefined;
}

export function typeAccess(project: Project): TypeAccess {
  const checking = project as unknown as Partial<CheckingProject>;
  return {
    checker(file) {
      if (!checking.typeChecker || !checking.typeProgram) return undefined;
      const checker = checking.typeChecker(file);
      const program = checking.typeProgram();
      if (!checker || !program) return undefined;
      return program.getSourceFile(file.sf.fileName) === file.sf ? checker : undefined;
    },
  };
}

/** Routes that end in an eligible handler. */
export function handlerRoutes(routes: readonly Route[]): (Route & { end: HandlerRouteEnd })[] {
  return routes.filter((r): r is Route & { end: HandlerRouteEnd } => r.end.type === 'handler');
}
