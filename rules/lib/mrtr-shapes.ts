/** Recognising the MRTR API of `@modelcontextprotocol/server` in TSESTree, by the names in src/vocabulary.ts. */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { MRTR_API } from '../../src/vocabulary.js';
import { endsWith, findProperty, memberPath, propertyName, staticString, unwrap, unwrapAwait } from './expressions.js';
import { singleValueOf } from './resolve.js';

/** `inputRequired({...})` or `mcp.inputRequired({...})`, but not the builders `inputRequired.elicit(...)`. */
export function isInputRequiredCall(node: TSESTree.Node): node is TSESTree.CallExpression {
  if (node.type !== AST_NODE_TYPES.CallExpression) return false;
  const path = memberPath(node.callee);
  return path[path.length - 1] === MRTR_API.inputRequired;
}

/** The object literal given to `inputRequired(...)`, also through a local const. */
export function inputRequiredSpec(
  sourceCode: Readonly<TSESLint.SourceCode>,
  call: TSESTree.CallExpression,
): TSESTree.ObjectExpression | undefined {
  const [arg] = call.arguments;
  if (!arg) return undefined;
  return objectLiteral(sourceCode, arg);
}

/** A hand-built result object: `{ resultType: 'input_required', ... }`. */
export function isInputRequiredObject(node: TSESTree.ObjectExpression): boolean {
  const prop = findProperty(node, 'resultType');
  return prop !== undefined && staticString(prop.value) === MRTR_API.resultType;
}

/** `ctx.mcpReq.requestState()` (any receiver ending in `mcpReq`). */
export function isRequestStateAccessorCall(node: TSESTree.CallExpression): boolean {
  return endsWith(memberPath(node.callee), MRTR_API.requestStatePath);
}

/** An expression that is (or names a local const holding) an object literal. */
export function objectLiteral(
  sourceCode: Readonly<TSESLint.SourceCode>,
  node: TSESTree.Node,
): TSESTree.ObjectExpression | undefined {
  let current = unwrapAwait(node);
  for (let depth = 0; depth < 5 && current.type === AST_NODE_TYPES.Identifier; depth++) {
    const value = singleValueOf(sourceCode, current);
    if (!value) return undefined;
    current = unwrapAwait(value);
  }
  return current.type === AST_NODE_TYPES.ObjectExpression ? current : undefined;
}

/** The question keys of an `inputRequests` object literal; undefined when not all are static. */
export function inputRequestKeys(
  sourceCode: Readonly<TSESLint.SourceCode>,
  spec: TSESTree.ObjectExpression,
): string[] | undefined {
  const prop = findProperty(spec, 'inputRequests');
  if (!prop) return [];
  const requests = objectLiteral(sourceCode, prop.value);
  if (!requests) return undefined;
  const keys: string[] = [];
  for (const entry of requests.properties) {
    if (entry.type !== AST_NODE_TYPES.Property) return undefined;
    const key = propertyName(entry.key, entry.computed);
    if (key === undefined) return undefined;
    keys.push(key);
  }
  return keys;
}

/** Which builder made an `inputRequests` entry: `inputRequired.elicit(...)` → `elicit`. */
export function builderName(node: TSESTree.Node): string | undefined {
  const n = unwrap(node);
  if (n.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const path = memberPath(n.callee);
  return path.length >= 2 && path[path.length - 2] === MRTR_API.inputRequired ? path[path.length - 1] : undefined;
}
