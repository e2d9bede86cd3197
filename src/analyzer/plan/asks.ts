/**
 * What each legacy call becomes: the runtime function that asks the same thing, and the argument it
 * keeps (the receiver and request options are dropped; the result has the legacy type).
 *   ctx.mcpReq.elicitInput(params, opts)                  → elicit(params)
 *   server.server.createMessage(params) / requestSampling → sample(params)
 *   server.server.listRoots()                             → listRoots()
 *   ctx.mcpReq.send({ method, params }) / sendRequest / request → inputRequest({ method, params })
 *   throw new UrlElicitationRequiredError(list)           → return urlElicitationRequired(list)
 */
import ts from '../../typescript.cjs';
import { findProperty, resolveObjectLiteral, type RawSite } from '../detect.js';
import type { AskRuntime, PlanAsk, Span } from './model.js';

export type AskDescription = { ok: true; ask: Omit<PlanAsk, 'start' | 'end'> & { node: ts.Node } } | { ok: false };

export function describeAsk(site: RawSite): AskDescription {
  if (site.form === 'url-elicitation-error') {
    const list = site.call.arguments?.[0];
    if (!list || !ts.isThrowStatement(site.node)) return { ok: false };
    return { ok: true, ask: { node: site.node, runtime: 'urlElicitationRequired', params: spanOf(list), statementThrow: true } };
  }
  const call = site.call as ts.CallExpression;
  const first = call.arguments[0];
  const runtime = runtimeOf(site);
  if (runtime === 'listRoots') return { ok: true, ask: { node: call, runtime } };
  if (!first || ts.isSpreadElement(first)) return { ok: false };
  return { ok: true, ask: { node: call, runtime, params: spanOf(first) } };
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
