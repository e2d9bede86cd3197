/**
 * Which expressions are effects, judged by what they are (docs/engine.md "What is memoized"):
 * - a call or `new`, a tagged template, an `await` of something that is not an ask;
 * - an assignment, `++`/`--` or `delete` whose target is not local data.
 * Not effects: a dynamic `import()` (and its `await`): the module is loaded once per process and
 * importing it again returns the same namespace, which holds functions and could never be carried;
 * the language's pure built-ins, methods of local data (`items.push(x)`, `name.trim()`)
 * whose callbacks are not effects either, calls of local functions whose bodies are not, `console.*`
 * (a log line per round is the one repetition the port accepts), reads, operators and literals.
 * "Shallow": the node itself; its children are judged on their own.
 */
import ts from '../../typescript.cjs';
import { isFunctionLike, memberChain, unwrap } from '../ast.js';
import { MATH_IMPURE, PURE_CONSTRUCTORS, PURE_GLOBAL_FUNCTIONS, PURE_STATIC_METHODS } from './builtins.js';
import { FunctionScope, type InitializerOracle } from './scope.js';

export interface EffectJudge {
  /** Names the file imports (a built-in's name imported from a module is not the built-in). */
  imported: ReadonlySet<string>;
  /** A function the file declares at its top level under this name (its body can be judged). */
  moduleFunction(name: string): ts.FunctionLikeDeclaration | undefined;
  /** The checker's view of a receiver: a local's array, string, number, Map, Set or plain-object type. */
  isDataReceiver?(expr: ts.Expression): boolean;
  /** The checker's view of a call: a pure built-in on a value that cannot change (pure-builtins.ts), `EMAIL.test(s)`. */
  isPureBuiltinCall?(call: ts.CallExpression): boolean;
  oracle: InitializerOracle;
  /** Functions whose bodies are being judged (a recursive local function counts as an effect). */
  visiting: Set<ts.Node>;
}

// built on first use: a compiler value at module level would load the compiler when this module is imported
let assignments: ReadonlySet<ts.SyntaxKind> | undefined;
const assignmentKinds = (): ReadonlySet<ts.SyntaxKind> => (assignments ??= new Set<ts.SyntaxKind>([
  ts.SyntaxKind.EqualsToken,
  ts.SyntaxKind.PlusEqualsToken,
  ts.SyntaxKind.MinusEqualsToken,
  ts.SyntaxKind.AsteriskEqualsToken,
  ts.SyntaxKind.AsteriskAsteriskEqualsToken,
  ts.SyntaxKind.SlashEqualsToken,
  ts.SyntaxKind.PercentEqualsToken,
  ts.SyntaxKind.LessThanLessThanEqualsToken,
  ts.SyntaxKind.GreaterThanGreaterThanEqualsToken,
  ts.SyntaxKind.GreaterThanGreaterThanGreaterThanEqualsToken,
  ts.SyntaxKind.AmpersandEqualsToken,
  ts.SyntaxKind.BarEqualsToken,
  ts.SyntaxKind.CaretEqualsToken,
  ts.SyntaxKind.AmpersandAmpersandEqualsToken,
  ts.SyntaxKind.BarBarEqualsToken,
  ts.SyntaxKind.QuestionQuestionEqualsToken,
]));

export function isAssignment(node: ts.Node): node is ts.BinaryExpression {
  return ts.isBinaryExpression(node) && assignmentKinds().has(node.operatorToken.kind);
}

/** Is this node, by itself, an effect inside `scope`'s function? */
export function isEffect(node: ts.Node, scope: FunctionScope, judge: EffectJudge): boolean {
  if (ts.isAwaitExpression(node)) return !isDynamicImport(node.expression);
  if (ts.isTaggedTemplateExpression(node)) return !isBuiltinPath(memberChain(node.tag), ['String', 'raw'], scope, judge);
  if (ts.isCallExpression(node)) return isEffectfulCall(node, scope, judge);
  if (ts.isNewExpression(node)) {
    const cls = memberChain(node.expression);
    if (cls.length !== 1 || !PURE_CONSTRUCTORS.has(cls[0]) || shadowed(cls[0], scope, judge)) return true;
    // `new Date()` reads the clock
    return cls[0] === 'Date' && (node.arguments?.length ?? 0) === 0;
  }
  if (isAssignment(node)) return !writesLocalData(node.left, scope);
  if ((ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) && (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken)) {
    return !writesLocalData(node.operand, scope);
  }
  if (ts.isDeleteExpression(node)) return !writesLocalData(node.expression, scope);
  return false;
}

function isEffectfulCall(call: ts.CallExpression, scope: FunctionScope, judge: EffectJudge): boolean {
  if (isDynamicImport(call)) return false;
  const callee = unwrap(call.expression);
  if (ts.isIdentifier(callee)) {
    // an argument that is not the function's own (module state, `this.x`) is not local data inside the
    // callee either: `record(audit, id)` pushing onto a module array is an effect
    const passed = call.arguments.some((a) => !ts.isSpreadElement(a) && scope.roleOfValue(a) === 'nonlocal') ? 'nonlocal' : 'other';
    const local = scope.localFunction(callee.text);
    if (local) return bodyHasEffects(local, scope, judge, passed);
    if (scope.isLocal(callee.text)) return true;
    // a function of this module whose body has no effect (`const first = (xs) => xs[0]`) re-runs
    const declared = judge.imported.has(callee.text) ? undefined : judge.moduleFunction(callee.text);
    if (declared) return bodyHasEffects(declared, undefined, judge, passed) || callbacksHaveEffects(call, scope, judge);
    return !(PURE_GLOBAL_FUNCTIONS.has(callee.text) && !judge.imported.has(callee.text)) || callbacksHaveEffects(call, scope, judge);
  }
  if (ts.isPropertyAccessExpression(callee) || ts.isElementAccessExpression(callee)) {
    const chain = memberChain(callee);
    if (chain.length === 2 && isPureStatic(chain[0], chain[1], scope, judge)) return callbacksHaveEffects(call, scope, judge);
    if (chain[0] === 'console' && !shadowed('console', scope, judge)) return false;
    const receiver = unwrap(callee.expression);
    if (isLocalData(receiver, scope, judge)) return callbacksHaveEffects(call, scope, judge);
    // asked last: the checker is consulted only for what would otherwise be an effect
    if (judge.isPureBuiltinCall?.(call)) return callbacksHaveEffects(call, scope, judge);
    return true;
  }
  return true;
}

function isDynamicImport(e: ts.Expression): boolean {
  const call = unwrap(e);
  return ts.isCallExpression(call) && call.expression.kind === ts.SyntaxKind.ImportKeyword;
}

function isPureStatic(namespace: string, method: string, scope: FunctionScope, judge: EffectJudge): boolean {
  if (shadowed(namespace, scope, judge)) return false;
  if (namespace === 'Math') return !MATH_IMPURE.has(method);
  const methods = PURE_STATIC_METHODS[namespace];
  return methods instanceof Set && methods.has(method);
}

function isBuiltinPath(chain: readonly string[], want: readonly string[], scope: FunctionScope, judge: EffectJudge): boolean {
  return chain.length === want.length && chain.every((c, i) => c === want[i]) && !shadowed(chain[0], scope, judge);
}

/** Is a global's name taken by a local or an import here (`import { setTimeout } from 'node:timers/promises'`)? */
export function shadowed(name: string, scope: FunctionScope, judge: EffectJudge): boolean {
  return scope.isLocal(name) || judge.imported.has(name);
}

/** A receiver that is local data: a literal, or rooted at a data name, or (checker) typed as data and rooted at a local. */
export function isLocalData(receiver: ts.Expression, scope: FunctionScope, judge: EffectJudge): boolean {
  const e = unwrap(receiver);
  if (ts.isStringLiteralLike(e) || ts.isTemplateExpression(e) || ts.isArrayLiteralExpression(e) || ts.isObjectLiteralExpression(e) || ts.isNumericLiteral(e) || ts.isRegularExpressionLiteral(e)) {
    return true;
  }
  // `items.map(f).join(',')`: the result of a method of local data is local data
  if (ts.isCallExpression(e)) {
    const callee = unwrap(e.expression);
    return (ts.isPropertyAccessExpression(callee) || ts.isElementAccessExpression(callee)) && !isEffect(e, scope, judge);
  }
  const root = rootIdentifier(e);
  if (!root) return false;
  const role = scope.role(root.text);
  if (role === 'data') return true;
  return role === 'other' && (judge.isDataReceiver?.(e) ?? false);
}

/** The identifier a member chain starts from (`order` in `order.items[0].name`); undefined for `this`, calls, … */
export function rootIdentifier(expr: ts.Expression): ts.Identifier | undefined {
  let e = unwrap(expr);
  for (;;) {
    if (ts.isIdentifier(e)) return e;
    if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) e = unwrap(e.expression);
    else return undefined;
  }
}

/** An assignment target the function owns: a local name, or a member of local data. */
function writesLocalData(target: ts.Expression, scope: FunctionScope): boolean {
  const t = unwrap(target);
  if (ts.isIdentifier(t)) return scope.isLocal(t.text);
  // a destructuring assignment writes local data when every target it holds does (`[a, b] = …` of locals;
  // `[shard, epoch] = …` of module state, `({ x: this.cache } = …)`, are writes like any other)
  if (ts.isObjectLiteralExpression(t) || ts.isArrayLiteralExpression(t)) return patternTargets(t).every((e) => writesLocalData(e, scope));
  const root = rootIdentifier(t);
  return !!root && scope.role(root.text) === 'data';
}

/** The targets of a destructuring assignment's pattern (`[a, this.b] = …`, `({ x: s.y, ...rest } = …)`; defaults left out). */
function patternTargets(pattern: ts.ObjectLiteralExpression | ts.ArrayLiteralExpression): ts.Expression[] {
  const target = (e: ts.Expression): ts.Expression[] => {
    const u = unwrap(e);
    if (ts.isBinaryExpression(u) && u.operatorToken.kind === ts.SyntaxKind.EqualsToken) return target(u.left); // a default
    if (ts.isSpreadElement(u)) return target(u.expression);
    return ts.isObjectLiteralExpression(u) || ts.isArrayLiteralExpression(u) ? patternTargets(u) : [u];
  };
  if (ts.isArrayLiteralExpression(pattern)) return pattern.elements.filter((el) => !ts.isOmittedExpression(el)).flatMap(target);
  return pattern.properties.flatMap((p) => {
    if (ts.isPropertyAssignment(p)) return target(p.initializer);
    if (ts.isShorthandPropertyAssignment(p)) return [p.name];
    if (ts.isSpreadAssignment(p)) return target(p.expression);
    return [];
  });
}

/** Function literals passed to the call (`items.map((x) => …)`) whose bodies hold effects. */
function callbacksHaveEffects(call: ts.CallExpression, scope: FunctionScope, judge: EffectJudge): boolean {
  return call.arguments.some((a) => {
    const fn = unwrap(a);
    return isFunctionLike(fn) && bodyHasEffects(fn, scope, judge, 'data');
  });
}

/**
 * Does running `fn` have effects? Its parameters hold `paramRole` (elements of local data for a
 * callback of a data method; anything for a local function called with arguments; state that is not
 * the caller's own, `nonlocal`, when an argument is module state or `this.x`).
 */
export function bodyHasEffects(fn: ts.FunctionLikeDeclaration, outer: FunctionScope | undefined, judge: EffectJudge, paramRole: 'data' | 'other' | 'nonlocal'): boolean {
  if (!fn.body) return false;
  if (judge.visiting.has(fn)) return true;
  judge.visiting.add(fn);
  try {
    return bodyEffects(fn, outer, judge, paramRole);
  } finally {
    judge.visiting.delete(fn);
  }
}

function bodyEffects(fn: ts.FunctionLikeDeclaration, outer: FunctionScope | undefined, judge: EffectJudge, paramRole: 'data' | 'other' | 'nonlocal'): boolean {
  const inner = new FunctionScope(fn, judge.oracle, outer, () => paramRole);
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found) return;
    if (isFunctionLike(n) && n !== fn) return;
    if (ts.isExpression(n) && isEffect(n, inner, judge)) {
      found = true;
      return;
    }
    ts.forEachChild(n, visit);
  };
  visit(fn.body!);
  return found;
}
