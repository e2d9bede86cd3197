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
 * before the first ask after the value is made; the binding is never assigned again. The value handed on
 * whole (`parse(res)`, `const { body } = res`), or a member the journal cannot carry (`res.body`) keeps the
 * site manual (`not-carryable`), as before.
 *
 * A use after the answer is a **snapshot** when it reads data (`info.size`, `info.mtime.toISOString()`,
 * `res.status`, `res.headers.get('x-total')`): the shortest part of its chain whose type the journal carries
 * (`info.size`, `info.mtime`; the rest, `.toISOString()`, runs on the journalled copy), read right after the
 * value is made, `const infoSize = await once(() => info.size);`, and the use reads that name instead. Every
 * round takes the snapshot from the journal, so the completing round, on any replica, uses what the first
 * round saw, never the value. Only a read of data counts, decided with the checker: a property (a getter
 * with no effect), an index by a literal, or a call of a method that returns a carryable value, not a
 * promise, not `void` (`res.json()` after the answer reads a body: an effect), whose body, when the project
 * shows it, has no effect (writes no `this.x`), its arguments literals or `const`s made before the value;
 * the value's type never `null` or `undefined` (the snapshot is read before any check of it).
 */
import ts from '../../typescript.cjs';
import { enclosingFunction, isFunctionLike, outerParent, unwrap } from '../ast.js';
import { resolveBinding } from '../bindings.js';
import { carryableType, isPromiseValue } from './carry.js';
import { bodyHasEffects } from './effects.js';
import { nextAnswerEnd, type HeldContext } from './held-values.js';
import { isRead, isWriteTarget } from './references.js';

export type ProjectionContext = Pick<HeldContext, 'fn' | 'askPoints' | 'checker' | 'judge'>;

/** A read of data after the answer, taken right after the value is made (`const infoSize = await once(() => info.size);`). */
export interface SnapshotRead {
  /** The first use: its text is the snapshot's thunk. */
  read: ts.Expression;
  /** Every use with that text, each replaced by the snapshot's name. */
  uses: ts.Expression[];
  /** The statement that makes the value: the snapshots go right after it. */
  after: ts.VariableStatement;
}

/** The reads to memoize in place and to snapshot, or why a use of the value cannot be memoized (for the marker), or nothing to say. */
export type Projection = { reads: ts.Expression[]; snapshots: SnapshotRead[] } | { why: string } | undefined;

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
  const snapshots: SnapshotRead[] = [];
  let why: string | undefined;
  const visit = (n: ts.Node): void => {
    if (why) return;
    if (ts.isIdentifier(n) && n !== decl.name && n.text === names[0] && isRead(n) && resolveBinding(n, n.text) === binding) {
      const use = n.getStart() >= askEnd ? snapshotUse(n, decl, context, checker) : projectedUse(n, context.fn, checker);
      if (typeof use === 'string') why = n.getStart() >= askEnd ? `read after the answer: ${use}` : use;
      else if (n.getStart() < askEnd) reads.push(use);
      else addSnapshot(snapshots, use, decl);
      return;
    }
    ts.forEachChild(n, visit);
  };
  if (context.fn.body) ts.forEachChild(context.fn.body, visit);
  if (why) return { why };
  // a read before the ask that a snapshot also takes (`res.status` in the question and after the answer)
  // reads the snapshot, which is made right after the value, before it: one journal entry for one value
  const memoized = reads.filter((r) => {
    const same = snapshots.find((s) => compact(s.read) === compact(r) && r.getStart() >= s.after.end);
    if (same) same.uses.push(r);
    return !same;
  });
  for (const s of snapshots) s.uses.sort((a, b) => a.getStart() - b.getStart());
  return { reads: memoized, snapshots };
}

function addSnapshot(snapshots: SnapshotRead[], use: ts.Expression, decl: ts.VariableDeclaration): void {
  const text = compact(use);
  const known = snapshots.find((s) => compact(s.read) === text);
  if (known) known.uses.push(use);
  else snapshots.push({ read: use, uses: [use], after: decl.parent.parent as ts.VariableStatement });
}

function compact(e: ts.Expression): string {
  return e.getText().replace(/\s+/g, '');
}

/**
 * The part of a use after the answer to take before the ask (a read of data the journal carries), or why
 * the use is not one.
 */
function snapshotUse(id: ts.Identifier, decl: ts.VariableDeclaration, context: ProjectionContext, checker: ts.TypeChecker): ts.Expression | string {
  if (isWriteTarget(id)) return 'assigned again';
  const list = decl.parent;
  const statement = list.parent;
  // the snapshot is a statement of its own right after the declaration, and reads the value before any check of it
  if (!ts.isVariableStatement(statement) || !(ts.isBlock(statement.parent) || ts.isSourceFile(statement.parent) || ts.isCaseOrDefaultClause(statement.parent))) return 'not declared in a statement of its own';
  if (!(list.flags & ts.NodeFlags.Const) && !(list.flags & ts.NodeFlags.Let)) return 'a `var`';
  if (mayBeNullish(checker.getTypeAtLocation(decl.name))) return 'it may be `null` or `undefined`';
  let at: ts.Expression = id;
  for (;;) {
    const p = at.parent;
    if (ts.isPropertyAccessExpression(p) && p.expression === at) {
      if (ts.isCallExpression(p.parent) && p.parent.expression === p) {
        // a method of the value: a read of data only when it returns one and does nothing else
        const call = p.parent;
        const stop = dataCall(call, decl, context, checker);
        if (stop) return stop;
        at = call;
      } else {
        if (effectfulGetter(p, context, checker)) return `\`${shortText(p)}\` runs a getter with effects`;
        at = p;
      }
    } else if (ts.isElementAccessExpression(p) && p.expression === at) {
      if (!isLiteral(p.argumentExpression)) return `\`${shortText(p)}\` is indexed by a value of the round`;
      at = p;
    } else if ((ts.isNonNullExpression(p) || ts.isParenthesizedExpression(p)) && p.expression === at) {
      at = p;
      continue;
    } else {
      break;
    }
    if (isWriteTarget(at)) return `\`${shortText(at)}\` is written to`;
    // the shortest part the journal carries: the rest of the chain runs on the journalled copy
    if (carryableType(checker.getTypeAtLocation(at), checker) === true) return at;
  }
  return at === id ? 'handed on whole' : `\`${shortText(at)}\` cannot travel either`;
}

/** Why a method call on the value is not a read of data, or nothing when it is one. */
function dataCall(call: ts.CallExpression, decl: ts.VariableDeclaration, context: ProjectionContext, checker: ts.TypeChecker): string | undefined {
  const text = `\`${shortText(call)}\``;
  const type = checker.getTypeAtLocation(call);
  if (isPromiseValue(call, checker)) return `${text} is asynchronous: an effect, not a read of data`;
  if (type.flags & (ts.TypeFlags.Void | ts.TypeFlags.Undefined | ts.TypeFlags.Never)) return `${text} returns nothing: an effect, not a read of data`;
  if (carryableType(type, checker) !== true) return `${text} returns a value that cannot travel`;
  for (const a of call.arguments) if (!isLiteral(a) && !isConstBefore(a, decl)) return `${text} reads a value of the round`;
  const declared = checker.getResolvedSignature(call)?.declaration;
  if (declared && isFunctionLike(declared) && declared.body && bodyHasEffects(declared, undefined, judgeFor(declared, context), 'other')) return `${text} has effects`;
  return undefined;
}

/** A property of the value read through a getter whose body has effects. */
function effectfulGetter(p: ts.PropertyAccessExpression, context: ProjectionContext, checker: ts.TypeChecker): boolean {
  const decl = checker.getSymbolAtLocation(p.name)?.declarations?.find(ts.isGetAccessor);
  return !!decl?.body && bodyHasEffects(decl, undefined, judgeFor(decl, context), 'other');
}

/** The planner's judge for a function of this file; for one of another file, one that knows none of its imports. */
function judgeFor(fn: ts.FunctionLikeDeclaration, context: ProjectionContext): ProjectionContext['judge'] {
  if (fn.getSourceFile() === context.fn.getSourceFile()) return context.judge;
  return { ...context.judge, imported: new Set(), moduleFunction: () => undefined };
}

function isLiteral(e: ts.Expression): boolean {
  const u = unwrap(e);
  return ts.isStringLiteralLike(u) || ts.isNumericLiteral(u) || u.kind === ts.SyntaxKind.TrueKeyword || u.kind === ts.SyntaxKind.FalseKeyword || u.kind === ts.SyntaxKind.NullKeyword;
}

/** A `const` of the function declared before the value (it holds the same value where the snapshot reads it). */
function isConstBefore(e: ts.Expression, decl: ts.VariableDeclaration): boolean {
  const u = unwrap(e);
  if (!ts.isIdentifier(u)) return false;
  const bound = resolveBinding(u, u.text);
  return !!bound && ts.isVariableDeclaration(bound) && !!(bound.parent.flags & ts.NodeFlags.Const) && bound.end <= decl.getStart() && bound.getSourceFile() === decl.getSourceFile();
}

function mayBeNullish(type: ts.Type): boolean {
  const parts = type.isUnion() ? type.types : [type];
  return parts.some((t) => !!(t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined | ts.TypeFlags.Void | ts.TypeFlags.Any | ts.TypeFlags.Unknown)));
}

/** The expression to memoize for one use of the value, or why the use cannot be memoized. */
function projectedUse(id: ts.Identifier, fn: ts.FunctionLikeDeclaration, checker: ts.TypeChecker): ts.Expression | string {
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
