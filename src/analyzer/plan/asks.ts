/**
 * What each legacy call becomes: the runtime function that asks the same thing, and the argument it
 * keeps (the receiver and request options are dropped; the result has the legacy type).
 *   ctx.mcpReq.elicitInput(params, opts)                  → elicit(params)
 *   server.server.createMessage(params) / requestSampling → sample(params)
 *   server.server.listRoots()                             → listRoots()
 *   ctx.mcpReq.send({ method, params }) / sendRequest / request → inputRequest({ method, params })
 *   … with a result schema, send(request, Schema, opts)        → inputRequest(request, Schema)
 *   throw new UrlElicitationRequiredError(list)           → return urlElicitationRequired(list)
 *   method.call(owner, params, opts) / method.apply(owner, [params]) → elicit(params), when `method`
 *     was read off `owner` (`owner.elicitInput`, `const method = owner.elicitInput`): the same request
 */
import ts from '../../typescript.cjs';
import { memberChain, unwrap } from '../ast.js';
import { resolveBinding } from '../bindings.js';
import { findProperty, resolveObjectLiteral, type RawSite } from '../detect.js';
import { legacyMethodRead } from '../file-index.js';
import type { AskRuntime, PlanAsk, Span } from './model.js';

export type AskDescription = { ok: true; ask: Omit<PlanAsk, 'start' | 'end'> & { node: ts.Node } } | { ok: false };

/** The checker's answer to "is this a Standard Schema (has `~standard`)?"; undefined without a checker. */
export type SchemaJudge = (e: ts.Expression) => boolean | undefined;

export function describeAsk(site: RawSite, isSchema: SchemaJudge = () => undefined): AskDescription {
  if (site.form === 'url-elicitation-error') {
    const list = site.call.arguments?.[0];
    if (!list || !ts.isThrowStatement(site.node)) return { ok: false };
    return { ok: true, ask: { node: site.node, runtime: 'urlElicitationRequired', params: spanOf(list), statementThrow: true } };
  }
  const call = site.call as ts.CallExpression;
  const args = askArguments(site);
  if (!args) return { ok: false };
  const first = args[0];
  const runtime = runtimeOf(site);
  if (runtime === 'listRoots') return { ok: true, ask: { node: call, runtime } };
  if (!first || ts.isSpreadElement(first)) return { ok: false };
  const resultSchema = runtime === 'inputRequest' ? resultSchemaOf(args[1], isSchema) : undefined;
  return { ok: true, ask: { node: call, runtime, params: spanOf(first), ...(resultSchema && { resultSchema }) } };
}

/**
 * The result schema a raw request passes as its second argument (v1's `request(req, Schema, opts)`, v2's
 * `send(req, Schema, opts)`): kept, so the answer keeps the type (and the check) the legacy call gave it;
 * dropped, a `z.any()` answer became an `ElicitResult` and code reading it stopped type-checking. v2's
 * `send(req, opts)` passes options there: an object literal, or (checker) a value without `~standard`.
 */
function resultSchemaOf(second: ts.Expression | undefined, isSchema: SchemaJudge): Span | undefined {
  if (!second || ts.isSpreadElement(second)) return undefined;
  const e = unwrap(second);
  if (ts.isObjectLiteralExpression(e) || e.kind === ts.SyntaxKind.NullKeyword || (ts.isIdentifier(e) && e.text === 'undefined')) return undefined;
  // the shapes servers write (`ElicitResultSchema`, `schemas.CreateMessageResultSchema`, `z.any()`) need no
  // checker: asking it for `~standard` of a zod schema costs about half a second of type relations
  if (isSchemaBySyntax(e)) return spanOf(second);
  return isSchema(second) === false ? undefined : spanOf(second);
}

/** A name ending in `Schema` (the SDK's result schemas and most users' own), or a call on `z`/`zod`. */
function isSchemaBySyntax(e: ts.Expression): boolean {
  if (ts.isIdentifier(e)) return /Schema$/.test(e.text);
  if (ts.isPropertyAccessExpression(e)) return /Schema$/.test(e.name.text);
  if (!ts.isCallExpression(e)) return false;
  let head: ts.Expression = e.expression;
  while (ts.isPropertyAccessExpression(head) || ts.isCallExpression(head)) head = head.expression;
  return ts.isIdentifier(head) && (head.text === 'z' || head.text === 'zod');
}

/**
 * The arguments the legacy method receives: the call's own, or for `method.call(owner, …)` /
 * `method.apply(owner, [ … ])` those after `owner`. Undefined for an invocation the port cannot
 * rewrite as the direct call: `apply` with a list that is not written out, or a method invoked on
 * another object than the one it was read from (it would ask through another connection).
 */
export function askArguments(site: RawSite): readonly ts.Expression[] | undefined {
  const call = site.call;
  if (site.indirect !== 'call-apply') return call.arguments ?? [];
  if (!ts.isCallExpression(call)) return undefined;
  const head = unwrap(call.expression);
  if (!ts.isPropertyAccessExpression(head)) return undefined;
  const thisArg = call.arguments[0];
  if (!thisArg || ts.isSpreadElement(thisArg) || !invokedOnOwner(head.expression, thisArg)) return undefined;
  if (head.name.text === 'call') return call.arguments.slice(1);
  const list = call.arguments[1] ? unwrap(call.arguments[1]) : undefined;
  return list && ts.isArrayLiteralExpression(list) && call.arguments.length === 2 ? list.elements : undefined;
}

/** Was the method value `fn` read off `thisArg` (the same variable or member chain, bound the same)? */
function invokedOnOwner(fn: ts.Expression, thisArg: ts.Expression): boolean {
  const f = unwrap(fn);
  let owner: ts.Expression | undefined;
  if (ts.isPropertyAccessExpression(f)) owner = f.expression;
  else if (ts.isIdentifier(f)) {
    const decl = resolveBinding(f, f.text);
    owner = decl && ts.isVariableDeclaration(decl) && decl.initializer && ts.isIdentifier(decl.name) && constBinding(decl) ? legacyMethodRead(decl.initializer)?.receiver : undefined;
  }
  return !!owner && sameReference(owner, thisArg);
}

function constBinding(decl: ts.VariableDeclaration): boolean {
  return !!(ts.getCombinedNodeFlags(decl) & ts.NodeFlags.Const);
}

/** Two spellings of one reference: the same member chain from `this` or from one binding, no computed step. */
function sameReference(a: ts.Expression, b: ts.Expression): boolean {
  const ca = memberChain(unwrap(a));
  const cb = memberChain(unwrap(b));
  if (ca.length === 0 || ca.length !== cb.length || ca.includes('?') || !ca.every((x, i) => x === cb[i])) return false;
  if (ca[0] === 'this') return true;
  const ra = rootOf(a);
  const rb = rootOf(b);
  return !!ra && !!rb && resolveBinding(ra, ra.text) === resolveBinding(rb, rb.text);
}

function rootOf(e: ts.Expression): ts.Identifier | undefined {
  let x = unwrap(e);
  while (ts.isPropertyAccessExpression(x)) x = unwrap(x.expression);
  return ts.isIdentifier(x) ? x : undefined;
}

function runtimeOf(site: RawSite): AskRuntime {
  switch (site.form) {
    case 'elicitInput':
      return 'elicit';
    case 'createMessage':
    case 'requestSampling':
      return 'sample';
    case 'listRoots':
      return 'listRoots';
    default:
      return 'inputRequest';
  }
}

/** A node's span (from its first token, not its leading trivia). */
export function spanOf(node: ts.Node): Span {
  return { start: node.getStart(), end: node.end };
}

/** Task-augmented request (`params: { task: { ttl }, … }`): the client may answer with a task to poll; never an input request. */
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
