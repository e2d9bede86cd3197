/**
 * Sibling conditional asks that do not depend on each other are asked in one round:
 *
 *   if (city === undefined) { const a = await ask(A); … }        const answers = await Promise.all([
 *   if (team === undefined) { const b = await ask(B); … }   →      city === undefined ? ask(A) : undefined,
 *                                                                  team === undefined ? ask(B) : undefined]);
 *                                                                if (city === undefined) { const a = answers[0]!; … }
 *                                                                if (team === undefined) { const b = answers[1]!; … }
 *
 * Only where that asks exactly what the legacy code asked, in the same calls:
 * - consecutive `if` statements without `else`, each asking first thing in its block
 *   (`const x = await ask(p)` or `x = await ask(p)`);
 * - every condition and every ask's params are pure (reads, literals, operators, the language's pure
 *   built-ins): they are evaluated earlier, and each condition twice;
 * - every block but the last has no `return`, `throw`, `break` or `continue`: the legacy code always
 *   reached the next `if` (a decline that returns early keeps the steps: the user would otherwise be
 *   asked a question the legacy code never asked);
 * - a later condition or params reads nothing an earlier block may write: no name it assigns, passes to
 *   a call or calls a method on; no name of the module that a call could change; no property of a local
 *   object when an earlier block writes properties.
 * When dependence cannot be ruled out, the steps stay: one round each. An exception thrown by an
 * earlier block after its answer is the one difference: the later question was already asked.
 */
import ts from '../../typescript.cjs';
import { enclosingFunction, isFunctionLike, outerParent, unwrap } from '../ast.js';
import { PURE_GLOBAL_FUNCTIONS } from './builtins.js';
import { isAssignment } from './effects.js';
import { bindingNames } from './scope.js';

export interface SiblingAsk {
  /** The legacy call. */
  call: ts.CallExpression;
  /** The `await` around it (replaced by the batch's element). */
  awaited: ts.AwaitExpression;
  /** The `if` whose condition guards it. */
  guard: ts.IfStatement;
  /** The argument it keeps (its params), if any. */
  params: ts.Expression | undefined;
}

/** Groups of two or more independent sibling asks of `fn`, in source order. */
export function siblingBatches(fn: ts.FunctionLikeDeclaration, calls: ReadonlyMap<ts.Node, ts.Expression | undefined>): SiblingAsk[][] {
  const byGuard = new Map<ts.IfStatement, SiblingAsk>();
  for (const [node, params] of calls) {
    if (!ts.isCallExpression(node)) continue;
    const member = guardedAsk(node, params, fn);
    if (member && !byGuard.has(member.guard)) byGuard.set(member.guard, member);
  }
  if (byGuard.size < 2) return [];
  const locals = localNames(fn);
  const out: SiblingAsk[][] = [];
  const lists = new Set<ts.NodeArray<ts.Statement>>();
  for (const guard of byGuard.keys()) {
    const list = statementsHolding(guard);
    if (list) lists.add(list);
  }
  for (const list of lists) {
    let group: SiblingAsk[] = [];
    const close = (): void => {
      if (group.length >= 2) out.push(group);
      group = [];
    };
    for (const statement of list) {
      const member = ts.isIfStatement(statement) ? byGuard.get(statement) : undefined;
      if (!member || !pure(member.guard.expression) || (member.params && !pure(member.params))) {
        close();
        continue;
      }
      if (group.length > 0 && !independent(member, group, locals, fn.getSourceFile())) close();
      group.push(member);
    }
    close();
  }
  return out.sort((a, b) => a[0].guard.pos - b[0].guard.pos);
}

/** `if (c) { const x = await ask(p); … }` with the ask first in the block, no `else`. */
function guardedAsk(call: ts.CallExpression, params: ts.Expression | undefined, fn: ts.FunctionLikeDeclaration): SiblingAsk | undefined {
  const awaited = outerParent(call).parent;
  if (!awaited || !ts.isAwaitExpression(awaited)) return undefined;
  const holder = outerParent(awaited).parent;
  let statement: ts.Node | undefined;
  if (holder && ts.isVariableDeclaration(holder) && holder.initializer && outerParent(holder.initializer) === outerParent(awaited)) {
    const list = holder.parent;
    if (ts.isVariableDeclarationList(list) && list.declarations.length === 1 && ts.isVariableStatement(list.parent)) statement = list.parent;
  } else if (holder && ts.isBinaryExpression(holder) && holder.operatorToken.kind === ts.SyntaxKind.EqualsToken && holder.right === outerParent(awaited) && ts.isExpressionStatement(holder.parent)) {
    statement = holder.parent;
  }
  const block = statement?.parent;
  if (!block || !ts.isBlock(block) || block.statements[0] !== statement) return undefined;
  const guard = block.parent;
  if (!ts.isIfStatement(guard) || guard.thenStatement !== block || guard.elseStatement) return undefined;
  if (enclosingFunction(guard) !== fn) return undefined;
  return { call, awaited, guard, params };
}

function statementsHolding(statement: ts.Statement): ts.NodeArray<ts.Statement> | undefined {
  const p = statement.parent;
  if (ts.isBlock(p) || ts.isSourceFile(p) || ts.isModuleBlock(p) || ts.isCaseClause(p) || ts.isDefaultClause(p)) return p.statements;
  return undefined;
}

/** Reads, literals, operators and the language's pure global functions only. */
function pure(e: ts.Node): boolean {
  if (ts.isIdentifier(e) || ts.isLiteralExpression(e) || ts.isNoSubstitutionTemplateLiteral(e)) return true;
  switch (e.kind) {
    case ts.SyntaxKind.TrueKeyword:
    case ts.SyntaxKind.FalseKeyword:
    case ts.SyntaxKind.NullKeyword:
    case ts.SyntaxKind.ThisKeyword:
      return true;
  }
  if (ts.isPropertyAccessExpression(e)) return pure(e.expression);
  if (ts.isElementAccessExpression(e)) return pure(e.expression) && pure(e.argumentExpression);
  if (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isNonNullExpression(e) || ts.isSatisfiesExpression(e) || ts.isTypeAssertionExpression(e) || ts.isTypeOfExpression(e) || ts.isSpreadElement(e) || ts.isSpreadAssignment(e)) {
    return pure(e.expression);
  }
  if (ts.isPrefixUnaryExpression(e)) return e.operator !== ts.SyntaxKind.PlusPlusToken && e.operator !== ts.SyntaxKind.MinusMinusToken && pure(e.operand);
  // `isAssignment` asked of the node as a node: its guard would narrow `e` to never here
  if (ts.isBinaryExpression(e)) return !isAssignment(e as ts.Node) && e.operatorToken.kind !== ts.SyntaxKind.CommaToken && pure(e.left) && pure(e.right);
  if (ts.isConditionalExpression(e)) return pure(e.condition) && pure(e.whenTrue) && pure(e.whenFalse);
  if (ts.isTemplateExpression(e)) return e.templateSpans.every((s) => pure(s.expression));
  if (ts.isArrayLiteralExpression(e)) return e.elements.every(pure);
  if (ts.isObjectLiteralExpression(e)) {
    return e.properties.every((p) => (ts.isPropertyAssignment(p) ? (!ts.isComputedPropertyName(p.name) || pure(p.name.expression)) && pure(p.initializer) : ts.isShorthandPropertyAssignment(p) || (ts.isSpreadAssignment(p) && pure(p.expression))));
  }
  if (ts.isCallExpression(e)) {
    const callee = unwrap(e.expression);
    return ts.isIdentifier(callee) && PURE_GLOBAL_FUNCTIONS.has(callee.text) && e.arguments.every(pure);
  }
  return false;
}

/** What a later member reads: names, and whether it reads a property of a local object. */
function readsOf(member: SiblingAsk): { names: Set<string>; properties: Set<string> } {
  const names = new Set<string>();
  const properties = new Set<string>();
  const visit = (n: ts.Node): void => {
    if (ts.isIdentifier(n)) {
      const p = n.parent;
      if ((ts.isPropertyAccessExpression(p) && p.name === n) || (ts.isPropertyAssignment(p) && p.name === n)) return;
      names.add(n.text);
      return;
    }
    if ((ts.isPropertyAccessExpression(n) || ts.isElementAccessExpression(n)) && ts.isIdentifier(unwrap(n.expression))) properties.add((unwrap(n.expression) as ts.Identifier).text);
    ts.forEachChild(n, visit);
  };
  visit(member.guard.expression);
  if (member.params) visit(member.params);
  return { names, properties };
}

/** What an earlier member's whole `if` may change, and whether it leaves before the next one. */
function writesOf(member: SiblingAsk): { names: Set<string>; calls: boolean; propertyWrites: boolean; exits: boolean } {
  const names = new Set<string>();
  let calls = false;
  let propertyWrites = false;
  let exits = false;
  const root = (e: ts.Expression): void => {
    let x = unwrap(e);
    while (ts.isPropertyAccessExpression(x) || ts.isElementAccessExpression(x)) x = unwrap(x.expression);
    if (ts.isIdentifier(x)) names.add(x.text);
    else if (ts.isObjectLiteralExpression(x) || ts.isArrayLiteralExpression(x)) patternNames(x, names);
  };
  const visit = (n: ts.Node, nested: boolean): void => {
    if (!nested && (ts.isReturnStatement(n) || ts.isThrowStatement(n) || ts.isBreakStatement(n) || ts.isContinueStatement(n))) exits = true;
    if (isAssignment(n)) {
      root(n.left);
      if (!ts.isIdentifier(unwrap(n.left))) propertyWrites ||= ts.isPropertyAccessExpression(unwrap(n.left)) || ts.isElementAccessExpression(unwrap(n.left));
    }
    if ((ts.isPrefixUnaryExpression(n) || ts.isPostfixUnaryExpression(n)) && (n.operator === ts.SyntaxKind.PlusPlusToken || n.operator === ts.SyntaxKind.MinusMinusToken)) root(n.operand);
    if (ts.isDeleteExpression(n)) {
      root(n.expression);
      propertyWrites = true;
    }
    if (ts.isVariableDeclarationList(n) && !(n.flags & ts.NodeFlags.BlockScoped)) for (const d of n.declarations) for (const name of bindingNames(d.name)) names.add(name);
    if ((ts.isCallExpression(n) || ts.isNewExpression(n) || ts.isTaggedTemplateExpression(n)) && n !== member.call && !(ts.isCallExpression(n) && pure(n))) {
      calls = true;
      if (!ts.isTaggedTemplateExpression(n)) for (const a of n.arguments ?? []) root(a);
      const callee = ts.isTaggedTemplateExpression(n) ? n.tag : n.expression;
      const c = unwrap(callee);
      if (ts.isPropertyAccessExpression(c) || ts.isElementAccessExpression(c)) root(c.expression);
    }
    ts.forEachChild(n, (c) => visit(c, nested || isFunctionLike(c)));
  };
  visit(member.guard, false);
  return { names, calls, propertyWrites, exits };
}

function patternNames(e: ts.Node, out: Set<string>): void {
  if (ts.isIdentifier(e)) out.add(e.text);
  else ts.forEachChild(e, (c) => patternNames(c, out));
}

/** Can `member` be asked together with the earlier `group` (the legacy code reached it, and nothing it reads can change)? */
function independent(member: SiblingAsk, group: readonly SiblingAsk[], locals: ReadonlySet<string>, sf: ts.SourceFile): boolean {
  const reads = readsOf(member);
  for (const earlier of group) {
    const w = writesOf(earlier);
    if (w.exits) return false;
    for (const name of reads.names) {
      if (w.names.has(name)) return false;
      // a module's binding (or an import) a called function may change; a module const that is plain data cannot
      if (!locals.has(name) && w.calls && !moduleConstData(name, sf)) return false;
    }
    if (reads.properties.size > 0 && w.propertyWrites) return false;
  }
  return true;
}

/** Names the function binds: its parameters and every declaration in its body outside nested functions. */
function localNames(fn: ts.FunctionLikeDeclaration): Set<string> {
  const out = new Set<string>();
  for (const p of fn.parameters) for (const n of bindingNames(p.name)) out.add(n);
  const visit = (n: ts.Node): void => {
    if (isFunctionLike(n) && n !== fn) {
      if (ts.isFunctionDeclaration(n) && n.name) out.add(n.name.text);
      return;
    }
    if (ts.isVariableDeclaration(n)) for (const name of bindingNames(n.name)) out.add(name);
    ts.forEachChild(n, visit);
  };
  if (fn.body) visit(fn.body);
  return out;
}

/** A module-level `const` bound to a literal (a schema object, a message), written nowhere in the file. */
function moduleConstData(name: string, sf: ts.SourceFile): boolean {
  let declared = false;
  for (const st of sf.statements) {
    if (!ts.isVariableStatement(st) || !(st.declarationList.flags & ts.NodeFlags.Const)) continue;
    for (const d of st.declarationList.declarations) {
      if (!ts.isIdentifier(d.name) || d.name.text !== name || !d.initializer) continue;
      const init = unwrap(d.initializer);
      declared = ts.isObjectLiteralExpression(init) || ts.isArrayLiteralExpression(init) || ts.isStringLiteralLike(init) || ts.isNumericLiteral(init);
    }
  }
  if (!declared) return false;
  let written = false;
  const visit = (n: ts.Node): void => {
    if (written) return;
    if (isAssignment(n)) {
      let x = unwrap(n.left);
      while (ts.isPropertyAccessExpression(x) || ts.isElementAccessExpression(x)) x = unwrap(x.expression);
      if (ts.isIdentifier(x) && x.text === name) written = true;
    }
    if (ts.isDeleteExpression(n)) {
      let x = unwrap(n.expression);
      while (ts.isPropertyAccessExpression(x) || ts.isElementAccessExpression(x)) x = unwrap(x.expression);
      if (ts.isIdentifier(x) && x.text === name) written = true;
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return !written;
}
