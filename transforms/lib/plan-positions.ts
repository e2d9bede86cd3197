/**
 * Checks that the positions of a plan still hold the nodes the plan was made for, on a TypeScript
 * parse of the text the transform edits. The transform never decides a shape: when a position does
 * not hold what the plan says (the text changed since it was analyzed, or a planner bug), it refuses
 * the whole file with an error naming the line, and the runner leaves the file as it was.
 */
import ts from '../../src/typescript.cjs';

export class PlanMismatchError extends Error {
  constructor(path: string, sf: ts.SourceFile, at: number, expected: string) {
    const { line, character } = sf.getLineAndCharacterOfPosition(Math.max(0, Math.min(at, sf.text.length)));
    super(`${path}:${line + 1}:${character + 1}: the plan expects ${expected} here; file left unchanged`);
    this.name = 'PlanMismatchError';
  }
}

/** Every node whose span (first token to end) is exactly [start, end), outermost first. */
export function nodesAt(sf: ts.SourceFile, start: number, end: number): ts.Node[] {
  const out: ts.Node[] = [];
  const visit = (n: ts.Node): void => {
    if (n.pos > start || n.end < end) return;
    if (n.end === end && n.getStart(sf) === start) out.push(n);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/** The innermost node whose first token starts at `at`. */
export function nodesStartingAt(sf: ts.SourceFile, at: number): ts.Node[] {
  const out: ts.Node[] = [];
  const visit = (n: ts.Node): void => {
    if (n.pos > at || n.end <= at) return;
    if (n.getStart(sf) === at) out.push(n);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

export function stripWrappers(node: ts.Node): ts.Node {
  let n = node;
  while (ts.isParenthesizedExpression(n) || ts.isAsExpression(n) || ts.isNonNullExpression(n) || ts.isSatisfiesExpression(n) || ts.isTypeAssertionExpression(n)) n = n.expression;
  return n;
}
