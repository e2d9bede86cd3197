/**
 * Small helpers over the raw TypeScript AST (`ts.SourceFile` parsed with parent pointers). The
 * analyzer walks raw nodes rather than ts-morph wrappers: wrappers cost 2–3× a bare parse.
 */
import ts from '../typescript.cjs';

/** The wrappers `unwrap` strips (built on first use: at import it would load the compiler). */
let wrapperKinds: ReadonlySet<ts.SyntaxKind> | undefined;

type Wrapper = ts.ParenthesizedExpression | ts.AsExpression | ts.NonNullExpression | ts.SatisfiesExpression | ts.TypeAssertion;

const wrappers = (): ReadonlySet<ts.SyntaxKind> => (wrapperKinds ??= new Set([
  ts.SyntaxKind.ParenthesizedExpression,
  ts.SyntaxKind.AsExpression,
  ts.SyntaxKind.NonNullExpression,
  ts.SyntaxKind.SatisfiesExpression,
  ts.SyntaxKind.TypeAssertionExpression,
]));

/** Strips parentheses, type assertions, `!` and `satisfies` around an expression. */
export function unwrap(node: ts.Expression): ts.Expression {
  const kinds = wrappers();
  let n = node;
  while (kinds.has(n.kind)) n = (n as Wrapper).expression;
  return n;
}

/**
 * The outermost wrapper (parentheses, assertion, `!`, `satisfies`) around `node`, or `node` itself:
 * the node its real parent holds.
 */
export function outerParent(node: ts.Node): ts.Node {
  const kinds = wrappers();
  let n = node;
  while (n.parent && kinds.has(n.parent.kind)) n = n.parent;
  return n;
}

/**
 * The member chain of an expression, outermost receiver first: `this.server.server.elicitInput` →
 * `['this','server','server','elicitInput']`. Awaits, casts and parentheses are stripped; computed or
 * call-result segments become `'?'`.
 */
export function memberChain(expr: ts.Expression): string[] {
  const out: string[] = [];
  let n: ts.Expression = unwrap(expr);
  for (;;) {
    if (ts.isPropertyAccessExpression(n)) {
      out.push(n.name.text);
      n = unwrap(n.expression);
    } else if (ts.isElementAccessExpression(n)) {
      const arg = n.argumentExpression;
      out.push(ts.isStringLiteralLike(arg) ? arg.text : '?');
      n = unwrap(n.expression);
    } else if (ts.isAwaitExpression(n)) {
      n = unwrap(n.expression);
    } else if (ts.isIdentifier(n)) {
      out.push(n.text);
      break;
    } else if (n.kind === ts.SyntaxKind.ThisKeyword) {
      out.push('this');
      break;
    } else {
      out.push('?');
      break;
    }
  }
  return out.reverse();
}

/** The called name of a call: the last member-chain segment (`a.b.c(...)` → `c`). */
export function calleeName(call: ts.CallExpression | ts.NewExpression): string | undefined {
  const e = unwrap(call.expression);
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e)) return e.name.text;
  if (ts.isElementAccessExpression(e) && ts.isStringLiteralLike(e.argumentExpression)) return e.argumentExpression.text;
  return undefined;
}

/** Function-like kinds (built on first use: at import it would load the compiler). */
let functionKinds: ReadonlySet<ts.SyntaxKind> | undefined;

/**
 * Every walker asks this of every node, so it is one set lookup: seven `ts.is…` calls cost five times
 * as much (each is a property read off the compiler's 2,500 exports, then a call).
 */
export function isFunctionLike(node: ts.Node): node is ts.FunctionLikeDeclaration {
  functionKinds ??= new Set([
    ts.SyntaxKind.FunctionDeclaration,
    ts.SyntaxKind.FunctionExpression,
    ts.SyntaxKind.ArrowFunction,
    ts.SyntaxKind.MethodDeclaration,
    ts.SyntaxKind.GetAccessor,
    ts.SyntaxKind.SetAccessor,
    ts.SyntaxKind.Constructor,
  ]);
  return functionKinds.has(node.kind);
}

/** A `for`, `for…of`, `for…in`, `while` or `do` statement. */
export function isLoop(n: ts.Node): boolean {
  return ts.isForStatement(n) || ts.isForOfStatement(n) || ts.isForInStatement(n) || ts.isWhileStatement(n) || ts.isDoStatement(n);
}

/** The nearest enclosing function-like node, or undefined at module top level. */
export function enclosingFunction(node: ts.Node): ts.FunctionLikeDeclaration | undefined {
  let n = node.parent;
  while (n) {
    if (isFunctionLike(n)) return n;
    n = n.parent;
  }
  return undefined;
}

/** A string literal or a template without substitutions: its text; otherwise undefined. */
export function stringValue(node: ts.Node | undefined): string | undefined {
  if (!node) return undefined;
  const n = ts.isExpression(node) ? unwrap(node) : node;
  return ts.isStringLiteralLike(n) ? n.text : undefined;
}

/** Name of a property name node when static. */
export function propertyNameText(name: ts.PropertyName | ts.BindingName | undefined): string | undefined {
  if (!name) return undefined;
  if (ts.isIdentifier(name) || ts.isStringLiteralLike(name) || ts.isNumericLiteral(name) || ts.isPrivateIdentifier(name)) return name.text;
  return undefined;
}

/**
 * The name a function is known by where it is defined: a declaration or method name, the variable it
 * initialises, or the property key it is the value of. Undefined for anonymous callbacks.
 */
export function functionName(fn: ts.FunctionLikeDeclaration): string | undefined {
  if ((ts.isFunctionDeclaration(fn) || ts.isMethodDeclaration(fn) || ts.isGetAccessorDeclaration(fn) || ts.isSetAccessorDeclaration(fn)) && fn.name) {
    return propertyNameText(fn.name);
  }
  if (ts.isConstructorDeclaration(fn)) return 'constructor';
  const holder = outerParent(fn).parent;
  if (!holder) return undefined;
  if (ts.isVariableDeclaration(holder) && ts.isIdentifier(holder.name)) return holder.name.text;
  if (ts.isPropertyAssignment(holder)) return propertyNameText(holder.name);
  if (ts.isPropertyDeclaration(holder)) return propertyNameText(holder.name);
  if (ts.isFunctionExpression(fn) && fn.name) return fn.name.text;
  return undefined;
}

/** The class a member function belongs to (methods and property-initialiser arrows). */
export function owningClass(fn: ts.FunctionLikeDeclaration): ts.ClassLikeDeclaration | undefined {
  const holder = ts.isMethodDeclaration(fn) || ts.isGetAccessorDeclaration(fn) || ts.isSetAccessorDeclaration(fn) || ts.isConstructorDeclaration(fn)
    ? fn.parent
    : outerParent(fn).parent && ts.isPropertyDeclaration(outerParent(fn).parent) ? outerParent(fn).parent.parent : undefined;
  return holder && ts.isClassLike(holder) ? holder : undefined;
}

/** 1-based line and column of a node's start (after trivia). */
export function position(sf: ts.SourceFile, node: ts.Node): { line: number; column: number } {
  const lc = sf.getLineAndCharacterOfPosition(node.getStart(sf));
  return { line: lc.line + 1, column: lc.character + 1 };
}

export function isExported(node: ts.Node): boolean {
  const mods = ts.canHaveModifiers(node) ? ts.getModifiers(node) : undefined;
  return !!mods?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}
