/**
 * Reads of state the call does not own: a module's (or a server factory's) `let`, a field of `this`, a
 * member of a module object, that some function of the file writes (`invocations++`, `this.token = t`,
 * `stats.calls += 1`, `seen[user] = true`). Before an ask such a read is memoized like an effect:
 *
 *   invocations++;                                  → await once(() => invocations++);
 *   message: `Call number ${invocations}`           → message: `Call number ${await once(() => invocations)}`
 *
 * The write runs once, on the replica of the round that reached it; the read must show every later round
 * the value the first round saw, or the question asked again differs from the one answered (a diverged
 * flow), a branch taken on it (`if (!sessionJwt)`) goes the other way, or another replica shows its own
 * counter. After the last answer reads stay live, as the legacy code read the process's state after its
 * `await`. Decided by the file's syntax first (is the path written anywhere?), then by the checker
 * (same binding, a value the journal carries); without the checker nothing is memoized here.
 */
import ts from '../../typescript.cjs';
import { enclosingFunction, isFunctionLike, outerParent, unwrap } from '../ast.js';
import { carryableValue } from './carry.js';
import { isAssignment } from './effects.js';
import { narrowingOf } from './narrowing.js';
import { isIncrement, isRead, isWriteTarget } from './references.js';
import { BUILTIN_MUTATOR_NAMES, DATE_SETTERS } from './builtins.js';

/** A member chain: its root (a name, or `this`) and property names; `[]` stands for a computed index. */
interface Path {
  root: ts.Identifier | ts.ThisExpression;
  segments: string[];
}

interface WrittenPath extends Path {
  /** The write's target (to resolve its root's binding). */
  target: ts.Expression;
  /** A call that may change its receiver in place (`audit.push(x)`): a write only when the checker says the method does (mutatesReceiver). */
  call?: ts.CallExpression;
}

const INDEX = '[]';
const writtenByFile = new WeakMap<ts.SourceFile, Map<string, WrittenPath[]>>();

export interface OuterStateRead {
  /**
   * What to memoize: the whole chain read (`stats.calls`), or the part of it that is narrowed here
   * (`sessionJwt` in `sessionJwt.length` after `if (sessionJwt)`), which a thunk would read unnarrowed.
   */
  target: ts.Expression;
  /** The target was narrowed past null/undefined: the memo keeps it with `!` (the value is the one the narrowing saw). */
  nonNull: boolean;
  /**
   * The target was narrowed otherwise (`typeof`, a discriminant, `instanceof`, a literal equality): the
   * narrowed type, which the memo asserts, `(await once(() => mode) as 'live')` (the value is the one the
   * narrowing saw).
   */
  cast?: string;
  /** Narrowed to a type that cannot be written here: the read cannot be memoized and keep its type (the handler is marked `narrowed-state`). */
  unkept?: boolean;
}

/** A live read of state a memo now reads, whose narrowing came from a check the memo took: what keeps its type. */
export interface NarrowedLiveRead {
  node: ts.Expression;
  /** `token!` */
  nonNull?: boolean;
  /** `(mode as 'live')` */
  cast?: string;
  /** no type to write: the handler is marked */
  unkept?: boolean;
}

/** What the planner needs from the function it plans. */
export interface OuterStateContext {
  fn: ts.FunctionLikeDeclaration;
  /** Bound by the function on the flow path (its own state is re-run, not read here). */
  isLocal(name: string): boolean;
  imported: ReadonlySet<string>;
  checker(): ts.TypeChecker | undefined;
  /** A TypeScript file (`!` can be written). */
  typed: boolean;
}

/** The outer state one path function reads: which reads to memoize, and which live reads keep a `!`. */
export class OuterStateReads {
  private readonly decided = new Map<ts.Node, OuterStateRead | null>();
  private readonly states = new Map<ts.Node, StateRef | null>();

  constructor(private readonly context: OuterStateContext) {}

  /**
   * Can this chain be outer state the file writes at all? Its text says no for nearly every read: its
   * root (a name, or `this`) is never before an assignment operator or around `++`/`--` in the file.
   * A read this says no to is not memoized (`read` would find the same); the cheap question, asked first.
   */
  mayBeWritten(e: ts.Expression): boolean {
    const root = rootOfChain(e);
    if (!root) return false;
    this.sf ??= this.context.fn.getSourceFile();
    const written = rootsAssignedByText(this.sf);
    return written.all || written.names.has(ts.isIdentifier(root) ? root.text : 'this');
  }

  private sf: ts.SourceFile | undefined;

  /** For a whole chain read (`wholeChainOf`) that runs before an ask: what to memoize, if anything. */
  read(whole: ts.Expression): OuterStateRead | undefined {
    return cached(this.decided, whole, () => this.decide(whole));
  }

  private decide(e: ts.Expression): OuterStateRead | undefined {
    if (!isWholeRead(e)) return undefined;
    const state = this.stateOf(e);
    if (!state) return undefined;
    const c = this.context.checker()!;
    // the shortest narrowed part of the chain, else the whole chain: a memo of it reads the declared type
    // (the check that narrowed it is memoized too, and TypeScript keeps no narrowing inside a thunk), so
    // it says what the check narrowed it to: `!` past null/undefined, else the narrowed type
    for (const part of prefixes(e)) {
      const narrowing = narrowingOf(part, c);
      if (narrowing === 'none') continue;
      // a handle stays live: the journal could not carry it
      if (carryableValue(part, c) !== true) return undefined;
      if (!this.context.typed) return { target: part, nonNull: false }; // JavaScript: no type to keep
      if (narrowing === 'non-null') return { target: part, nonNull: true };
      const type = writableType(c.getTypeAtLocation(part), part, c);
      return type ? { target: part, nonNull: false, cast: type } : { target: part, nonNull: false, unkept: true };
    }
    // a handle stays live: the journal could not carry it
    return carryableValue(e, c) === true ? { target: e, nonNull: false } : undefined;
  }

  /**
   * Live reads narrowed by a check of state a memo now reads: the check may be memoized (`if (!(await
   * once(() => token))) …`, `if ((await once(() => mode)) === 'live')`), which TypeScript no longer sees as
   * narrowing the state. Each keeps its type: a `!` past null/undefined, else the narrowed type asserted
   * (`(mode as 'live')`); on the replica that ran the check, the value is the one it saw. A read inside a
   * chain whose shorter part is narrowed is left to that part.
   */
  narrowedLiveReads(memoized: readonly ts.Expression[]): NarrowedLiveRead[] {
    if (!this.context.typed || memoized.length === 0 || !this.context.fn.body) return [];
    const c = this.context.checker();
    if (!c) return [];
    const targets = new Set<ts.Node>(memoized);
    const memoStates = memoized.map((m) => ({ at: m.getStart(), state: this.stateOf(m) }));
    const out: NarrowedLiveRead[] = [];
    const visit = (n: ts.Node): void => {
      if (isFunctionLike(n) && n !== this.context.fn) return;
      if (ts.isTypeNode(n)) return;
      if ((ts.isIdentifier(n) || ts.isPropertyAccessExpression(n)) && !targets.has(n) && isValueRef(n)) {
        const state = this.stateOf(n);
        if (state && memoStates.some((m) => m.state && m.at < n.getStart() && sameState(m.state, state)) && !ts.isNonNullExpression(outerParent(n).parent ?? n)) {
          // a template's placeholder takes any value: the narrowing does not matter there
          if (!ts.isTemplateSpan(outerParent(n).parent!)) {
            const narrowing = narrowingOf(n, c);
            if (narrowing === 'non-null') out.push({ node: n, nonNull: true });
            else if (narrowing === 'other' && !narrowedWithin(n, c)) {
              const type = writableType(c.getTypeAtLocation(n), n, c);
              out.push(type ? { node: n, cast: type } : { node: n, unkept: true });
            }
          }
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(this.context.fn.body);
    return out;
  }

  /** Is this chain (or chain part) outer state that the file writes? Its identity if so. */
  private stateOf(e: ts.Expression): StateRef | undefined {
    return cached(this.states, e, () => this.resolve(e));
  }

  private resolve(e: ts.Expression): StateRef | undefined {
    const path = pathOf(e);
    if (!path) return undefined;
    if (ts.isIdentifier(path.root) && (this.context.isLocal(path.root.text) || this.context.imported.has(path.root.text))) return undefined;
    const sf = e.getSourceFile();
    // the text first: a name never before an assignment operator (or `++`/`--`) is written nowhere, and the
    // file's tree need not be walked for its writes (most files of a large tree write no outer state)
    const assigned = rootsAssignedByText(sf);
    if (!assigned.all && !assigned.names.has(ts.isIdentifier(path.root) ? path.root.text : 'this')) return undefined;
    const writes = (writtenPaths(sf).get(rootKey(path.root)) ?? []).filter((w) => overlaps(w.segments, path.segments));
    if (writes.length === 0) return undefined; // the cheap answer for nearly every read: nothing writes it
    const c = this.context.checker();
    if (!c || !writes.some((w) => sameRoot(w, path, c) && (!w.call || mutatesReceiver(w.call, c)))) return undefined;
    const owner = ts.isIdentifier(path.root) ? c.getSymbolAtLocation(path.root) : thisClass(path.root);
    return owner ? { owner, segments: path.segments } : undefined;
  }
}

/** Is a shorter part of this chain narrowed other than past null/undefined (`this.job` in `this.job.pid`)? */
function narrowedWithin(e: ts.Expression, c: ts.TypeChecker): boolean {
  const parts = prefixes(e);
  return parts.slice(0, -1).some((p) => narrowingOf(p, c) === 'other');
}

/** Type text longer than this is not written into the user's code (a memo would not read as theirs). */
const MAX_TYPE_TEXT = 160;

/**
 * The type as text that means the same type where `at` is: primitives, literals, `null`/`undefined`,
 * unions and intersections, arrays and tuples of those, object literal types (and mapped types made
 * concrete: `z.infer<typeof S>`'s object) whose members are, and named types (interfaces, classes,
 * aliases, enums) with a spelling there that names the same declaration: its own name, an import under
 * another name (`import type { Plan as P }` → `P`), a member of a namespace import (`import type * as
 * sdk` → `sdk.Plan`); the checker writes the name the way the file can (`resolvesTo` checks it does).
 * Undefined when the type has a part that cannot be written there (an anonymous function or class
 * type, a type parameter, a name the file neither declares nor imports, a truncated or `import(…)` text).
 */
function writableType(type: ts.Type, at: ts.Node, checker: ts.TypeChecker): string | undefined {
  if (!isWritable(type, at, checker, 0)) return undefined;
  const text = checker.typeToString(type, at, ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope);
  if (text.length > MAX_TYPE_TEXT || /\bimport\(|\.\.\.|\btypeof\b/.test(text)) return undefined;
  return text;
}

// read on use: a compiler value at module level would load the compiler when this module is imported
const simpleTypes = (): number => ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BigIntLike | ts.TypeFlags.BooleanLike | ts.TypeFlags.Null | ts.TypeFlags.Undefined | ts.TypeFlags.Void;

function isWritable(type: ts.Type, at: ts.Node, checker: ts.TypeChecker, depth: number): boolean {
  if (depth > 4) return false;
  const named = type.aliasSymbol ?? (type.flags & ts.TypeFlags.EnumLiteral ? enumOf(type.symbol) : undefined);
  if (named) return resolvesTo(named, at, checker) && (type.aliasTypeArguments ?? []).every((t) => isWritable(t, at, checker, depth + 1));
  if (type.flags & ts.TypeFlags.EnumLike) return false;
  if (type.flags & simpleTypes()) return true;
  if (type.isUnionOrIntersection()) return type.types.every((t) => isWritable(t, at, checker, depth + 1));
  if (!(type.flags & ts.TypeFlags.Object)) return false;
  const object = type as ts.ObjectType;
  if (checker.isArrayType(type) || checker.isTupleType(type)) return checker.getTypeArguments(type as ts.TypeReference).every((t) => isWritable(t, at, checker, depth + 1));
  const symbol = type.getSymbol();
  if (symbol && symbol.flags & (ts.SymbolFlags.Class | ts.SymbolFlags.Interface)) {
    const args = object.objectFlags & ts.ObjectFlags.Reference ? checker.getTypeArguments(type as ts.TypeReference) : [];
    return resolvesTo(symbol, at, checker) && args.every((t) => isWritable(t, at, checker, depth + 1));
  }
  // an object literal type: its properties' types, no call or construct signature, no index signature;
  // a mapped type only once concrete (its properties known: zod's inferred objects), never `{ [K in keyof T]: … }`
  if (!(object.objectFlags & (ts.ObjectFlags.Anonymous | ts.ObjectFlags.Mapped)) || type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0) return false;
  if (object.objectFlags & ts.ObjectFlags.Mapped && /\[\s*[\w$]+\s+in\s/.test(checker.typeToString(type, at, ts.TypeFormatFlags.NoTruncation))) return false;
  if (checker.getIndexInfosOfType(type).length > 0) return false;
  return checker.getPropertiesOfType(type).every((p) => isWritable(checker.getTypeOfSymbol(p), at, checker, depth + 1));
}

function enumOf(member: ts.Symbol | undefined): ts.Symbol | undefined {
  const decl = member?.valueDeclaration;
  const parent = decl && ts.isEnumMember(decl) ? decl.parent : undefined;
  return parent ? (parent as ts.EnumDeclaration & { symbol?: ts.Symbol }).symbol : undefined;
}

/**
 * Does the name the checker writes for the symbol at `at` name that symbol there: its own name (directly
 * or through an import), or the file's other spelling of it, an import under another name (`P` for
 * `import type { Plan as P }`) or a namespace import's member (`sdk.Plan`, through re-exports)?
 */
function resolvesTo(symbol: ts.Symbol, at: ts.Node, checker: ts.TypeChecker): boolean {
  const meaning = symbol.flags & ts.SymbolFlags.Enum ? ts.SymbolFlags.Value | ts.SymbolFlags.Type : ts.SymbolFlags.Type;
  const wanted = unaliased(symbol, checker);
  const found = checker.resolveName(symbol.name, at, meaning, false);
  if (found && unaliased(found, checker) === wanted) return true;
  // the spelling typeToString uses for it here (the same symbol-accessibility walk): each part a plain name
  const parts = checker.symbolToString(symbol, at, meaning).split('.');
  if (parts.length === 1 && parts[0] === symbol.name) return false; // the own name, which names something else here (or nothing)
  if (!parts.every((p) => /^[A-Za-z_$][\w$]*$/.test(p))) return false; // `import("…").Plan`, a quoted module name
  let current = checker.resolveName(parts[0], at, parts.length === 1 ? meaning : ts.SymbolFlags.Namespace | ts.SymbolFlags.Alias, false);
  for (const part of parts.slice(1)) {
    if (!current) return false;
    const holder = unaliased(current, checker);
    current = checker.getExportsOfModule(holder).find((e) => e.name === part) ?? holder.exports?.get(ts.escapeLeadingUnderscores(part));
  }
  return !!current && unaliased(current, checker) === wanted;
}

function unaliased(symbol: ts.Symbol, checker: ts.TypeChecker): ts.Symbol {
  return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

/** The answer kept for `key`, computed on first use (`null` stands for a kept "none"). */
function cached<T>(answers: Map<ts.Node, T | null>, key: ts.Node, compute: () => T | undefined): T | undefined {
  let known = answers.get(key);
  if (known === undefined) answers.set(key, (known = compute() ?? null));
  return known ?? undefined;
}

/** One piece of outer state: its binding's symbol (or the class whose `this` it is) and the member path. */
export interface StateRef {
  owner: ts.Symbol | ts.ClassLikeDeclaration;
  segments: string[];
}

/**
 * The state a member chain reaches (`history`, `this.items`, `store.log[0]`): its root's symbol (an import
 * resolved to what it imports, so a helper of another file and the handler name one state) or the class of
 * `this`, and the member path. Whether the state is the function's own is the caller's question.
 */
export function stateRefOf(e: ts.Expression, checker: ts.TypeChecker): StateRef | undefined {
  const path = pathOf(e);
  if (!path) return undefined;
  if (!ts.isIdentifier(path.root)) {
    const cls = thisClass(path.root);
    return cls ? { owner: cls, segments: path.segments } : undefined;
  }
  let symbol = checker.getSymbolAtLocation(path.root);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  return symbol ? { owner: symbol, segments: path.segments } : undefined;
}

export function sameState(a: StateRef, b: StateRef): boolean {
  return a.owner === b.owner && overlaps(a.segments, b.segments);
}

/** A reference to a value (not a property's name, a declaration's name, a write's target). */
function isValueRef(n: ts.Identifier | ts.PropertyAccessExpression): boolean {
  if (ts.isIdentifier(n)) {
    const p = n.parent;
    if (ts.isPropertyAccessExpression(p) && p.name === n) return false;
    if (!isRead(n) || ts.isShorthandPropertyAssignment(p)) return false;
  }
  return !!outerParent(n).parent && !isWriteTarget(n);
}

/** The chain's parts from its root out, the whole chain last (`a`, `a.b`, `a.b.c`; wrappers kept with their part). */
function prefixes(e: ts.Expression): ts.Expression[] {
  const out: ts.Expression[] = [];
  for (let n: ts.Expression = e; ; ) {
    out.unshift(n);
    const inner = unwrap(n);
    if (ts.isPropertyAccessExpression(inner) || ts.isElementAccessExpression(inner)) n = inner.expression;
    else break;
  }
  return out.filter((p) => unwrap(p).kind !== ts.SyntaxKind.ThisKeyword);
}

/** The chain a part of one belongs to: `a.b.c` for `a`, for `a.b` and for itself. */
export function wholeChainOf(e: ts.Expression): ts.Expression {
  let n: ts.Expression = e;
  for (;;) {
    const outer = outerParent(n);
    const p = outer.parent;
    if (p && (ts.isPropertyAccessExpression(p) || ts.isElementAccessExpression(p)) && p.expression === outer) n = p;
    else return n;
  }
}

/** The whole chain read here: not a write's target, not a callee, not the start of a longer chain. */
function isWholeRead(e: ts.Expression): boolean {
  if (ts.isIdentifier(e)) {
    if (!isRead(e) || e.text === 'undefined' || ts.isShorthandPropertyAssignment(e.parent)) return false;
  } else if (!ts.isPropertyAccessExpression(e) && !ts.isElementAccessExpression(e)) {
    return false;
  }
  const outer = outerParent(e);
  const p = outer.parent;
  if (!p) return false;
  if ((ts.isPropertyAccessExpression(p) || ts.isElementAccessExpression(p)) && p.expression === outer) return false;
  if ((ts.isCallExpression(p) || ts.isNewExpression(p)) && p.expression === outer) return false;
  if (ts.isTaggedTemplateExpression(p) && p.tag === outer) return false;
  return !isWriteTarget(e);
}

/** The root of the chain `pathOf` would read (a name, or `this`), without building its path. */
function rootOfChain(expr: ts.Expression): ts.Identifier | ts.ThisExpression | undefined {
  let e = unwrap(expr);
  for (;;) {
    if (ts.isPropertyAccessExpression(e)) {
      if (!ts.isIdentifier(e.name)) return undefined;
      e = unwrap(e.expression);
    } else if (ts.isElementAccessExpression(e)) {
      e = unwrap(e.expression);
    } else if (ts.isIdentifier(e) || e.kind === ts.SyntaxKind.ThisKeyword) {
      return e as ts.Identifier | ts.ThisExpression;
    } else {
      return undefined;
    }
  }
}

function pathOf(expr: ts.Expression): Path | undefined {
  const segments: string[] = [];
  let e = unwrap(expr);
  for (;;) {
    if (ts.isPropertyAccessExpression(e)) {
      if (!ts.isIdentifier(e.name)) return undefined; // `#private`: written only inside its class, read there too
      segments.unshift(e.name.text);
      e = unwrap(e.expression);
    } else if (ts.isElementAccessExpression(e)) {
      const key = unwrap(e.argumentExpression);
      segments.unshift(ts.isStringLiteralLike(key) || ts.isNumericLiteral(key) ? key.text : INDEX);
      e = unwrap(e.expression);
    } else if (ts.isIdentifier(e) || e.kind === ts.SyntaxKind.ThisKeyword) {
      return { root: e as ts.Identifier | ts.ThisExpression, segments };
    } else {
      return undefined;
    }
  }
}

function rootKey(root: ts.Identifier | ts.ThisExpression): string {
  return ts.isIdentifier(root) ? `name:${root.text}` : 'this';
}

/** One is a prefix of the other (a computed index matches any name). */
function overlaps(a: readonly string[], b: readonly string[]): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i] && a[i] !== INDEX && b[i] !== INDEX) return false;
  return true;
}

const assignedByText = new WeakMap<ts.SourceFile, RootsByText>();
// an assignment operator (`=`, `+=`, `??=`…; not `==`, `=>`, `<=`) or `++`/`--`
const WRITE_OPERATOR = /(?:\*\*|<<|>>>?|&&|\|\||\?\?|[-+*/%&|^])?=(?![=>])|\+\+|--/g;
// at a `for`: the head of a `for…of`/`for…in` whose target is not declared there (`for (current of queue)`)
const FOR_HEAD = /for\s*(?:await\s*)?\(\s*(?!(?:const|let|var|using)\b)/y;
const IDENTIFIER_CHAR = /[\w$#]/;
const NAMES = /[A-Za-z_$][\w$]*/g;
/** How far back a destructuring pattern's opening bracket is looked for before the text gives up (and the tree decides). */
const MAX_PATTERN_CHARS = 4000;

/** The roots the text may write, or every root (`all`: a pattern the scan could not delimit). */
export interface RootsByText {
  all: boolean;
  names: Set<string>;
}

/**
 * The roots (names, or `this`) of the member chains the file's text may write: before an assignment
 * operator or around `++`/`--`, every name inside a destructuring pattern before `=` (`[a, b] = …`,
 * `({ x: this.cache } = …)`), and the target of a `for…of`/`for…in` that does not declare it (`for
 * (current of list)`); a declaration's initializer and pattern left out (`const { a } = …` writes only
 * its own names). A root it misses is written nowhere; it may name more (a property key of a pattern, a
 * parameter's default), which the tree walk then rules out. Scans back from each operator, so it costs
 * little more than the operators' count.
 */
export function rootsAssignedByText(sf: ts.SourceFile): RootsByText {
  let known = assignedByText.get(sf);
  if (known) return known;
  known = { all: false, names: new Set() };
  const text = sf.text;
  for (const m of text.matchAll(WRITE_OPERATOR)) {
    const at = m.index;
    if (m[0] === '=' && at > 0 && '=!<>'.includes(text[at - 1])) continue; // `==`, `!=`, `<=`, `>=`
    if (!rootsBefore(text, at, known)) break; // every root is taken to be written: nothing more to learn
    if (m[0] === '++' || m[0] === '--') {
      const after = /^\s*([A-Za-z_$][\w$]*)/.exec(text.slice(at + 2, at + 200));
      if (after) known.names.add(after[1]);
    }
  }
  // a call of a method that may change its receiver in place (`audit.push(x)`, `cache.set(k, v)`,
  // `seen.add(id)`, `list.splice(i, 1)`, `when.setHours(0)`): the receiver's root; and, in a file that
  // writes `this.x`, a call of a method its classes declare (`ledger.record(line)`); the checker decides
  for (const re of known.all ? [] : mutatingCallPatterns(text, known)) {
    for (const m of text.matchAll(re)) if (!rootsBefore(text, m.index, known)) break;
    if (known.all) break;
  }
  // `indexOf` and a sticky match at each `for` cost less than a global search for the head
  for (let at = known.all ? -1 : text.indexOf('for'); at >= 0; at = text.indexOf('for', at + 3)) {
    if (at > 0 && IDENTIFIER_CHAR.test(text[at - 1])) continue;
    FOR_HEAD.lastIndex = at;
    const m = FOR_HEAD.exec(text);
    if (!m) continue;
    const head = text.slice(at + m[0].length, at + m[0].length + 300);
    const end = /\b(?:of|in)\b|[;)]/.exec(head);
    if (end && (end[0] === 'of' || end[0] === 'in')) addNames(head.slice(0, end.index), known);
  }
  assignedByText.set(sf, known);
  return known;
}

/**
 * The built-in methods that change their receiver in place: of arrays, maps and sets those their
 * read-only views lack, and the setters of `Date` (mutatesReceiver asks the checker which one a call is).
 */
const MUTATING_NAMES = [...BUILTIN_MUTATOR_NAMES, ...DATE_SETTERS].join('|');
const MUTATING_METHOD = new RegExp(`^(?:${MUTATING_NAMES})$`);
const MUTATING_CALL = new RegExp(`\\??\\.\\s*(?:${MUTATING_NAMES})\\s*\\(`, 'g');
// a method's declaration at the start of a line or after `{`, `;`, `}` (`record(line: string): void {`, `async save() {`, `bump = () => {`)
const METHOD_DECLARATION = /(?:^|[{;}])[ \t]*(?:(?:public|private|protected|static|async|override|readonly)\s+)*(#?[A-Za-z_$][\w$]*)\s*(?:<[^>\n]*>)?\s*(?:\([^)]*\)\s*(?::[^{;\n]*)?\{|=\s*(?:async\s*)?\([^)]*\)\s*(?::[^=;\n]*)?=>)/gm;
const NOT_METHODS = new Set(['if', 'for', 'while', 'switch', 'catch', 'function', 'with', 'return', 'else', 'do', 'try', 'constructor', 'get', 'set']);

/** The patterns of calls that may change their receiver: the built-ins', and (a file that writes `this.x`) its classes' methods. */
function mutatingCallPatterns(text: string, known: RootsByText): RegExp[] {
  const out = [MUTATING_CALL];
  if (!known.names.has('this')) return out;
  const methods = new Set<string>();
  for (const m of text.matchAll(METHOD_DECLARATION)) if (!NOT_METHODS.has(m[1]) && !MUTATING_METHOD.test(m[1])) methods.add(m[1].replace(/^#/, ''));
  if (methods.size === 0) return out;
  const names = [...methods].map((n) => n.replace(/\$/g, '\\$')).join('|');
  out.push(new RegExp(`\\??\\.\\s*#?(?:${names})\\s*\\(`, 'g'));
  return out;
}

function addNames(pattern: string, into: RootsByText): void {
  for (const n of pattern.matchAll(NAMES)) into.names.add(n[0]);
}

/**
 * Notes the roots written by the assignment whose target ends right before `end`: the root of a member
 * chain (`stats` for `stats.calls[k] `), or every name of a destructuring pattern. False when a pattern
 * could not be delimited (then every root counts as written).
 */
function rootsBefore(text: string, end: number, into: RootsByText): boolean {
  let j = end - 1;
  let indexed = false;
  for (let guard = 0; guard < 50; guard++) {
    while (j >= 0 && /\s/.test(text[j])) j--;
    if (j >= 0 && text[j] === '!') {
      j--;
      continue;
    }
    if (j >= 0 && (text[j] === ']' || text[j] === '}' || text[j] === ')')) {
      const open = matchingOpen(text, j);
      if (open < 0) {
        into.all = true;
        return false;
      }
      let p = open - 1;
      while (p >= 0 && /\s/.test(text[p])) p--;
      if (text[j] === ']' && p >= 0 && (IDENTIFIER_CHAR.test(text[p]) || ')]'.includes(text[p]))) {
        // an index (`seen[user]`, `rows[i][j]`): the chain goes on before it
        indexed = true;
        j = p;
        continue;
      }
      if (text[j] === ')' && !indexed) {
        // `(a as T) = …`, `(x) = …`: the parenthesized target
        addNames(text.slice(open + 1, j), into);
        return true;
      }
      if (text[j] === ')') return true; // a call's result indexed (`f()[k] = v`): no root of the file's state
      // a destructuring pattern, unless a declaration's (`const { a } = …`, `let [x] = …`)
      if (!/(?:^|[^\w$])(?:const|let|var)$/.test(text.slice(Math.max(0, p - 5), p + 1))) addNames(text.slice(open + 1, j), into);
      return true;
    }
    let k = j;
    while (k >= 0 && IDENTIFIER_CHAR.test(text[k])) k--;
    if (k === j) return true;
    const name = text.slice(k + 1, j + 1);
    let p = k;
    while (p >= 0 && /\s/.test(text[p])) p--;
    if (p >= 0 && text[p] === '.') {
      j = p - 1;
      if (j >= 0 && text[j] === '?') j--;
      continue;
    }
    // a declaration's initializer (`const schema = …`) writes nothing outside it
    if (!/(?:^|[^\w$])(?:const|let|var)$/.test(text.slice(Math.max(0, p - 5), p + 1))) into.names.add(name);
    return true;
  }
  return true;
}

/** The bracket opening the one that closes at `close` (same kind, nesting counted), or -1 past the scan's reach. */
function matchingOpen(text: string, close: number): number {
  const closer = text[close];
  const opener = closer === ']' ? '[' : closer === '}' ? '{' : '(';
  let depth = 0;
  for (let i = close; i >= 0 && close - i <= MAX_PATTERN_CHARS; i--) {
    const c = text[i];
    if (c === closer) depth++;
    else if (c === opener && --depth === 0) return i;
  }
  return -1;
}

/**
 * Every member chain the file writes from inside a function, by root. Writes at load time (the module's
 * top level) and a constructor's own writes to `this` happen before any handler runs: not counted.
 */
function writtenPaths(sf: ts.SourceFile): Map<string, WrittenPath[]> {
  let known = writtenByFile.get(sf);
  if (known) return known;
  const out = new Map<string, WrittenPath[]>();
  const add = (target: ts.Expression): void => {
    const path = pathOf(target);
    if (!path) return;
    const fn = enclosingFunction(target);
    if (!fn) return;
    if (ts.isConstructorDeclaration(fn) && !ts.isIdentifier(path.root)) return;
    const key = rootKey(path.root);
    const list = out.get(key) ?? [];
    list.push({ ...path, target });
    out.set(key, list);
  };
  // a call that may change its receiver in place writes into it (`audit.push(x)`: `audit[…]`)
  const methods = classMethodsWritingThis(sf);
  const addCall = (call: ts.CallExpression): void => {
    const callee = unwrap(call.expression);
    if (!ts.isPropertyAccessExpression(callee)) return;
    const name = callee.name.text;
    if (!MUTATING_METHOD.test(name) && !methods.has(name)) return;
    const path = pathOf(callee.expression);
    if (!path) return;
    const fn = enclosingFunction(call);
    if (!fn || (ts.isConstructorDeclaration(fn) && !ts.isIdentifier(path.root))) return;
    const key = rootKey(path.root);
    const list = out.get(key) ?? [];
    list.push({ root: path.root, segments: [...path.segments, INDEX], target: callee.expression, call });
    out.set(key, list);
  };
  const visit = (n: ts.Node): void => {
    if (isAssignment(n)) {
      for (const t of assignedTargets(n.left)) add(t);
    } else if (isIncrement(n)) {
      add(n.operand);
    } else if (ts.isDeleteExpression(n)) {
      add(n.expression);
    } else if (ts.isCallExpression(n)) {
      addCall(n);
    } else if ((ts.isForOfStatement(n) || ts.isForInStatement(n)) && !ts.isVariableDeclarationList(n.initializer)) {
      for (const t of assignedTargets(n.initializer)) add(t);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  writtenByFile.set(sf, out);
  return out;
}

const methodsByFile = new WeakMap<ts.SourceFile, Set<string>>();

/** The names of the methods the file's classes declare whose bodies write `this.x` (`record(l) { this.total += l.length; }`). */
function classMethodsWritingThis(sf: ts.SourceFile): Set<string> {
  let known = methodsByFile.get(sf);
  if (known) return known;
  known = new Set();
  const visit = (n: ts.Node): void => {
    if (ts.isClassLike(n)) {
      for (const m of n.members) {
        const fn = ts.isMethodDeclaration(m) ? m : ts.isPropertyDeclaration(m) && m.initializer && isFunctionLike(unwrap(m.initializer)) ? (unwrap(m.initializer) as ts.FunctionLikeDeclaration) : undefined;
        const name = m.name && (ts.isIdentifier(m.name) || ts.isPrivateIdentifier(m.name)) ? m.name.text.replace(/^#/, '') : undefined;
        if (fn && name && writesThis(fn)) known!.add(name);
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  methodsByFile.set(sf, known);
  return known;
}

/**
 * Does the method's body write its instance: an assignment, `++`/`--` or `delete` of `this.x`, or a call
 * of a built-in that changes `this.x` in place (`this.entries.push(line)`)? Arrow functions inside see the same `this`.
 */
function writesThis(fn: ts.FunctionLikeDeclaration): boolean {
  const rootedAtThis = (e: ts.Expression): boolean => {
    const path = pathOf(e);
    return !!path && !ts.isIdentifier(path.root) && (path.segments.length > 0 || e.kind !== ts.SyntaxKind.ThisKeyword);
  };
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found || ((ts.isFunctionDeclaration(n) || ts.isFunctionExpression(n) || ts.isClassLike(n)) && n !== fn)) return;
    if (isAssignment(n)) found = assignedTargets(n.left).some(rootedAtThis);
    else if (isIncrement(n)) found = rootedAtThis(n.operand);
    else if (ts.isDeleteExpression(n)) found = rootedAtThis(n.expression);
    else if (ts.isCallExpression(n)) {
      const callee = unwrap(n.expression);
      found = ts.isPropertyAccessExpression(callee) && MUTATING_METHOD.test(callee.name.text) && rootedAtThis(callee.expression) && unwrap(callee.expression).kind !== ts.SyntaxKind.ThisKeyword;
    }
    if (!found) ts.forEachChild(n, visit);
  };
  if (fn.body) visit(fn.body);
  return found;
}

/**
 * Does the call change its receiver in place (the checker's answer)? A method whose body the project shows:
 * when it writes `this.x`. A declared built-in: a method of an array, a map or a set that its read-only view
 * (`ReadonlyArray`, `ReadonlyMap`, `ReadonlySet`) lacks, a setter of `Date`, `set`/`add`/`delete` of a
 * `WeakMap`/`WeakSet`.
 */
function mutatesReceiver(call: ts.CallExpression, checker: ts.TypeChecker): boolean {
  const callee = unwrap(call.expression);
  if (!ts.isPropertyAccessExpression(callee)) return false;
  const decl = checker.getResolvedSignature(call)?.declaration;
  if (!decl || ts.isJSDocSignature(decl)) return false;
  if (isFunctionLike(decl) && decl.body) return writesThis(decl);
  const owner = decl.parent;
  if (!owner || !(ts.isInterfaceDeclaration(owner) || ts.isClassDeclaration(owner)) || !owner.name || !decl.getSourceFile().isDeclarationFile) return false;
  const method = callee.name.text;
  const view = READONLY_VIEWS[owner.name.text];
  if (view) {
    const symbol = checker.resolveName(view, undefined, ts.SymbolFlags.Type, false);
    return !!symbol && !checker.getPropertyOfType(checker.getDeclaredTypeOfSymbol(symbol), method);
  }
  if (owner.name.text === 'Date') return MUTATING_METHOD.test(method);
  if (owner.name.text === 'WeakMap' || owner.name.text === 'WeakSet') return method === 'set' || method === 'add' || method === 'delete';
  return false;
}

const READONLY_VIEWS: Record<string, string> = { Array: 'ReadonlyArray', Map: 'ReadonlyMap', Set: 'ReadonlySet' };

/** The targets of an assignment's left side (`[a, this.b] = …`, `({ x: s.y } = …)` hold several). */
function assignedTargets(left: ts.Expression): ts.Expression[] {
  const e = unwrap(left);
  if (ts.isArrayLiteralExpression(e)) return e.elements.flatMap((el) => assignedTargets(ts.isSpreadElement(el) ? el.expression : el));
  if (ts.isObjectLiteralExpression(e)) {
    return e.properties.flatMap((p) => {
      if (ts.isPropertyAssignment(p)) return assignedTargets(p.initializer);
      if (ts.isShorthandPropertyAssignment(p)) return [p.name];
      if (ts.isSpreadAssignment(p)) return assignedTargets(p.expression);
      return [];
    });
  }
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.EqualsToken) return assignedTargets(e.left); // a default
  return [e];
}

/** The write and the read reach the same state: one binding (a `let`/`var` when rebound), or `this` of one class. */
function sameRoot(write: WrittenPath, read: Path, checker: ts.TypeChecker): boolean {
  if (ts.isIdentifier(read.root)) {
    const wroteRoot = pathOf(write.target)?.root;
    if (!wroteRoot || !ts.isIdentifier(wroteRoot)) return false;
    const symbol = checker.getSymbolAtLocation(read.root);
    // `({ token } = …)`: the shorthand names the property; the variable it writes is its value symbol
    const wrote = ts.isShorthandPropertyAssignment(wroteRoot.parent) ? checker.getShorthandAssignmentValueSymbol(wroteRoot.parent) : checker.getSymbolAtLocation(wroteRoot);
    if (!symbol || wrote !== symbol) return false;
    if (write.segments.length > 0) return true;
    const decl = symbol.valueDeclaration;
    return !!decl && ts.isVariableDeclaration(decl) && !(ts.getCombinedNodeFlags(decl) & ts.NodeFlags.Const);
  }
  const cls = thisClass(read.root);
  return !!cls && thisClass(write.root) === cls;
}

/** The class whose instance `this` is here (arrow functions see the `this` around them). */
function thisClass(node: ts.Node): ts.ClassLikeDeclaration | undefined {
  for (let n = node.parent; n; n = n.parent) {
    if (ts.isArrowFunction(n)) continue;
    if (isFunctionLike(n) || ts.isPropertyDeclaration(n) || ts.isClassStaticBlockDeclaration(n)) {
      const holder = n.parent;
      return holder && ts.isClassLike(holder) ? holder : undefined;
    }
    if (ts.isSourceFile(n)) return undefined;
  }
  return undefined;
}
