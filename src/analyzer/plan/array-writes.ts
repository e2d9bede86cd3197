/**
 * An array of outer state (a module's array, a closure's, `this.items` of a long-lived object) changed in
 * place before an ask, by the memoized expression itself or by a function it calls (`history.push(entry)`,
 * `record(entry)` pushing, `this.items.splice(i, 1)`, `log.length = 0` in a helper), and read by the same
 * function after an answer that follows (`history.length`, `history.join(', ')`, a helper reading it).
 *
 * Memoized, the change runs once, on the replica of the round that reached it: the round that reads it may
 * run on another replica, which never saw it (the legacy call ran on one process, before and after its
 * `await`). Made again each round, `push`/`unshift`/`splice` would add again on a replica that runs two
 * rounds. No rewrite keeps the legacy behaviour, so the handler is not ported: `manual(array-write-across-ask)`
 * naming the state, the change and the read. A change nothing in the function reads after the answer stays
 * memoized: it ran once, as the legacy code ran it, on the process that served the call's first round.
 * A plain write of an element or of `length` in the function itself (`history[i] = v`) is made again each
 * round like any plain assignment (the same element, the same value): not judged here.
 */
import ts from '../../typescript.cjs';
import { isFunctionLike, outerParent, unwrap } from '../ast.js';
import { collectionKind } from './aliased-state.js';
import { BUILTIN_MUTATOR_NAMES, BUILTIN_MUTATORS } from './builtins.js';
import { isAssignment } from './effects.js';
import { sameState, stateRefOf, wholeChainOf, type StateRef } from './outer-state.js';
import { isIncrement, isWriteTarget } from './references.js';

const ARRAY_MUTATORS: ReadonlySet<string> = new Set(BUILTIN_MUTATORS.Array);
/** Functions followed from the memoized expression (and from a call after the answer), as outer-state.ts follows them. */
const MAX_DEPTH = 3;
const MAX_TEXT = 60;

export interface ArrayWriteContext {
  fn: ts.FunctionLikeDeclaration;
  checker: ts.TypeChecker;
  /** A name bound by the function on the flow path (its own data: replayed, not outer state). */
  isLocal(name: string): boolean;
  /** Where the function is past the first answer that follows `node`; undefined when no answer follows it here. */
  answeredAfter(node: ts.Node): number | undefined;
}

interface ArrayWrite {
  state: StateRef;
  /** The array, as written (`history`, `this.items`). */
  receiver: string;
  /** The change, as written (`history.push(entry)`). */
  change: string;
  /** The call of the memoized expression through which a function makes the change (`record(entry)`). */
  via?: string;
}

export interface ArrayWriteAcrossAsk {
  /** The array, as written where it is changed (`history`, `this.items`). */
  array: string;
  /** The marker's detail: the array, the change (and the call that makes it), the read. */
  detail: string;
}

/** Why memoizing `e` would lose its change of an outer array for the code after the answer, or undefined. */
export function arrayWriteAcrossAsk(e: ts.Expression, context: ArrayWriteContext): ArrayWriteAcrossAsk | undefined {
  const from = context.answeredAfter(e);
  if (from === undefined) return undefined;
  const own = (root: ts.Identifier | ts.ThisExpression): boolean => ts.isIdentifier(root) && context.isLocal(root.text);
  const writes = arrayWritesIn(e, own, context.checker, new Set());
  for (const w of writes) {
    const read = readAfter(context.fn, from, e, w.state, context.checker, new Set());
    if (!read) continue;
    const by = w.via ? `\`${w.via}\` (\`${w.change}\`)` : `\`${w.change}\``;
    return { array: w.receiver, detail: `\`${w.receiver}\` (changed in place before the ask by ${by}, read after the answer by \`${read}\`)` };
  }
  return undefined;
}

/**
 * The changes of arrays not owned by the code walked (`own`: the function's locals, or a helper's) that
 * running `node` makes: a built-in mutator call, a write of an element or of `length`, and those of the
 * functions of the project it calls.
 */
function arrayWritesIn(node: ts.Node, own: (root: ts.Identifier | ts.ThisExpression) => boolean, checker: ts.TypeChecker, seen: Set<ts.Node>): ArrayWrite[] {
  const out: ArrayWrite[] = [];
  const note = (array: ts.Expression, change: ts.Node): void => {
    if (collectionKind(array, checker) !== 'Array') return;
    const root = rootOf(array);
    if (!root || own(root)) return;
    const state = stateRefOf(array, checker);
    if (state) out.push({ state, receiver: short(array), change: short(change) });
  };
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n)) {
      const callee = unwrap(n.expression);
      if (ts.isPropertyAccessExpression(callee) && ARRAY_MUTATORS.has(callee.name.text)) note(unwrap(callee.expression), n);
      const body = projectFunction(n, checker);
      if (body && !seen.has(body) && seen.size < MAX_DEPTH) {
        seen.add(body);
        const via = seen.size === 1 ? short(n) : undefined;
        for (const w of arrayWritesIn(body.body!, (root) => declaredWithin(root, body, checker), checker, seen)) out.push({ ...w, via: w.via ?? via });
      }
    } else if (isAssignment(n) || isIncrement(n) || ts.isDeleteExpression(n)) {
      const target = unwrap(isAssignment(n) ? n.left : ts.isDeleteExpression(n) ? n.expression : n.operand);
      if (ts.isElementAccessExpression(target)) note(unwrap(target.expression), n);
      else if (ts.isPropertyAccessExpression(target) && target.name.text === 'length') note(unwrap(target.expression), n);
    }
    ts.forEachChild(n, visit);
  };
  visit(node);
  return out;
}

/**
 * A read of `state` in `fn` at or after `from` (outside `skip`, the memoized expression), or in a function
 * of the project called there: the read's text (or the call's). A further change of it
 * (`history.push(x);` as a statement, `history.length = 0`) is not a read.
 */
function readAfter(fn: ts.FunctionLikeDeclaration, from: number, skip: ts.Node | undefined, state: StateRef, checker: ts.TypeChecker, seen: Set<ts.Node>): string | undefined {
  let found: string | undefined;
  const visit = (n: ts.Node): void => {
    if (found || n === skip || ts.isTypeNode(n)) return;
    if (n.end <= from) return;
    if (n.getStart() >= from) {
      if ((ts.isIdentifier(n) && !isMemberName(n)) || n.kind === ts.SyntaxKind.ThisKeyword) {
        const whole = wholeChainOf(n as ts.Expression);
        const ref = stateRefOf(whole, checker);
        if (ref && sameState(ref, state) && !isWriteTarget(whole) && !isChangeStatement(whole)) {
          const call = outerParent(whole).parent;
          found = short(call && ts.isCallExpression(call) && unwrap(call.expression) === whole ? call : whole);
          return;
        }
      } else if (ts.isCallExpression(n)) {
        const callee = projectFunction(n, checker);
        if (callee && callee !== fn && !seen.has(callee) && seen.size < MAX_DEPTH) {
          seen.add(callee);
          if (readAfter(callee, -1, undefined, state, checker, seen)) {
            found = short(n);
            return;
          }
        }
      }
    }
    ts.forEachChild(n, visit);
  };
  if (fn.body) visit(fn.body);
  return found;
}

/** `history.push(x);`: a statement that only changes the array (its value unused). */
function isChangeStatement(chain: ts.Expression): boolean {
  if (!ts.isPropertyAccessExpression(chain) || !BUILTIN_MUTATOR_NAMES.has(chain.name.text)) return false;
  const call = outerParent(chain).parent;
  return !!call && ts.isCallExpression(call) && unwrap(call.expression) === chain && ts.isExpressionStatement(outerParent(call).parent ?? call);
}

/** The function of the project a call runs (its declaration has a body in a source file), if the checker knows it. */
function projectFunction(call: ts.CallExpression, checker: ts.TypeChecker): ts.FunctionLikeDeclaration | undefined {
  const decl = checker.getResolvedSignature(call)?.declaration;
  if (!decl || ts.isJSDocSignature(decl) || !isFunctionLike(decl) || !decl.body) return undefined;
  return decl.getSourceFile().isDeclarationFile ? undefined : decl;
}

/** Is the root a name the function declares itself (a parameter, a local)? `this` is the instance's: not. */
function declaredWithin(root: ts.Identifier | ts.ThisExpression, fn: ts.FunctionLikeDeclaration, checker: ts.TypeChecker): boolean {
  if (!ts.isIdentifier(root)) return false;
  const decl = checker.getSymbolAtLocation(root)?.valueDeclaration;
  return !!decl && decl.getSourceFile() === fn.getSourceFile() && decl.pos >= fn.pos && decl.end <= fn.end;
}

function rootOf(e: ts.Expression): ts.Identifier | ts.ThisExpression | undefined {
  let n = unwrap(e);
  while (ts.isPropertyAccessExpression(n) || ts.isElementAccessExpression(n)) n = unwrap(n.expression);
  return ts.isIdentifier(n) || n.kind === ts.SyntaxKind.ThisKeyword ? (n as ts.Identifier | ts.ThisExpression) : undefined;
}

/** `name` in `x.name`, a property's key: not a reference to a binding. */
function isMemberName(id: ts.Identifier): boolean {
  const p = id.parent;
  return (ts.isPropertyAccessExpression(p) && p.name === id) || (ts.isPropertyAssignment(p) && p.name === id) || ts.isPropertyDeclaration(p) || ts.isMethodDeclaration(p);
}

function short(n: ts.Node): string {
  const text = n.getText().replace(/\s+/g, ' ');
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text;
}
