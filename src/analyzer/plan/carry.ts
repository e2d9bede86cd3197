/**
 * Can a memoized value travel in the sealed state? The runtime's journal carries JSON plus `Date`,
 * `Map`, `Set`, `BigInt`, `undefined`, `NaN`/`±Infinity`, `Uint8Array` and `URL` (docs/engine.md
 * "Values"). With the type checker, a value is not carryable when its type is a class instance, a
 * function, an object with methods (a handle), or holds one. Without types (JavaScript, `any`, a type
 * the checker could not resolve), only a `new` of a class that is not built-in counts as not carryable.
 */
import ts from '../../typescript.cjs';
import { memberChain, unwrap } from '../ast.js';
import { PURE_CONSTRUCTORS } from './builtins.js';

/** `true`: carryable; `false`: not; `undefined`: the types do not say (`any`, `unknown`, no checker). */
export type Carry = boolean | undefined;

const CARRIED_CLASSES = new Set(['Date', 'Map', 'Set', 'ReadonlyMap', 'ReadonlySet', 'URL', 'Uint8Array', 'Array', 'ReadonlyArray']);
const MAX_DEPTH = 4;

export function carryableType(type: ts.Type, checker: ts.TypeChecker, depth = 0, seen = new Set<ts.Type>()): Carry {
  if (depth > MAX_DEPTH || seen.has(type)) return true;
  const flags = type.flags;
  if (flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return undefined;
  if (flags & ts.TypeFlags.TypeParameter) {
    const constraint = checker.getBaseConstraintOfType(type);
    return constraint && constraint !== type ? carryableType(constraint, checker, depth, seen) : undefined;
  }
  if (
    flags &
    (ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BooleanLike | ts.TypeFlags.BigIntLike | ts.TypeFlags.EnumLike |
      ts.TypeFlags.Null | ts.TypeFlags.Undefined | ts.TypeFlags.Void | ts.TypeFlags.Never)
  ) {
    return true;
  }
  if (flags & ts.TypeFlags.ESSymbolLike) return false;
  if (type.isUnion() || type.isIntersection()) return all(type.types.map((t) => carryableType(t, checker, depth, seen)));
  if (!(flags & ts.TypeFlags.Object)) return true;
  seen = new Set(seen).add(type);

  const awaited = promisedType(type, checker);
  if (awaited) return carryableType(awaited, checker, depth + 1, seen);
  if (checker.isArrayType(type) || checker.isTupleType(type)) {
    return all(checker.getTypeArguments(type as ts.TypeReference).map((t) => carryableType(t, checker, depth + 1, seen)));
  }
  if (type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0) return false;
  const symbol = type.getSymbol() ?? type.aliasSymbol;
  const name = symbol?.getName();
  if (name && CARRIED_CLASSES.has(name)) {
    const args = (type as ts.TypeReference).target ? checker.getTypeArguments(type as ts.TypeReference) : [];
    return all(args.map((t) => carryableType(t, checker, depth + 1, seen)));
  }
  if (symbol && symbol.flags & ts.SymbolFlags.Class) return false;
  // a plain object: every property must be carryable; a method makes it a handle
  const parts: Carry[] = [];
  for (const prop of checker.getPropertiesOfType(type)) {
    const decl = prop.valueDeclaration ?? prop.declarations?.[0];
    if (decl && (ts.isMethodDeclaration(decl) || ts.isMethodSignature(decl))) return false;
    const propType = checker.getTypeOfSymbol(prop);
    parts.push(carryableType(propType, checker, depth + 1, seen));
  }
  for (const info of checker.getIndexInfosOfType(type)) parts.push(carryableType(info.type, checker, depth + 1, seen));
  return all(parts);
}

function all(parts: readonly Carry[]): Carry {
  if (parts.some((p) => p === false)) return false;
  if (parts.some((p) => p === undefined)) return undefined;
  return true;
}

/** The value of an expression, judged by the checker when there is one, else by its syntax. */
export function carryableValue(expr: ts.Expression, checker: ts.TypeChecker | undefined): Carry {
  if (checker) {
    const carry = carryableType(checker.getTypeAtLocation(expr), checker);
    if (carry !== undefined) return carry;
  }
  const e = unwrap(expr);
  if (ts.isNewExpression(e)) {
    const cls = memberChain(e.expression);
    return cls.length === 1 && PURE_CONSTRUCTORS.has(cls[0]) ? undefined : false;
  }
  return undefined;
}

/** Is an expression's type a promise (a call whose promise the code keeps, rather than awaiting it)? */
export function isPromiseValue(expr: ts.Expression, checker: ts.TypeChecker | undefined): boolean {
  if (!checker) return false;
  return promisedType(checker.getTypeAtLocation(expr), checker) !== undefined;
}

/** What a promise type resolves to; undefined for a type that is not a promise. */
function promisedType(type: ts.Type, checker: ts.TypeChecker): ts.Type | undefined {
  if (!type.getProperty('then')) return undefined;
  const awaited = checker.getAwaitedType(type);
  return awaited && awaited !== type ? awaited : undefined;
}

/** The type of a local is plain data: arrays, tuples, strings, numbers, Maps, Sets, plain objects (for methods that re-run). */
export function isDataType(type: ts.Type, checker: ts.TypeChecker): boolean {
  if (type.flags & (ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BooleanLike | ts.TypeFlags.BigIntLike)) return true;
  if (type.isUnion()) {
    const defined = type.types.filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)));
    return defined.length > 0 && defined.every((t) => isDataType(t, checker));
  }
  if (checker.isArrayType(type) || checker.isTupleType(type)) return true;
  const name = (type.getSymbol() ?? type.aliasSymbol)?.getName();
  if (name === 'Map' || name === 'Set' || name === 'ReadonlyMap' || name === 'ReadonlySet') return true;
  return !!(type.flags & ts.TypeFlags.Object) && carryableType(type, checker) === true;
}

/** Is an expression's type an object (a candidate for `once(…, mutable)`), not a primitive? Undefined when the type is unknown to the checker. */
export function isObjectValue(expr: ts.Expression, checker: ts.TypeChecker): boolean | undefined {
  const type = checker.getTypeAtLocation(expr);
  if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return undefined;
  const parts = type.isUnion() ? type.types : [type];
  return parts.some((t) => !!(t.flags & ts.TypeFlags.Object) && t.getCallSignatures().length === 0);
}
