/**
 * Narrowing a memo must keep. `E` → `once(() => E)` moves E into a closure, and TypeScript drops the
 * narrowing of a `let`, `var` or parameter inside a closure when the name is assigned again somewhere:
 *
 *   let target = args.name;                 // string | undefined
 *   if (!target) target = await pick();     // string from here on
 *   await lookup(target);                   // ok        → await once(() => lookup(target))   // TS2345
 *   …  target = other;                      // (a later assignment: the closure sees string | undefined)
 *
 * Such names are handed to the thunk as arguments of an arrow around `once`, evaluated where the
 * legacy code read them (so with their narrowed type, which the arrow's parameters take):
 * `await ((target) => once(() => lookup(target)))(target)`. The thunk's text, and so its site in the
 * journal, does not change. Decided with the type checker only (without types nothing is narrowed).
 */
import ts from '../../typescript.cjs';
import { isFunctionLike, unwrap } from '../ast.js';
import { isRead, isWrite, isWriteTarget } from './references.js';

/** Names read in `value` (outside nested functions) whose narrowed type a closure would lose, in order of first read. */
export function narrowedReads(value: ts.Expression, checker: ts.TypeChecker): string[] {
  const out: string[] = [];
  const written = new Set<string>();
  const visit = (n: ts.Node): void => {
    if (isFunctionLike(n)) return; // a closure already in the legacy code: its reads were judged there
    if (ts.isIdentifier(n)) {
      if (isWrite(n)) written.add(n.text);
      else if (!out.includes(n.text) && isRead(n) && losesNarrowing(n, checker)) out.push(n.text);
      return;
    }
    ts.forEachChild(n, visit);
  };
  visit(value);
  // a name the expression itself assigns must stay the variable: a parameter would take the write
  return out.filter((name) => !written.has(name));
}

/** A reference to a reassigned `let`/`var`/parameter whose type here is narrower than its declared type. */
function losesNarrowing(id: ts.Identifier, checker: ts.TypeChecker): boolean {
  const symbol = ts.isShorthandPropertyAssignment(id.parent) ? checker.getShorthandAssignmentValueSymbol(id.parent) : checker.getSymbolAtLocation(id);
  const decl = symbol?.valueDeclaration;
  if (!symbol || !decl || !isMutableBinding(decl)) return false;
  const declared = checker.getTypeOfSymbol(symbol);
  const here = checker.getTypeAtLocation(id);
  // `let x;` (or `= null`/`= undefined`) evolves its type by assignment: a closure sees an implicit any (TS7005)
  const evolving = isAutoTyped(decl) && !!(declared.flags & ts.TypeFlags.Any) && !(here.flags & ts.TypeFlags.Any);
  if (!evolving && checker.isTypeAssignableTo(declared, here)) return false;
  return isReassigned(symbol, decl, checker);
}

function isAutoTyped(decl: ts.Declaration): boolean {
  if (!ts.isVariableDeclaration(decl) || decl.type || !ts.isIdentifier(decl.name)) return false;
  const init = decl.initializer;
  return !init || init.kind === ts.SyntaxKind.NullKeyword || (ts.isIdentifier(init) && init.text === 'undefined');
}

function isMutableBinding(decl: ts.Declaration): boolean {
  let d: ts.Node = decl;
  while (ts.isBindingElement(d)) d = d.parent.parent; // `{ a } = …`, `[a] = …`: the declaration around the pattern
  if (ts.isParameter(d)) return true;
  if (!ts.isVariableDeclaration(d)) return false;
  return !(ts.getCombinedNodeFlags(d) & ts.NodeFlags.Const);
}

/** Is the binding written anywhere after its declaration (an assignment, `++`/`--`, a `for…of` target)? */
function isReassigned(symbol: ts.Symbol, decl: ts.Declaration, checker: ts.TypeChecker): boolean {
  const scope = declaringScope(decl);
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found) return;
    if (ts.isIdentifier(n) && n.text === symbol.name && isWrite(n) && checker.getSymbolAtLocation(n) === symbol) {
      found = true;
      return;
    }
    ts.forEachChild(n, visit);
  };
  visit(scope);
  return found;
}

function declaringScope(decl: ts.Node): ts.Node {
  for (let n = decl.parent; n; n = n.parent) if (isFunctionLike(n) || ts.isSourceFile(n)) return n;
  return decl.getSourceFile();
}

/**
 * Property paths read in `value` (outside nested functions) that a check narrowed (`r.content` after
 * `if (r.content.type === 'text')`): TypeScript keeps no narrowing of a property path inside a closure,
 * whatever its root. The shortest narrowed part of each chain, in order; none rooted at a name in `skip`
 * (already handed in whole) or written by the expression itself.
 */
export function narrowedPaths(value: ts.Expression, checker: ts.TypeChecker, skip: readonly string[]): ts.PropertyAccessExpression[] {
  const out: ts.PropertyAccessExpression[] = [];
  const visit = (n: ts.Node): void => {
    if (isFunctionLike(n)) return;
    if (ts.isPropertyAccessExpression(n)) {
      const narrowed = shortestNarrowed(n, checker);
      if (narrowed && !skip.includes(rootName(narrowed) ?? '') && !writes(value, narrowed)) {
        out.push(narrowed);
        return;
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(value);
  return out;
}

/** `a.b.c`: the first of `a.b`, `a.b.c` whose type here is narrower than its property's declared type. */
function shortestNarrowed(chain: ts.PropertyAccessExpression, checker: ts.TypeChecker): ts.PropertyAccessExpression | undefined {
  const parts: ts.PropertyAccessExpression[] = [];
  for (let e: ts.Expression = chain; ts.isPropertyAccessExpression(e); e = e.expression) parts.unshift(e);
  if (!ts.isIdentifier(parts[0].expression) && parts[0].expression.kind !== ts.SyntaxKind.ThisKeyword) return undefined; // a call, an index: left alone
  for (const part of parts) {
    if (ts.isPrivateIdentifier(part.name)) return undefined;
    if (isWriteTarget(part) || !checker.getSymbolAtLocation(part.name)) return undefined;
    if (narrowingOf(part, checker) !== 'none') return part;
  }
  return undefined;
}

function rootName(e: ts.PropertyAccessExpression): string | undefined {
  let root: ts.Expression = e;
  while (ts.isPropertyAccessExpression(root)) root = root.expression;
  return ts.isIdentifier(root) ? root.text : undefined;
}

/** Does `value` assign the path (or a part of it) anywhere? */
function writes(value: ts.Expression, path: ts.PropertyAccessExpression): boolean {
  const text = path.getText();
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found) return;
    if ((ts.isPropertyAccessExpression(n) || ts.isIdentifier(n)) && isWriteTarget(n) && text.startsWith(n.getText())) found = true;
    else ts.forEachChild(n, visit);
  };
  visit(value);
  return found;
}

/**
 * How a read's type here differs from its binding's or property's declared type, which is what a thunk
 * reads (TypeScript keeps no narrowing of mutable state or of a property path inside a closure): `none`,
 * narrowed past null/undefined only (outer-state.ts keeps it with `!`), or `other`.
 */
export function narrowingOf(e: ts.Expression, checker: ts.TypeChecker): 'none' | 'non-null' | 'other' {
  const read = unwrap(e);
  if (ts.isElementAccessExpression(read) && !ts.isStringLiteralLike(unwrap(read.argumentExpression)) && !ts.isNumericLiteral(unwrap(read.argumentExpression))) return 'none';
  const symbol = checker.getSymbolAtLocation(ts.isPropertyAccessExpression(read) ? read.name : ts.isElementAccessExpression(read) ? read.argumentExpression : read);
  // an entry of a record (`plans['team']` of a `Record<string, Plan>`): no property, the index signature's type is the declared one
  const declared = symbol ? checker.getTypeOfSymbol(symbol) : ts.isElementAccessExpression(read) ? indexedType(read, checker) : undefined;
  if (!declared) return 'other';
  const here = checker.getTypeAtLocation(e);
  if (checker.isTypeAssignableTo(declared, here)) return 'none';
  return checker.isTypeAssignableTo(checker.getNonNullableType(declared), here) ? 'non-null' : 'other';
}

/** The type an index signature of the object gives the literal key read (`string` or `number` keys). */
function indexedType(read: ts.ElementAccessExpression, checker: ts.TypeChecker): ts.Type | undefined {
  const key = unwrap(read.argumentExpression);
  const infos = checker.getIndexInfosOfType(checker.getTypeAtLocation(read.expression));
  const numeric = ts.isNumericLiteral(key);
  const info = infos.find((i) => (numeric && i.keyType.flags & ts.TypeFlags.NumberLike) || i.keyType.flags & ts.TypeFlags.StringLike) ?? infos[0];
  return info?.type;
}
