/**
 * Following a local name back to what it holds, within one file (rules have no type information).
 * Only what is certain is followed: a variable written once by its declaration, a function declared here.
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

export type FunctionNode =
  | TSESTree.FunctionDeclaration
  | TSESTree.FunctionExpression
  | TSESTree.ArrowFunctionExpression;

/** The variable an identifier refers to, looked up from the identifier's own scope outwards. */
export function findVariable(
  sourceCode: Readonly<TSESLint.SourceCode>,
  id: TSESTree.Identifier,
): TSESLint.Scope.Variable | undefined {
  let scope: TSESLint.Scope.Scope | null = sourceCode.getScope(id);
  while (scope) {
    const variable = scope.set.get(id.name);
    if (variable) return variable;
    scope = scope.upper;
  }
  return undefined;
}

/**
 * Every value an identifier can hold when all of them are visible: the declarator's initialiser plus
 * plain `=` assignments. Undefined when the name is a parameter, an import, destructured, or
 * written some other way (`+=`, `++`, `for…of`).
 */
export function valuesOf(
  sourceCode: Readonly<TSESLint.SourceCode>,
  id: TSESTree.Identifier,
): TSESTree.Expression[] | undefined {
  const variable = findVariable(sourceCode, id);
  if (!variable || variable.defs.length !== 1) return undefined;
  const def = variable.defs[0];
  if (def.type !== 'Variable' || def.node.id.type !== AST_NODE_TYPES.Identifier) return undefined;
  const values: TSESTree.Expression[] = [];
  if (def.node.init) values.push(def.node.init);
  for (const ref of variable.references) {
    if (!ref.isWrite() || ref.init) continue;
    const parent = ref.identifier.parent;
    if (parent?.type !== AST_NODE_TYPES.AssignmentExpression || parent.operator !== '=' || parent.left !== ref.identifier) {
      return undefined;
    }
    values.push(parent.right);
  }
  return values;
}

/** The one value of a variable that is never reassigned after its declaration. */
export function singleValueOf(
  sourceCode: Readonly<TSESLint.SourceCode>,
  id: TSESTree.Identifier,
): TSESTree.Expression | undefined {
  const values = valuesOf(sourceCode, id);
  return values?.length === 1 ? values[0] : undefined;
}

/** The function a callee names in this file: `function f() {}` or `const f = () => …` / `function () {}`. */
export function localFunction(
  sourceCode: Readonly<TSESLint.SourceCode>,
  callee: TSESTree.Node,
): FunctionNode | undefined {
  if (callee.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = findVariable(sourceCode, callee);
  if (!variable || variable.defs.length !== 1) return undefined;
  const def = variable.defs[0];
  if (def.type === 'FunctionName' && def.node.type === AST_NODE_TYPES.FunctionDeclaration) return def.node;
  const value = singleValueOf(sourceCode, callee);
  if (
    value &&
    (value.type === AST_NODE_TYPES.ArrowFunctionExpression || value.type === AST_NODE_TYPES.FunctionExpression)
  ) {
    return value;
  }
  return undefined;
}

/** The expressions a function can return: an arrow's expression body, or each `return x` not inside a nested function. */
export function returnedExpressions(fn: FunctionNode): TSESTree.Expression[] {
  if (fn.body.type !== AST_NODE_TYPES.BlockStatement) return [fn.body];
  const found: TSESTree.Expression[] = [];
  const visit = (node: TSESTree.Node): void => {
    if (node.type === AST_NODE_TYPES.ReturnStatement) {
      if (node.argument) found.push(node.argument);
      return;
    }
    if (
      node.type === AST_NODE_TYPES.FunctionDeclaration ||
      node.type === AST_NODE_TYPES.FunctionExpression ||
      node.type === AST_NODE_TYPES.ArrowFunctionExpression
    ) {
      return;
    }
    for (const child of childNodes(node)) visit(child);
  };
  for (const statement of fn.body.body) visit(statement);
  return found;
}

/** The direct child nodes of a node (skipping `parent` and non-node fields). */
export function childNodes(node: TSESTree.Node): TSESTree.Node[] {
  const children: TSESTree.Node[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === 'parent' || value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) children.push(item);
    } else if (isNode(value)) {
      children.push(value);
    }
  }
  return children;
}

function isNode(value: unknown): value is TSESTree.Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/** The nearest enclosing function of a node. */
export function enclosingFunction(node: TSESTree.Node): FunctionNode | undefined {
  let current = node.parent;
  while (current) {
    if (
      current.type === AST_NODE_TYPES.FunctionDeclaration ||
      current.type === AST_NODE_TYPES.FunctionExpression ||
      current.type === AST_NODE_TYPES.ArrowFunctionExpression
    ) {
      return current;
    }
    current = current.parent;
  }
  return undefined;
}
