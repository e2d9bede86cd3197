/** Small TSESTree helpers for reading expressions syntactically (no type information). */
import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

/** Strips what does not change a value: parentheses (already gone in ESTree), casts, `!`, `satisfies`, optional chains. */
export function unwrap(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  for (;;) {
    switch (current.type) {
      case AST_NODE_TYPES.TSAsExpression:
      case AST_NODE_TYPES.TSNonNullExpression:
      case AST_NODE_TYPES.TSSatisfiesExpression:
      case AST_NODE_TYPES.TSTypeAssertion:
      case AST_NODE_TYPES.TSInstantiationExpression:
        current = current.expression;
        break;
      case AST_NODE_TYPES.ChainExpression:
        current = current.expression;
        break;
      default:
        return current;
    }
  }
}

/** Like `unwrap`, and also strips `await`. */
export function unwrapAwait(node: TSESTree.Node): TSESTree.Node {
  let current = unwrap(node);
  while (current.type === AST_NODE_TYPES.AwaitExpression) current = unwrap(current.argument);
  return current;
}

/** The name of a non-computed property key or member property, or a computed string literal. */
export function propertyName(
  key: TSESTree.Expression | TSESTree.PrivateIdentifier | TSESTree.PropertyName,
  computed: boolean,
): string | undefined {
  if (!computed && key.type === AST_NODE_TYPES.Identifier) return key.name;
  return staticString(key);
}

/** A string literal or a template literal without expressions. */
export function staticString(node: TSESTree.Node): string | undefined {
  const n = unwrap(node);
  if (n.type === AST_NODE_TYPES.Literal && typeof n.value === 'string') return n.value;
  if (n.type === AST_NODE_TYPES.TemplateLiteral && n.expressions.length === 0) return n.quasis[0].value.cooked ?? undefined;
  return undefined;
}

/**
 * A member chain as written, outermost receiver first: `this.server.server.elicitInput` →
 * `['this', 'server', 'server', 'elicitInput']`. Computed or call-result segments are `'?'`
 * (the same convention as `CallShape.callee` in src/vocabulary.ts).
 */
export function memberPath(node: TSESTree.Node): string[] {
  const n = unwrap(node);
  switch (n.type) {
    case AST_NODE_TYPES.Identifier:
      return [n.name];
    case AST_NODE_TYPES.ThisExpression:
      return ['this'];
    case AST_NODE_TYPES.MemberExpression:
      // A private field reads like a public one: `this.#server` → `['this', 'server']`.
      if (n.property.type === AST_NODE_TYPES.PrivateIdentifier) return [...memberPath(n.object), n.property.name];
      return [...memberPath(n.object), propertyName(n.property, n.computed) ?? '?'];
    default:
      return ['?'];
  }
}

/** Does `path` end with `suffix` (e.g. `['ctx','mcpReq','requestState']` ends with `['mcpReq','requestState']`)? */
export function endsWith(path: readonly string[], suffix: readonly string[]): boolean {
  if (suffix.length > path.length) return false;
  const offset = path.length - suffix.length;
  return suffix.every((segment, i) => path[offset + i] === segment);
}

/** The last segment of a call's callee (`a.b.seal(...)` → `seal`, `seal(...)` → `seal`). */
export function calleeName(call: TSESTree.CallExpression | TSESTree.NewExpression): string | undefined {
  const path = memberPath(call.callee);
  const last = path[path.length - 1];
  return last === '?' ? undefined : last;
}

/** The property of an object literal with this (static) name, ignoring spreads. */
export function findProperty(object: TSESTree.ObjectExpression, name: string): TSESTree.Property | undefined {
  for (const prop of object.properties) {
    if (prop.type === AST_NODE_TYPES.Property && propertyName(prop.key, prop.computed) === name) return prop;
  }
  return undefined;
}

/** The node a value is used as, past casts, `!`, `await` and optional chains wrapped around it. */
export function outermostWrapper(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  while (current.parent && wrappedValue(current.parent) === current) current = current.parent;
  return current;
}

/** The value a transparent wrapper node wraps, or undefined when the node is not such a wrapper. */
function wrappedValue(node: TSESTree.Node): TSESTree.Node | undefined {
  switch (node.type) {
    case AST_NODE_TYPES.AwaitExpression:
      return node.argument;
    case AST_NODE_TYPES.TSAsExpression:
    case AST_NODE_TYPES.TSNonNullExpression:
    case AST_NODE_TYPES.TSSatisfiesExpression:
    case AST_NODE_TYPES.TSTypeAssertion:
    case AST_NODE_TYPES.TSInstantiationExpression:
    case AST_NODE_TYPES.ChainExpression:
      return node.expression;
    default:
      return undefined;
  }
}
