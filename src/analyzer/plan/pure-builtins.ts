/**
 * Calls of the language's own methods that are pure by specification on a value that cannot change, decided
 * with the checker (docs/engine.md, "What is memoized"): made again on each round they give the same value
 * and change nothing, so the plan does not memoize them (`await once(() => EMAIL.test(email))` was noise in
 * the diff users read).
 * - a method of `String`, `Number`, `Boolean` or `BigInt` (the lib's declaration) on a primitive: a primitive
 *   is immutable, and these methods read nothing else; not the locale-dependent ones (`toLocaleString`,
 *   `localeCompare`, …: the host's locale, which replicas need not share);
 * - `test`/`exec` of a RegExp without the `g` or `y` flag (they neither read nor write `lastIndex` then); a
 *   `g`/`y` RegExp keeps its `lastIndex` between calls: memoized as before.
 * The receiver must be a value no write can reach: a literal, or a name or member chain of a module `const`
 * of this file bound to a literal (a string, a number, a RegExp, `new RegExp(…)`, an object literal) whose
 * root no code of the file writes. Every argument must be a primitive, a RegExp literal or a stateless
 * `const` RegExp, or a function literal (whose body effects.ts then judges).
 * The syntax is asked first (`mayBePureBuiltinCall`): the checker is built for a file only when a call
 * could be one (building it costs far more than the memo it saves).
 */
import ts from '../../typescript.cjs';
import { isFunctionLike, unwrap } from '../ast.js';

const PRIMITIVE_PROTOTYPES: ReadonlySet<string> = new Set(['String', 'Number', 'Boolean', 'BigInt']);
/** They read the host's locale. */
const LOCALE_METHODS: ReadonlySet<string> = new Set(['toLocaleString', 'toLocaleUpperCase', 'toLocaleLowerCase', 'localeCompare']);
/** With neither `g` nor `y`, these leave `lastIndex` alone and read only their argument. */
const STATELESS_REGEXP_METHODS: ReadonlySet<string> = new Set(['test', 'exec']);
const LIB_FILE = /(^|[\\/])lib\.[\w.]*\.d\.ts$/;

/** The names of the methods above (String's, Number's, RegExp's stateless ones): the syntax's first question, the checker decides. */
const CANDIDATE_METHODS: ReadonlySet<string> = new Set([
  'at', 'charAt', 'charCodeAt', 'codePointAt', 'concat', 'endsWith', 'includes', 'indexOf', 'lastIndexOf', 'match', 'matchAll',
  'normalize', 'padEnd', 'padStart', 'repeat', 'replace', 'replaceAll', 'search', 'slice', 'split', 'startsWith', 'substring',
  'substr', 'toLowerCase', 'toUpperCase', 'toString', 'trim', 'trimStart', 'trimEnd', 'valueOf', 'isWellFormed', 'toWellFormed',
  'toFixed', 'toExponential', 'toPrecision', ...STATELESS_REGEXP_METHODS,
]);

/**
 * Could the call be one `isPureBuiltinCall` accepts, by its text alone: a candidate method name, on a
 * literal or on a chain rooted at a module `const` of the file bound to a literal (`EMAIL`, `PREFIX`,
 * `SETTINGS.label`)? Asked before the checker, so a file with no such call never builds one here.
 */
export function mayBePureBuiltinCall(call: ts.CallExpression): boolean {
  const callee = unwrap(call.expression);
  if (!ts.isPropertyAccessExpression(callee) || !CANDIDATE_METHODS.has(callee.name.text)) return false;
  let root = unwrap(callee.expression);
  if (isLiteralValue(root)) return true;
  while (ts.isPropertyAccessExpression(root)) root = unwrap(root.expression);
  return ts.isIdentifier(root) && moduleConstLiterals(root.getSourceFile()).has(root.text);
}

const literalConsts = new WeakMap<ts.SourceFile, ReadonlySet<string>>();

/** The names of the file's module `const`s bound to a literal (a string, a number, a RegExp, `new RegExp(…)`, an object literal). */
function moduleConstLiterals(sf: ts.SourceFile): ReadonlySet<string> {
  let known = literalConsts.get(sf);
  if (known) return known;
  const names = new Set<string>();
  for (const statement of sf.statements) {
    if (!ts.isVariableStatement(statement) || !(statement.declarationList.flags & ts.NodeFlags.Const)) continue;
    for (const d of statement.declarationList.declarations) {
      const init = d.initializer && unwrap(d.initializer);
      if (ts.isIdentifier(d.name) && init && (isLiteralValue(init) || ts.isObjectLiteralExpression(init) || (ts.isNewExpression(init) && ts.isIdentifier(init.expression) && init.expression.text === 'RegExp'))) names.add(d.name.text);
    }
  }
  literalConsts.set(sf, (known = names));
  return known;
}

function isLiteralValue(e: ts.Expression): boolean {
  return ts.isStringLiteralLike(e) || ts.isNumericLiteral(e) || ts.isBigIntLiteral(e) || ts.isRegularExpressionLiteral(e);
}

/**
 * Is the call a pure built-in on a value that cannot change? `mayBeWritten` says whether the file may write
 * a chain's root (outer-state.ts's text scan).
 */
export function isPureBuiltinCall(call: ts.CallExpression, checker: ts.TypeChecker, mayBeWritten: (e: ts.Expression) => boolean): boolean {
  const callee = unwrap(call.expression);
  if (!ts.isPropertyAccessExpression(callee) || call.questionDotToken || callee.questionDotToken) return false;
  const method = callee.name.text;
  const owner = libOwner(call, checker);
  if (owner === undefined) return false;
  const receiver = unwrap(callee.expression);
  if (PRIMITIVE_PROTOTYPES.has(owner)) {
    if (LOCALE_METHODS.has(method) || !isPrimitive(checker.getTypeAtLocation(receiver))) return false;
  } else if (owner === 'RegExp') {
    if (!STATELESS_REGEXP_METHODS.has(method)) return false;
    const flags = regExpFlags(receiver, checker);
    if (flags === undefined || /[gy]/.test(flags)) return false;
  } else {
    return false;
  }
  return unchanging(receiver, checker, mayBeWritten) && call.arguments.every((a) => isPlainArgument(a, checker));
}

/** The lib interface declaring the method called (`String`, `RegExp`, …), when the checker resolves it to the language's own lib. */
function libOwner(call: ts.CallExpression, checker: ts.TypeChecker): string | undefined {
  const decl = checker.getResolvedSignature(call)?.declaration;
  if (!decl || ts.isJSDocSignature(decl) || !LIB_FILE.test(decl.getSourceFile().fileName)) return undefined;
  const owner = decl.parent;
  return owner && ts.isInterfaceDeclaration(owner) ? owner.name.text : undefined;
}

function isPrimitive(type: ts.Type): boolean {
  if (type.isUnion()) return type.types.every(isPrimitive);
  return (type.flags & (ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BooleanLike | ts.TypeFlags.BigIntLike)) !== 0;
}

/** A literal, a `const`'s name, or a member chain of a `const` of this file that nothing in the file writes. */
function unchanging(e: ts.Expression, checker: ts.TypeChecker, mayBeWritten: (e: ts.Expression) => boolean): boolean {
  if (ts.isStringLiteralLike(e) || ts.isNumericLiteral(e) || ts.isBigIntLiteral(e) || ts.isRegularExpressionLiteral(e)) return true;
  if (ts.isIdentifier(e)) return constDeclaration(e, checker) !== undefined;
  let root: ts.Expression = e;
  while (ts.isPropertyAccessExpression(root)) root = unwrap(root.expression);
  if (!ts.isIdentifier(root)) return false;
  const decl = constDeclaration(root, checker);
  return !!decl && decl.getSourceFile() === e.getSourceFile() && !mayBeWritten(e);
}

/** The `const` declaration a name is bound to (through an import), if it is one. */
function constDeclaration(id: ts.Identifier, checker: ts.TypeChecker): ts.VariableDeclaration | undefined {
  let symbol = checker.getSymbolAtLocation(id);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const decl = symbol?.valueDeclaration;
  return decl && ts.isVariableDeclaration(decl) && ts.getCombinedNodeFlags(decl) & ts.NodeFlags.Const ? decl : undefined;
}

/** The flags of a RegExp literal, or of a `const` bound to one (or to `new RegExp('…', 'flags')`); undefined when unknown. */
function regExpFlags(e: ts.Expression, checker: ts.TypeChecker): string | undefined {
  let value: ts.Expression = e;
  if (ts.isIdentifier(value)) {
    const init = constDeclaration(value, checker)?.initializer;
    if (!init) return undefined;
    value = unwrap(init);
  }
  if (ts.isRegularExpressionLiteral(value)) return value.text.slice(value.text.lastIndexOf('/') + 1);
  if (ts.isNewExpression(value) && ts.isIdentifier(value.expression) && value.expression.text === 'RegExp' && value.arguments?.length) {
    const [source, flags] = value.arguments;
    if (!ts.isStringLiteralLike(source)) return undefined;
    if (flags === undefined) return '';
    return ts.isStringLiteralLike(flags) ? flags.text : undefined;
  }
  return undefined;
}

/** A primitive, a RegExp that keeps no state between calls (a literal, a stateless `const`), or a function literal. */
function isPlainArgument(a: ts.Expression, checker: ts.TypeChecker): boolean {
  const e = unwrap(a);
  if (isFunctionLike(e) || ts.isRegularExpressionLiteral(e)) return true;
  const type = checker.getTypeAtLocation(e);
  if (isPrimitive(type) || type.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)) return true;
  if (type.getSymbol()?.getName() !== 'RegExp') return false;
  const flags = regExpFlags(e, checker);
  return flags !== undefined && !/[gy]/.test(flags);
}
