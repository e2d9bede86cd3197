/** The called name without building the member chain: a cheap first test run on every call in a file. */
import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { unwrap } from './expressions.js';

/** `a.b.c(...)` → `c`, `f(...)` → `f`, `a['c'](...)` → `c`; undefined for other callees. */
export function lastCalleeName(callee: TSESTree.Node): string | undefined {
  const c = unwrap(callee);
  if (c.type === AST_NODE_TYPES.Identifier) return c.name;
  if (c.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  if (!c.computed) return c.property.type === AST_NODE_TYPES.Identifier ? c.property.name : undefined;
  return c.property.type === AST_NODE_TYPES.Literal && typeof c.property.value === 'string' ? c.property.value : undefined;
}
