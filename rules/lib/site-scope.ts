/**
 * Where a legacy-looking call is not a server→client request at all, mirroring the analyzer's
 * syntactic exclusions so the rule and `mrtr-port analyze` agree on the shared fixtures:
 * files that import only the client side of the SDK, and handlers a client registers for the three
 * server→client methods. (A class method named like an ask that forwards to a server, such as a
 * framework's `createMessage()` calling `this.server.createMessage()`, is a site: its callers are the
 * framework's users. The protocol's own methods call `this.request(…)`, which is no site: see
 * `isOwnMethodCall` in legacy-call-shape.ts.)
 */
import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import {
  SDK_PACKAGES,
  SET_REQUEST_HANDLER,
  SPEC_METHODS,
  V1_CLIENT_MODULE_PREFIX,
  V1_SERVER_MODULE_PREFIX,
} from '../../src/vocabulary.js';
import { memberPath, staticString, unwrap } from './expressions.js';

/** v1 schemas of the requests a client answers (same list as the analyzer's entries.ts). */
const CLIENT_SIDE_SCHEMAS = new Set(['ElicitRequestSchema', 'CreateMessageRequestSchema', 'ListRootsRequestSchema']);

type Side = 'server' | 'client' | 'shared';

/** Does the program import the client side of the SDK and not the server side? */
export function isClientOnlyProgram(program: TSESTree.Program): boolean {
  const sides = new Set<Side>();
  for (const statement of program.body) {
    const source =
      statement.type === AST_NODE_TYPES.ImportDeclaration ||
      statement.type === AST_NODE_TYPES.ExportAllDeclaration ||
      statement.type === AST_NODE_TYPES.ExportNamedDeclaration
        ? statement.source?.value
        : undefined;
    const side = source === undefined ? undefined : sideOf(source);
    if (side) sides.add(side);
  }
  return sides.has('client') && !sides.has('server');
}

/** Is `node` inside a client's handler for a server→client request? */
export function isOutsideServerRequests(node: TSESTree.Node): boolean {
  for (let current = node.parent; current; current = current.parent) {
    if (isFunction(current) && isClientSideHandler(current)) return true;
  }
  return false;
}

function sideOf(spec: string): Side | undefined {
  const under = (pkg: string): boolean => spec === pkg || spec.startsWith(`${pkg}/`);
  if (under(SDK_PACKAGES.v2Client) || spec.startsWith(V1_CLIENT_MODULE_PREFIX)) return 'client';
  if (under(SDK_PACKAGES.v2Server) || spec.startsWith(V1_SERVER_MODULE_PREFIX)) return 'server';
  if (under(SDK_PACKAGES.v2Core) || under(SDK_PACKAGES.v1)) return 'shared';
  return undefined;
}

/** `x.setRequestHandler('elicitation/create' | ElicitRequestSchema | …, fn)`: the client answering. */
function isClientSideHandler(fn: TSESTree.Node): boolean {
  const call = fn.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || call.arguments.at(-1) !== fn || call.arguments.length < 2) return false;
  if (memberPath(call.callee).at(-1) !== SET_REQUEST_HANDLER) return false;
  const first = unwrap(call.arguments[0]);
  const method = staticString(first) ?? memberPath(first).at(-1) ?? '';
  return Object.hasOwn(SPEC_METHODS, method) || CLIENT_SIDE_SCHEMAS.has(method);
}

function isFunction(node: TSESTree.Node): boolean {
  return (
    node.type === AST_NODE_TYPES.FunctionDeclaration ||
    node.type === AST_NODE_TYPES.FunctionExpression ||
    node.type === AST_NODE_TYPES.ArrowFunctionExpression
  );
}
