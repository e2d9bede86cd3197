/**
 * What an identifier's position does with its binding: reads it, or writes it (an assignment's target,
 * also inside a destructuring, `++`/`--`, a `for…in/of` target).
 */
import ts from '../../typescript.cjs';
import { outerParent } from '../ast.js';
import { isAssignment } from './effects.js';

/** `x++`, `--x`. */
export function isIncrement(node: ts.Node): node is ts.PrefixUnaryExpression | ts.PostfixUnaryExpression {
  return (ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) && (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken);
}

/** The target of an assignment, `++`/`--` or `delete` (through parentheses and type wrappers): written, not read. */
export function isWriteTarget(e: ts.Expression): boolean {
  const outer = outerParent(e);
  const p = outer.parent;
  if (!p) return false;
  return (isAssignment(p) && p.left === outer) || isIncrement(p) || ts.isDeleteExpression(p);
}

/** Is the identifier written here: the target of an assignment (also inside a destructuring), `++`/`--`, a `for…in/of` target? */
export function isWrite(id: ts.Identifier): boolean {
  let n: ts.Node = id;
  let p = n.parent;
  while (ts.isParenthesizedExpression(p) || ts.isNonNullExpression(p) || ts.isAsExpression(p) || ts.isSatisfiesExpression(p)) {
    n = p;
    p = p.parent;
  }
  if ((isAssignment(p) && p.left === n) || isIncrement(p)) return true;
  if ((ts.isForOfStatement(p) || ts.isForInStatement(p)) && p.initializer === n) return true;
  // `[a, b] = …`, `({ a } = …)`: an element of a literal that is an assignment's target
  if (ts.isShorthandPropertyAssignment(p) || ts.isArrayLiteralExpression(p) || (ts.isPropertyAssignment(p) && p.initializer === n) || ts.isSpreadElement(p) || ts.isSpreadAssignment(p)) {
    let lit: ts.Node = ts.isArrayLiteralExpression(p) ? p : p.parent;
    while (ts.isObjectLiteralExpression(lit.parent) || ts.isArrayLiteralExpression(lit.parent) || ts.isPropertyAssignment(lit.parent) || ts.isSpreadElement(lit.parent)) lit = lit.parent;
    const target = lit.parent;
    return !!target && ts.isBinaryExpression(target) && target.left === lit && target.operatorToken.kind === ts.SyntaxKind.EqualsToken;
  }
  return false;
}

/** A value read of the name (not a property name, a key, a declaration's name or a label). */
export function isRead(id: ts.Identifier): boolean {
  const p = id.parent;
  if (ts.isPropertyAccessExpression(p) && p.name === id) return false;
  if (ts.isQualifiedName(p) || ts.isTypeReferenceNode(p) || ts.isTypeQueryNode(p)) return false;
  if ((ts.isPropertyAssignment(p) || ts.isBindingElement(p) || ts.isMethodDeclaration(p) || ts.isPropertyDeclaration(p)) && p.name === id) return false;
  if (ts.isVariableDeclaration(p) && p.name === id) return false;
  if (ts.isLabeledStatement(p) || ts.isBreakOrContinueStatement(p)) return false;
  return true;
}
