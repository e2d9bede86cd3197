/**
 * One walk over a parsed file collects everything later stages ask about: imports and exports,
 * named functions, identifier and property references (for call-graph edges), protocol-server
 * variables, aliases of legacy methods, and the raw legacy sites.
 */
import ts from '../typescript.cjs';
import { functionName, isExported, isFunctionLike, memberChain, propertyNameText, unwrap } from './ast.js';
import type { RawSite } from './detect.js';
import { eraOfSpecifier } from './modules.js';
import type { SdkEra } from './model.js';
import { LEGACY_METHODS, urlErrorRenaming } from '../vocabulary.js';

export interface ImportBinding {
  spec: string;
  /** The exported name, `'default'`, or `'*'` for a namespace import. */
  imported: string;
}

export interface ReExport {
  spec: string;
  /** Exported name → name in the target module; undefined for `export *`. */
  names?: Map<string, string>;
}

export interface FileIndex {
  /** Absolute path. */
  file: string;
  /** Relative to cwd, `/`-separated. */
  rel: string;
  sf: ts.SourceFile;
  /** A test file (`*.test.*`, `*.spec.*`, under `__tests__/`, `test/`, `tests/`): its own entry points, never a production site's caller. */
  isTest: boolean;
  imports: Map<string, ImportBinding>;
  /** Exported name → local name, for exports declared in this file. */
  exports: Map<string, string>;
  reExports: ReExport[];
  /** SDK era and side from direct imports. */
  era: SdkEra;
  sides: Set<'server' | 'client' | 'shared'>;
  /** Named functions (declarations, const-bound, methods, object-literal properties) by name. */
  functions: Map<string, ts.FunctionLikeDeclaration[]>;
  /** Identifier occurrences that are not declaration names, by text. */
  identRefs: Map<string, ts.Identifier[]>;
  /** `x.name` property accesses, by name. */
  propRefs: Map<string, ts.PropertyAccessExpression[]>;
  /** Local names bound to a protocol `Server` (`new Server(...)`, or declared with type `Server`). */
  serverNames: Set<string>;
  /** Local names bound to a legacy method: `const { send } = ctx.mcpReq`, `const ask = ctx.mcpReq.elicitInput`. */
  legacyAliases: Map<string, LegacyAlias>;
  /**
   * Local names bound to the result of a call (`const ask = getAsk(ctx)`): aliases of a legacy method
   * when the function called returns one (`return ctx.elicitInput.bind(ctx)`); detection decides.
   */
  callResults: Set<string>;
  /** Local names bound to `UrlElicitationRequiredError` under another name (`import { UrlElicitationRequiredError as NeedsUrl }`, a destructured `require`). */
  urlErrorNames: Set<string>;
  /** Calls (and `new`s) named like a legacy method or an alias of one: what site detection looks at. */
  candidates: Array<ts.CallExpression | ts.NewExpression>;
  /** The legacy sites, once detected (`detectSites`, after the prefilter's first pass). */
  sites: RawSite[];
}

export interface LegacyAlias {
  /** The member chain the alias stands for: `['ctx', 'mcpReq', 'elicitInput']`. */
  chain: string[];
  /** The receiver expression it was read off (`ctx.mcpReq`), to follow its value. */
  receiver: ts.Expression;
}

const LEGACY_NAMES = new Set(LEGACY_METHODS.map((m) => m.name));
const SERVER_CLASS_NAMES = new Set(['Server']);

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Parent kinds whose `name` is a declaration, not a use (built on first use: at import it would load the compiler). */
let declaringParents: ReadonlySet<ts.SyntaxKind> | undefined;
const declaringParentKinds = (): ReadonlySet<ts.SyntaxKind> => (declaringParents ??= new Set<ts.SyntaxKind>([
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.ClassDeclaration,
  ts.SyntaxKind.VariableDeclaration,
  ts.SyntaxKind.Parameter,
  ts.SyntaxKind.MethodDeclaration,
  ts.SyntaxKind.PropertyDeclaration,
  ts.SyntaxKind.FunctionExpression,
  ts.SyntaxKind.ImportSpecifier,
  ts.SyntaxKind.ImportClause,
  ts.SyntaxKind.NamespaceImport,
  ts.SyntaxKind.BindingElement,
  ts.SyntaxKind.PropertyAssignment,
  ts.SyntaxKind.InterfaceDeclaration,
  ts.SyntaxKind.TypeAliasDeclaration,
  ts.SyntaxKind.EnumDeclaration,
  ts.SyntaxKind.GetAccessor,
  ts.SyntaxKind.SetAccessor,
  ts.SyntaxKind.PropertySignature,
  ts.SyntaxKind.MethodSignature,
  ts.SyntaxKind.PropertyAccessExpression,
]));

/** The kinds `indexFile` dispatches on (read off the compiler on first use: at import it would load it). */
let kindsRead: ReturnType<typeof readIndexKinds> | undefined;
const indexKinds = (): ReturnType<typeof readIndexKinds> => (kindsRead ??= readIndexKinds());

function readIndexKinds() {
  const k = ts.SyntaxKind;
  return {
    Identifier: k.Identifier,
    PropertyAccessExpression: k.PropertyAccessExpression,
    CallExpression: k.CallExpression,
    NewExpression: k.NewExpression,
    VariableDeclaration: k.VariableDeclaration,
    PropertyDeclaration: k.PropertyDeclaration,
    Parameter: k.Parameter,
    BinaryExpression: k.BinaryExpression,
    EqualsToken: k.EqualsToken,
  };
}

/** Is this identifier the name being declared (or a property name), not a use of a binding? */
function isDeclarationName(id: ts.Identifier): boolean {
  const p = id.parent;
  if (!p) return false;
  if (declaringParentKinds().has(p.kind)) return (p as ts.Node & { name?: ts.Node }).name === id;
  return p.kind === ts.SyntaxKind.ExportSpecifier || p.kind === ts.SyntaxKind.QualifiedName || p.kind === ts.SyntaxKind.TypeReference;
}

export function indexFile(file: string, rel: string, sf: ts.SourceFile): FileIndex {
  const index: FileIndex = {
    file,
    rel,
    sf,
    isTest: isTestPath(rel),
    imports: new Map(),
    exports: new Map(),
    reExports: [],
    era: 'unknown',
    sides: new Set(),
    functions: new Map(),
    identRefs: new Map(),
    propRefs: new Map(),
    serverNames: new Set(),
    legacyAliases: new Map(),
    callResults: new Set(),
    urlErrorNames: new Set(),
    candidates: [],
    sites: [],
  };
  const eras = collectModuleStatements(index);

  const candidates = index.candidates;
  // the walk reads each node's kind against these once-read constants (and one forEachChild): every
  // `ts.is…` or `ts.SyntaxKind.…` is a lookup among the compiler's 2,500 exports, on every node of every file
  const K = indexKinds();
  const forEachChild = ts.forEachChild;
  // the walk also links each node to its parent, as the parser's `setParentNodes` would (a second
  // walk of the whole tree): top-down, so every ancestor of a visited node is linked already
  let parent: ts.Node = sf;
  const visit = (node: ts.Node): void => {
    (node as Mutable<ts.Node>).parent = parent;
    if ((node as JSDocHolder).jsDoc) linkJSDocParents(node as JSDocHolder);
    const kind = node.kind;
    if (kind === K.Identifier) {
      if (!isDeclarationName(node as ts.Identifier)) push(index.identRefs, (node as ts.Identifier).text, node as ts.Identifier);
      return;
    }
    if (kind === K.PropertyAccessExpression) {
      push(index.propRefs, (node as ts.PropertyAccessExpression).name.text, node as ts.PropertyAccessExpression);
    } else if (kind === K.CallExpression || kind === K.NewExpression) {
      candidates.push(node as ts.CallExpression | ts.NewExpression);
      const spec = kind === K.CallExpression ? dynamicImportSpecifier(node as ts.CallExpression) : undefined;
      if (spec) noteSdk(index, eras, spec);
    } else if (isFunctionLike(node)) {
      const name = functionName(node);
      if (name) push(index.functions, name, node);
    } else if (kind === K.VariableDeclaration) {
      noteVariable(index, node as ts.VariableDeclaration);
    } else if (kind === K.PropertyDeclaration || kind === K.Parameter) {
      const decl = node as ts.PropertyDeclaration | ts.ParameterDeclaration;
      if (decl.type && isServerType(decl.type) && decl.name && (ts.isIdentifier(decl.name) || ts.isPrivateIdentifier(decl.name))) index.serverNames.add(decl.name.text);
    } else if (kind === K.BinaryExpression) {
      const bin = node as ts.BinaryExpression;
      if (bin.operatorToken.kind === K.EqualsToken && isNewServer(bin.right)) {
        const chain = memberChain(bin.left);
        index.serverNames.add(chain[chain.length - 1]);
      }
    }
    const outer = parent;
    parent = node;
    forEachChild(node, visit);
    parent = outer;
  };
  forEachChild(sf, visit);

  // A file that imports both eras (mid-migration) is reported by its newer imports.
  index.era = eras.has('v2') ? 'v2' : eras.has('v1') ? 'v1' : 'unknown';
  // keep only calls a site can be: named like a legacy method, an alias of one, or a `new` (URL errors)
  index.candidates = candidates.filter((c) => ts.isNewExpression(c) || isCandidateCallee(c, index));
  return index;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type JSDocHolder = ts.Node & { jsDoc?: ts.JSDoc[] };

/** A node's JSDoc comments and everything in them get their parents, as the compiler's `setParentRecursive` links them. */
function linkJSDocParents(node: JSDocHolder): void {
  const link = (child: ts.Node, parent: ts.Node): void => {
    (child as Mutable<ts.Node>).parent = parent;
    ts.forEachChild(child, (grandchild) => link(grandchild, child));
  };
  for (const doc of node.jsDoc ?? []) link(doc, node);
}

function isServerType(type: ts.TypeNode): boolean {
  if (ts.isTypeReferenceNode(type)) {
    const name = ts.isIdentifier(type.typeName) ? type.typeName.text : type.typeName.right.text;
    return SERVER_CLASS_NAMES.has(name);
  }
  return false;
}

function isNewServer(expr: ts.Expression | undefined): boolean {
  if (!expr) return false;
  const e = unwrap(expr);
  if (!ts.isNewExpression(e)) return false;
  const chain = memberChain(e.expression);
  return SERVER_CLASS_NAMES.has(chain[chain.length - 1]);
}

function noteVariable(index: FileIndex, decl: ts.VariableDeclaration): void {
  noteDynamicImport(index, decl);
  if (ts.isIdentifier(decl.name)) {
    if (isNewServer(decl.initializer) || (decl.type && isServerType(decl.type))) index.serverNames.add(decl.name.text);
    if (decl.initializer) {
      // `const ask = ctx.mcpReq.elicitInput` (optionally `.bind(...)`, or one of several: `a?.elicitInput || b.elicitInput`)
      const read = legacyMethodRead(decl.initializer);
      if (read) index.legacyAliases.set(decl.name.text, read);
      else if (isPlainCall(decl.initializer)) index.callResults.add(decl.name.text);
    }
  } else if (ts.isObjectBindingPattern(decl.name) && decl.initializer) {
    // `const { sendRequest } = extra`, `const { send } = ctx.mcpReq`
    for (const el of decl.name.elements) {
      const prop = propertyNameText(el.propertyName ?? el.name);
      // `const { UrlElicitationRequiredError: NeedsUrl } = require('@modelcontextprotocol/sdk/types.js')`
      const renamed = ts.isIdentifier(el.name) && dynamicImportOf(decl.initializer) ? urlErrorRenaming(prop, el.name.text) : undefined;
      if (renamed) index.urlErrorNames.add(renamed);
      if (prop && LEGACY_NAMES.has(prop) && ts.isIdentifier(el.name)) {
        index.legacyAliases.set(el.name.text, { chain: [...memberChain(decl.initializer), prop], receiver: decl.initializer });
      }
    }
  }
}

/**
 * The legacy method an expression reads, as a value (not called): `x.elicitInput`, `x?.elicitInput`,
 * `x.elicitInput.bind(x)`, through casts, and either side of `||`/`??`/`?:` (`a.elicitInput ||
 * a.server.elicitInput`: the first legacy read stands for the rest).
 */
export function legacyMethodRead(expr: ts.Expression, depth = 0): LegacyAlias | undefined {
  if (depth > 6) return undefined;
  const e = unwrap(expr);
  if (ts.isPropertyAccessExpression(e)) {
    if (LEGACY_NAMES.has(e.name.text)) return { chain: memberChain(e), receiver: e.expression };
    return undefined;
  }
  if (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && e.expression.name.text === 'bind') return legacyMethodRead(e.expression.expression, depth + 1);
  if (ts.isBinaryExpression(e)) {
    const op = e.operatorToken.kind;
    if (op === ts.SyntaxKind.BarBarToken || op === ts.SyntaxKind.QuestionQuestionToken) return legacyMethodRead(e.left, depth + 1) ?? legacyMethodRead(e.right, depth + 1);
    return undefined;
  }
  if (ts.isConditionalExpression(e)) return legacyMethodRead(e.whenTrue, depth + 1) ?? legacyMethodRead(e.whenFalse, depth + 1);
  return undefined;
}

/** `f(…)` / `await f(…)` / `this.f(…)`: a call of a named function whose result may be a method. */
function isPlainCall(expr: ts.Expression): boolean {
  let e = unwrap(expr);
  if (ts.isAwaitExpression(e)) e = unwrap(e.expression);
  if (!ts.isCallExpression(e)) return false;
  const callee = unwrap(e.expression);
  return ts.isIdentifier(callee) ? callee.text !== 'require' : ts.isPropertyAccessExpression(callee) && callee.expression.kind === ts.SyntaxKind.ThisKeyword;
}

/** `Function.prototype.call` / `apply`: `fn.call(thisArg, …args)`, `fn.apply(thisArg, [args])`. */
export const INVOKE_METHODS: ReadonlySet<string> = new Set(['call', 'apply']);

const TEST_PATH = /(^|\/)(__tests__|__test__|tests?|__mocks__)\/|\.(test|spec|e2e-spec)\.[cm]?[jt]sx?$/;

export function isTestPath(rel: string): boolean {
  return TEST_PATH.test(rel);
}

/** Cheap test before any member chain is built: most calls are neither legacy names nor aliases of one. */
function isCandidateCallee(call: ts.CallExpression, index: FileIndex): boolean {
  const head = unwrap(call.expression);
  if (ts.isElementAccessExpression(head)) return true;
  if (ts.isPropertyAccessExpression(head) && INVOKE_METHODS.has(head.name.text)) {
    // `elicitInput.call(server, params)`, `(ask as Fn).apply(owner, [params])`
    const target = unwrap(head.expression);
    if (ts.isPropertyAccessExpression(target)) return LEGACY_NAMES.has(target.name.text);
    return ts.isIdentifier(target) && (index.legacyAliases.has(target.text) || index.callResults.has(target.text));
  }
  const last = ts.isPropertyAccessExpression(head) ? head.name.text : ts.isIdentifier(head) ? head.text : '';
  return LEGACY_NAMES.has(last) || (ts.isIdentifier(head) && (index.legacyAliases.has(last) || index.callResults.has(last)));
}

/**
 * `const { alertsDomain } = await import('./alerts.js')`, `const tools = await import('./tools.js')`,
 * `const { run } = require('./run')`: a module of the repository loaded on demand binds its exports like
 * an import declaration does, so the callers of what it exports are found through it (a domain table
 * loaded lazily by the tools/call handler). Relative specifiers only: a package loaded this way is not
 * a file of the repository.
 */
function noteDynamicImport(index: FileIndex, decl: ts.VariableDeclaration): void {
  if (!decl.initializer || !dynamicImportOf(decl.initializer)) return;
  let init = unwrap(decl.initializer);
  if (ts.isAwaitExpression(init)) init = unwrap(init.expression);
  const spec = dynamicImportSpecifier(init as ts.CallExpression);
  if (!spec || !spec.startsWith('.')) return;
  if (ts.isIdentifier(decl.name)) {
    if (!index.imports.has(decl.name.text)) index.imports.set(decl.name.text, { spec, imported: '*' });
    return;
  }
  if (!ts.isObjectBindingPattern(decl.name)) return;
  for (const el of decl.name.elements) {
    const imported = propertyNameText(el.propertyName ?? el.name);
    if (imported === undefined || el.dotDotDotToken || !ts.isIdentifier(el.name) || index.imports.has(el.name.text)) continue;
    index.imports.set(el.name.text, { spec, imported });
  }
}

/** `require(…)` or `await import(…)` (what a destructuring may take a module's exports from). */
function dynamicImportOf(init: ts.Expression): boolean {
  let e = unwrap(init);
  if (ts.isAwaitExpression(e)) e = unwrap(e.expression);
  return ts.isCallExpression(e) && dynamicImportSpecifier(e) !== undefined;
}

/** `await import('@modelcontextprotocol/server')` and `require(...)`: the specifier, if literal. */
function dynamicImportSpecifier(call: ts.CallExpression): string | undefined {
  const isImport = call.expression.kind === ts.SyntaxKind.ImportKeyword;
  const isRequire = ts.isIdentifier(call.expression) && call.expression.text === 'require';
  if (!isImport && !isRequire) return undefined;
  const arg = call.arguments[0];
  return arg && ts.isStringLiteralLike(arg) ? arg.text : undefined;
}

function collectModuleStatements(index: FileIndex): Set<SdkEra> {
  const eras = new Set<SdkEra>();
  for (const st of index.sf.statements) {
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
      const spec = st.moduleSpecifier.text;
      noteSdk(index, eras, spec);
      const clause = st.importClause;
      if (!clause) continue;
      if (clause.name) index.imports.set(clause.name.text, { spec, imported: 'default' });
      const nb = clause.namedBindings;
      if (nb && ts.isNamespaceImport(nb)) index.imports.set(nb.name.text, { spec, imported: '*' });
      if (nb && ts.isNamedImports(nb)) {
        for (const el of nb.elements) {
          const imported = (el.propertyName ?? el.name).text;
          index.imports.set(el.name.text, { spec, imported });
          const renamed = urlErrorRenaming(imported, el.name.text);
          if (renamed) index.urlErrorNames.add(renamed);
        }
      }
    } else if (ts.isExportDeclaration(st)) {
      const spec = st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier) ? st.moduleSpecifier.text : undefined;
      if (spec) noteSdk(index, eras, spec);
      const clause = st.exportClause;
      if (spec) {
        if (!clause) index.reExports.push({ spec });
        else if (ts.isNamedExports(clause)) {
          const names = new Map<string, string>();
          for (const el of clause.elements) names.set(el.name.text, (el.propertyName ?? el.name).text);
          index.reExports.push({ spec, names });
        } else if (ts.isNamespaceExport(clause)) {
          index.reExports.push({ spec, names: new Map([[clause.name.text, '*']]) });
        }
      } else if (clause && ts.isNamedExports(clause)) {
        for (const el of clause.elements) index.exports.set(el.name.text, (el.propertyName ?? el.name).text);
      }
    } else if (ts.isExportAssignment(st)) {
      const e = unwrap(st.expression);
      if (ts.isIdentifier(e)) index.exports.set('default', e.text);
    } else if (isExported(st)) {
      const isDefault = ts.canHaveModifiers(st) && ts.getModifiers(st)?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
      if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st)) && st.name) {
        index.exports.set(isDefault ? 'default' : st.name.text, st.name.text);
      } else if (ts.isVariableStatement(st)) {
        for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) index.exports.set(d.name.text, d.name.text);
      }
    }
  }
  return eras;
}

function noteSdk(index: FileIndex, eras: Set<SdkEra>, spec: string): void {
  const sdk = eraOfSpecifier(spec);
  if (!sdk) return;
  eras.add(sdk.era);
  index.sides.add(sdk.side);
}

