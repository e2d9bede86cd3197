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

/**
 * The target of an assignment, `++`/`--` or `delete` (through parentheses and type wrappers), also an
 * element of a destructuring assignment's pattern (`[a, this.b] = …`, `({ x: s.y } = …)`) and a
 * `for…in/of` target that is not declared there (`for (current of list)`): written, not read.
 */
export function isWriteTarget(e: ts.Expression): boolean {
  const outer = outerParent(e);
  const p = outer.parent;
  if (!p) return false;
  if ((isAssignment(p) && p.left === outer) || isIncrement(p) || ts.isDeleteExpression(p)) return true;
  if ((ts.isForOfStatement(p) || ts.isForInStatement(p)) && p.initializer === outer) return true;
  return isPatternElement(outer);
}

/** An element of an array or object literal that is a destructuring assignment's target (or a `for…of` target), at any depth. */
function isPatternElement(n: ts.Node): boolean {
  let at = n;
  let p = n.parent;
  // `[a = 1] = …`, `({ a: b = 1 } = …)`: an element with a default is the default's target
  if (p && ts.isBinaryExpression(p) && p.left === at && p.operatorToken.kind === ts.SyntaxKind.EqualsToken && (ts.isArrayLiteralExpression(p.parent) || ts.isPropertyAssignment(p.parent))) {
    at = p;
    p = p.parent;
  }
  if (!p) return false;
  if (ts.isPropertyAssignment(p)) {
    if (p.initializer !== at) return false;
    at = p.parent;
  } else if (ts.isSpreadElement(p) || ts.isSpreadAssignment(p)) {
    at = p.parent;
  } else if (ts.isArrayLiteralExpression(p)) {
    at = p;
  } else {
    return false;
  }
  // climb to the outermost literal of the pattern
  for (;;) {
    const up = at.parent;
    if (!up) return false;
    if (ts.isArrayLiteralExpression(up) || (ts.isSpreadElement(up) && ts.isArrayLiteralExpression(up.parent))) at = ts.isSpreadElement(up) ? up.parent : up;
    else if (ts.isPropertyAssignment(up) && up.initializer === at) at = up.parent;
    else if (ts.isSpreadAssignment(up)) at = up.parent;
    else if (ts.isBinaryExpression(up) && up.left === at && up.operatorToken.kind === ts.SyntaxKind.EqualsToken && (ts.isArrayLiteralExpression(up.parent) || ts.isPropertyAssignment(up.parent))) at = up; // a nested pattern with a default
    else break;
  }
  let holder: ts.Node = at;
  while (holder.parent && ts.isParenthesizedExpression(holder.parent)) holder = holder.parent;
  const target = holder.parent;
  if (!target) return false;
  if (ts.isBinaryExpression(target) && target.left === holder && target.operatorToken.kind === ts.SyntaxKind.EqualsToken) return true;
  return (ts.isForOfStatement(target) || ts.isForInStatement(target)) && target.initializer === holder;
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
