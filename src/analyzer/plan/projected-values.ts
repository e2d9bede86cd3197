/**
 * A value the journal cannot carry (a `Response`, fs `Stats`, a pooled client), computed asynchronously
 * before an ask and used only before it, through what the journal can carry:
 *
 *   const res = await fetch(url);                 // await once(() => fetch(url)): live, not carried
 *   if (!res.ok) return { … };                    // if (!(await once(() => res.ok)))
 *   const data = await res.json();                // a call: memoized as any effect
 *   const answer = await elicit({ message: `${data.days.length} days…` });
 *
 * The value is memoized (the first round uses it live; the journal records it as not carried), and every
 * read of it is memoized as well, so a later round takes each read's value from the journal and never
 * touches the value itself (the runtime hands a replay a placeholder that fails on any use). Without this
 * the handler could not be ported: the value can neither travel nor be made again (computing it again
 * would fetch again, on every round).
 *
 * Only when every use is one the plan can memoize: a read of a member chain whose value the journal can
 * carry (`res.ok`, `res.headers.get('etag')`, `await res.json()`), in the function itself (not in a closure),
 * before the first ask after the value is made; the binding is never assigned again. A use after the answer,
 * the value handed on whole (`parse(res)`, `const { body } = res`), or a member the journal cannot carry
 * (`res.body`) keeps the site manual (`not-carryable`), as before.
 */
import ts from '../../typescript.cjs';
import { enclosingFunction, outerParent } from '../ast.js';
import { resolveBinding } from '../bindings.js';
import { carryableType } from './carry.js';
import { nextAnswerEnd, type HeldContext } from './held-values.js';
import { isRead, isWriteTarget } from './references.js';

export type ProjectionContext = Pick<HeldContext, 'fn' | 'askPoints' | 'checker'>;

/** The reads to memoize, or why a use of the value cannot be memoized (for the marker), or nothing to say. */
export type Projection = { reads: ts.Expression[] } | { why: string } | undefined;

/**
 * The reads to memoize so that the value `e` makes (kept in the one variable `names` names) is never used
 * on a later round, or why some use cannot be memoized.
 */
export function projectedReads(e: ts.Expression, names: readonly string[], context: ProjectionContext): Projection {
  const checker = context.checker;
  if (!checker || names.length !== 1) return undefined;
  const decl = outerParent(e).parent;
  if (!decl || !ts.isVariableDeclaration(decl) || !ts.isIdentifier(decl.name) || decl.initializer !== outerParent(e)) return undefined;
  const askEnd = nextAnswerEnd(context.askPoints, e);
  if (!Number.isFinite(askEnd)) return undefined;
  const binding = resolveBinding(e, names[0]);
  if (!binding) return undefined;

  const reads: ts.Expression[] = [];
  let why: string | undefined;
  const visit = (n: ts.Node): void => {
    if (why) return;
    if (ts.isIdentifier(n) && n !== decl.name && n.text === names[0] && isRead(n) && resolveBinding(n, n.text) === binding) {
      const use = projectedUse(n, askEnd, context.fn, checker);
      if (typeof use === 'string') why = use;
      else reads.push(use);
      return;
    }
    ts.forEachChild(n, visit);
  };
  if (context.fn.body) ts.forEachChild(context.fn.body, visit);
  return why ? { why } : { reads };
}

/** The expression to memoize for one use of the value, or why the use cannot be memoized. */
function projectedUse(id: ts.Identifier, askEnd: number, fn: ts.FunctionLikeDeclaration, checker: ts.TypeChecker): ts.Expression | string {
  if (id.getStart() >= askEnd) return 'read after the answer';
  if (enclosingFunction(id) !== fn) return 'read in a closure';
  if (isWriteTarget(id)) return 'assigned again';
  // climb the member chain the use reads (`res.headers.get('etag')`, `res.json()`), through `!` and parentheses
  let top: ts.Expression = id;
  for (;;) {
    const p = top.parent;
    if ((ts.isPropertyAccessExpression(p) || ts.isElementAccessExpression(p)) && p.expression === top) top = p;
    else if (ts.isCallExpression(p) && p.expression === top) top = p;
    else if ((ts.isNonNullExpression(p) || ts.isParenthesizedExpression(p)) && p.expression === top) top = p;
    else break;
  }
  if (top === id) return 'handed on whole';
  if (isWriteTarget(top)) return 'written to';
  // a chain that ends in a call is memoized with its `await`, if any (`await res.json()`)
  const value = ts.isAwaitExpression(top.parent) ? top.parent : top;
  if (carryableType(checker.getTypeAtLocation(value), checker) === false) return `\`${shortText(top)}\` cannot travel either`;
  return top;
}

function shortText(e: ts.Expression): string {
  const text = e.getText().replace(/\s+/g, ' ');
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
