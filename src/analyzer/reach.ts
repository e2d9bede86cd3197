/**
 * From a site outwards to whatever runs it: walks up to the enclosing function, then to the places
 * that function is registered, called or passed (in this file or in files that import it), until an
 * entry point is found. Each route is a `Route`: the entry, the helper functions crossed, and the
 * reasons collected on the way.
 */
import ts from '../typescript.cjs';
import { enclosingFunction, functionName, memberChain, outerParent, owningClass, propertyNameText, stringValue, unwrap } from './ast.js';
import { classifyAssignment, classifyCallbackArgument, decoratedHandler, frameworkRegistration, isHttpMethodExport, type EntryVerdict } from './entries.js';
import { INVOKE_METHODS, type FileIndex } from './file-index.js';
import { isEraGuarded, isUnderCapabilityCheck } from './guards.js';
import { resolveBinding } from './bindings.js';
import { calledFunction, instanceMethodFunction } from './functions.js';
import { tableCallees } from './table-callees.js';
import { DeadCode } from './dead-code.js';
import type { Project } from './project.js';
import type { ReasonId } from './reasons.js';
import type { RawSite } from './detect.js';
import { requestIsTaskAugmented } from './plan/asks.js';
import { isRuntimeOnce } from './plan/awaited.js';
import { LEGACY_METHODS, type HandlerKind } from '../vocabulary.js';

const LEGACY_NAMES: ReadonlySet<string> = new Set(LEGACY_METHODS.map((m) => m.name));

export interface ViaFunction {
  fn: ts.FunctionLikeDeclaration;
  file: FileIndex;
  name: string;
  /**
   * The call, inside the previous function of the route (the handler for the first step), that
   * invokes this helper; undefined when the edge is not a direct call (a callback passed on).
   */
  call: ts.CallExpression | undefined;
}

/** The registration call a handler is given to: what `port` wraps and names. */
export interface Registration {
  /** `registerTool(…)`, `tool(…)`, `setRequestHandler(…)`, … */
  call: ts.CallExpression;
  /** The argument that is, or leads to, the handler (the last one): a function, a name, a wrapper or factory call. */
  handlerArg: ts.Expression;
  /** The tool/prompt/resource name argument; undefined for `setRequestHandler`. */
  nameArg: ts.Expression | undefined;
  /** The file the registration call is in (not always the handler's). */
  file: FileIndex;
}

export interface HandlerEnd {
  type: 'handler';
  kind: HandlerKind;
  name: string | null;
  nameDynamic: boolean;
  /** The function the port treats as the handler body. */
  fn: ts.FunctionLikeDeclaration;
  file: FileIndex;
  /** Where it is registered; absent when a framework registers it (`framework` then names it). */
  registration?: Registration;
  /** The framework that registers the handler (decorators), when no registration call is visible. */
  framework?: string;
}

/**
 * A route that ends where MRTR cannot answer (or, for `no-handler`, where nothing more was found):
 * `at` is the entry function (or the top-level statement), in `file`.
 */
export interface UnportableEnd {
  type: 'unportable';
  reason: ReasonId;
  at: ts.Node;
  file: FileIndex;
}

export type RouteEnd =
  | HandlerEnd
  | UnportableEnd
  | { type: 'client' };

export interface Route {
  end: RouteEnd;
  /** Helper functions crossed, nearest the handler first. */
  via: ViaFunction[];
  reasons: ReasonId[];
  guarded: boolean;
}

interface Walk {
  /** Helpers crossed so far, nearest the site first. */
  via: ViaFunction[];
  reasons: ReasonId[];
  guarded: boolean;
  /** Functions on this route (cycle guard). */
  seen: Set<ts.Node>;
  /** Table-dispatch key that names the handler (`handlers[name](…)` reaching `handlers.refund`). */
  nameFromTable?: string;
  /** Arguments given to the repo functions a callback was forwarded through, by parameter (to name handlers). */
  paramArgs?: ReadonlyMap<ts.ParameterDeclaration, ts.Expression>;
  /** The call a callback was forwarded in by, per repo function entered: its return flows back there only. */
  returnsTo?: ReadonlyMap<ts.FunctionLikeDeclaration, Ref>;
  /**
   * Where the ask's receiver comes from, while it is a parameter of the function last entered (or a
   * property path in one): a caller that passes nothing there cannot make the ask.
   */
  receiver?: ReceiverSource;
}

/** The ask's receiver is `fn`'s parameter `index`, read through `path` (`opts.mcp` → ['mcp']). */
interface ReceiverSource {
  fn: ts.FunctionLikeDeclaration;
  index: number;
  path: string[];
}

const MAX_DEPTH = 12;
/** The key of a table entry written `[NAME]: …`: matches only reads whose key is not a literal. */
const COMPUTED_KEY = '\u0000computed';
const MAX_ROUTES = 64;
const MAX_VISITS = 2_000;

/** A reference to a named function, found in some file. */
interface Ref {
  file: FileIndex;
  node: ts.Node;
  tableKey?: string;
}

export class Reach {
  private readonly deadCode: DeadCode;

  constructor(private readonly project: Project) {
    this.deadCode = new DeadCode(project);
  }

  /** Functions still to visit for the current site: call graphs can be dense and cyclic. */
  private budget = 0;
  /** The current site is production code: callers in test files do not count for it. */
  private production = true;

  routes(site: RawSite, file: FileIndex): Route[] {
    const out: Route[] = [];
    this.budget = MAX_VISITS;
    this.production = !file.isTest;
    // the shape between the handler and the ask is the plan's to judge (src/analyzer/plan)
    const reasons: ReasonId[] = requestIsTaskAugmented(site) ? ['task-augmented'] : [];
    // a call through `.call`/`.apply`, a positional method or a transport message: not rewritable in place
    if (site.indirect) reasons.unshift('indirect-call');
    const receiver = site.indirect || !ts.isCallExpression(site.call) ? undefined : receiverParameter(site.call);
    this.walk(site.node, file, false, site.call.arguments ?? [], { via: [], reasons, guarded: false, seen: new Set(), receiver }, out);
    return out;
  }

  /** `node` is the ask, or a call into the helper last added to `w.via`. */
  private walk(node: ts.Node, file: FileIndex, isHelperCall: boolean, args: readonly ts.Expression[], w0: Walk, out: Route[]): void {
    if (out.length >= MAX_ROUTES) return;
    // a caller that gives the helper no receiver for the ask (a script calling a service without the
    // server) cannot reach it: no route from there; otherwise follow the receiver into this caller
    const receiver = !w0.receiver ? undefined : isHelperCall ? receiverFromCall(w0.receiver, node, w0.via.at(-1)) : w0.via.length === 0 ? w0.receiver : undefined;
    if (receiver === NO_RECEIVER) return;
    const w: Walk = { ...w0, receiver };
    const guarded = w.guarded || isEraGuarded(node);
    const fn = enclosingFunction(node);
    if (!fn) {
      out.push(this.route({ type: 'unportable', reason: 'lifecycle-hook', at: topLevelStatement(node), file }, { ...w, guarded }));
      return;
    }
    const entry = verdictOf(fn);
    const verdict = entry?.verdict;
    // A handler that only passes a helper's result on (`return refund(args, ctx)`, `handlers[name](…)`)
    // makes that helper the handler: it can return inputRequired(…) itself.
    if (entry && isHelperCall && verdict?.type === 'handler' && returnsDirectly(node, fn)) {
      const handlerFn = w.via[w.via.length - 1];
      const throughParameters = verdict.nameDynamic ? nameThroughParameters(verdict.registration, w) : undefined;
      const name = verdict.name ?? throughParameters ?? siblingName(handlerFn.fn) ?? w.nameFromTable ?? narrowedName(node, fn);
      const end: RouteEnd = {
        type: 'handler',
        kind: verdict.kind,
        name,
        nameDynamic: verdict.nameDynamic && throughParameters === undefined,
        fn: handlerFn.fn,
        file: handlerFn.file,
        registration: registrationOf(verdict, file),
      };
      out.push(this.route(end, this.wrappedIf(entry, { ...w, via: w.via.slice(0, -1), guarded })));
      return;
    }
    const reasons = [...w.reasons];
    if (isUnderCapabilityCheck(node, fn)) reasons.push('capability-fallback');
    const next: Walk = { ...w, reasons, guarded };
    this.fromFunction(fn, file, node, next, out);
  }

  private fromFunction(fn: ts.FunctionLikeDeclaration, file: FileIndex, inner: ts.Node, w: Walk, out: Route[]): void {
    if (w.seen.has(fn) || w.via.length > MAX_DEPTH || this.budget-- <= 0) return;
    const seen = new Set(w.seen).add(fn);
    const entry = verdictOf(fn);
    if (entry) {
      out.push(this.route(this.endOf(entry.verdict, fn, file, inner, w, file), this.wrappedIf(entry, w)));
      return;
    }
    const decorated = decoratedHandler(fn);
    if (decorated) {
      // a framework registers it from the decorator's metadata: no call for the port to wrap
      const end: HandlerEnd = { type: 'handler', kind: decorated.kind, name: decorated.name, nameDynamic: false, fn, file, framework: decorated.framework };
      out.push(this.route(end, w));
      return;
    }
    const holder = outerParent(fn).parent;
    if (holder && ts.isCallExpression(holder) && isRuntimeOnce(holder, outerParent(fn))) {
      // the port's own `once(() => …)` in a ported file: it runs the callback there and then (or replays
      // its value), awaited where `once` is; not a callback the function around it lets go (the plan
      // climbs through it as through an awaited IIFE)
      this.walkOutOf(holder, file, { ...w, seen }, out);
      return;
    }
    if (holder && (ts.isCallExpression(holder) || ts.isNewExpression(holder))) {
      // a callback handed to a repo function (`tool('refund', cfg, async (args) => …)` over a wrapper
      // that registers it): followed to where that function uses its parameter
      const forwarded = ts.isCallExpression(holder) ? this.forwardedInto(holder, outerParent(fn), file, w) : undefined;
      if (forwarded) {
        for (const ref of forwarded.refs) this.fromReference(ref, fn, file, forwarded.name, { ...w, seen, paramArgs: forwarded.paramArgs, returnsTo: forwarded.returnsTo }, out);
        if (forwarded.refs.length > 0) return;
      }
      const index = (holder.arguments ?? []).findIndex((a) => outerParent(a) === outerParent(fn));
      if (this.viaFramework(holder, index, fn, file, w, out)) return;
      // an anonymous callback (array method, promise executor, IIFE, event listener): runs outside the
      // straight-line flow of the function around it
      this.walkOutOf(holder, file, { ...w, seen, reasons: [...w.reasons, 'nested-callback'] }, out);
      return;
    }
    const callbacks = objectArgumentOf(fn);
    if (callbacks && !isObjectAssignSource(callbacks.call, callbacks.index)) {
      // a member of an object of callbacks handed to a call (`registerToolTask(name, cfg, { createTask() {…} })`)
      const v = classifyCallbackArgument(callbacks.call, callbacks.index);
      if (v && v.type !== 'handler') {
        out.push(this.route(this.endOf(v, fn, file, inner, w, file), w));
        return;
      }
      if (!v && this.viaFramework(callbacks.call, callbacks.index, fn, file, w, out)) return;
      // an object handed to a repo function (`defineTool({ name, handler })`): its member is called by
      // name where the object ends up
      const name = functionName(fn);
      if (!v && name && ts.isCallExpression(callbacks.call) && calledFunction(callbacks.call.expression, file, this.project)) {
        const before = out.length;
        for (const ref of this.references(fn, file, name)) this.fromReference(ref, fn, file, name, { ...w, seen }, out);
        if (out.length > before) return;
      }
      this.walkOutOf(callbacks.call, file, { ...w, seen, reasons: [...w.reasons, 'nested-callback'] }, out);
      return;
    }
    const mapped = this.mapReferences(fn, file);
    if (mapped.length > 0) {
      // an anonymous handler stored in a Map under a tool name
      for (const mref of mapped) this.fromReference(mref, fn, file, mref.tableKey ?? 'handler', { ...w, seen }, out);
      return;
    }
    const maker = makerOf(fn);
    if (maker) {
      // `registerTool(n, cfg, makeHandler(deps))` where makeHandler returns this function
      const before = out.length;
      const makerName = functionName(maker);
      for (const ref of makerName ? this.references(maker, file, makerName) : []) {
        if (this.production && ref.file.isTest) continue;
        const r = outerParent(ref.node);
        const call = r.parent;
        if (!call || !ts.isCallExpression(call) || outerParent(call.expression) !== r) continue;
        const entry = entryForArgument(call);
        if (entry) {
          out.push(this.route(this.endOf(entry.verdict, fn, file, inner, w, ref.file), this.wrappedIf(entry, w)));
          continue;
        }
        // where the function it made goes: a composable (`const ask = useElicitation(ctx); await ask(…)`),
        // a field or `let` that keeps it (`this.complete = completerFrom(server)` in a constructor, called
        // as `this.complete(…)` by a method), the return of a further factory
        const holder = outerParent(call).parent;
        const kept = holder && ts.isVariableDeclaration(holder) && ts.isIdentifier(holder.name)
          ? holder.name.text
          : (holder && ts.isBinaryExpression(holder) && memberChain(holder.left).at(-1)) || makerName!;
        for (const vref of this.valueFlow(call, ref.file, w.returnsTo)) this.fromReference(vref, fn, file, kept, { ...w, seen }, out);
      }
      if (out.length === before) out.push(this.route({ type: 'unportable', reason: 'no-handler', at: maker, file }, w));
      return;
    }
    const keptBy = keepingAssignment(fn);
    if (keptBy) {
      // a function kept where it is written (`this.complete = async (p) => …` in a constructor, a module
      // `let`): followed to the calls of what keeps it (`this.complete(…)` in a method)
      const before = out.length;
      const keptName = memberChain(keptBy.left).at(-1) ?? 'callback';
      for (const ref of this.storedValueUses(keptBy.left, file)) this.fromReference(ref, fn, file, keptName, { ...w, seen }, out);
      if (out.length > before) return;
    }
    const name = functionName(fn);
    if (isHttpMethodExport(name, [...file.exports.values()].includes(name ?? ''))) {
      out.push(this.route({ type: 'unportable', reason: 'http-route', at: fn, file }, w));
      return;
    }
    // a repo function a callback was forwarded into runs for the call that passed it, not for every caller
    const entered = w.returnsTo?.get(fn);
    const enteredBy = entered && ts.isCallExpression(entered.node) ? unwrap(entered.node.expression) : undefined;
    const refs = enteredBy && (ts.isIdentifier(enteredBy) || ts.isPropertyAccessExpression(enteredBy))
      ? [{ file: entered!.file, node: enteredBy as ts.Node }]
      : name ? this.references(fn, file, name) : [];
    const before = out.length;
    for (const ref of refs) this.fromReference(ref, fn, file, name!, { ...w, seen }, out);
    // the uses next to the module led nowhere (`[key, def.handler]` copied into another table): the member's uses elsewhere
    if (out.length === before && refs.length > 0 && name) {
      for (const ref of this.memberUsesElsewhere(fn, file, name)) this.fromReference(ref, fn, file, name, { ...w, seen }, out);
    }
    if (out.length > before) {
      // a package's public API that only the module's own internals call (a notification handler it
      // registers): its users' tools may call it too. Callers elsewhere in the repository (examples,
      // other modules) show how it is used, and stand.
      const internal = out.slice(before).every((r) => r.end.type === 'unportable' && r.end.file === file);
      if (internal && this.deadCode.isPublicApi(fn, file)) out.push(this.route({ type: 'unportable', reason: 'no-handler', at: fn, file }, w));
      return;
    }
    // nothing found: dead code only when nothing outside tests can name it (see dead-code.ts)
    const uncalled = refs.every((ref) => this.production && ref.file.isTest) && this.deadCode.isDead(fn, file);
    out.push(this.route({ type: 'unportable', reason: uncalled ? 'dead-code' : 'no-handler', at: fn, file }, w));
  }

  /** `x.m(…)` where `x` is bound to `new C(…)` and `C` is a class of the analyzed files (declared here or imported). */
  private handedToOwnObject(call: ts.Node, file: FileIndex): boolean {
    if (!ts.isCallExpression(call)) return false;
    const callee = unwrap(call.expression);
    if (!ts.isPropertyAccessExpression(callee)) return false;
    const receiver = unwrap(callee.expression);
    if (!ts.isIdentifier(receiver)) return false;
    const b = resolveBinding(receiver, receiver.text);
    const made = b && ts.isVariableDeclaration(b) && b.initializer ? unwrap(b.initializer) : undefined;
    if (!made || !ts.isNewExpression(made) || !ts.isIdentifier(made.expression)) return false;
    const cls = resolveBinding(made.expression, made.expression.text);
    if (!cls) return false;
    if (ts.isClassDeclaration(cls)) return true;
    if (!ts.isImportSpecifier(cls) && !ts.isImportClause(cls)) return false;
    const spec = ts.isImportSpecifier(cls) ? cls.parent.parent.parent.moduleSpecifier : cls.parent.moduleSpecifier;
    if (!ts.isStringLiteral(spec)) return false;
    const target = this.project.resolveImport(file, spec.text, ts.isImportSpecifier(cls) ? (cls.propertyName ?? cls.name).text : 'default');
    return !!target && !('namespace' in target);
  }

  /** A callback given to another library's tool/prompt/resource registration: a handler that library registers. */
  private viaFramework(call: ts.CallExpression | ts.NewExpression, index: number, fn: ts.FunctionLikeDeclaration, file: FileIndex, w: Walk, out: Route[]): boolean {
    if (!ts.isCallExpression(call) || index < 0 || classifyCallbackArgument(call, index) || calledFunction(call.expression, file, this.project)) return false;
    const registered = frameworkRegistration(call, index);
    if (!registered) return false;
    out.push(this.route({ type: 'handler', kind: registered.kind, name: registered.name, nameDynamic: false, fn, file, framework: registered.framework }, w));
    return true;
  }

  /** Continue from a call that received a callback; shape checks stop here (already manual). */
  private walkOutOf(call: ts.Node, file: FileIndex, w: Walk, out: Route[]): void {
    const guarded = w.guarded || isEraGuarded(call);
    const fn = enclosingFunction(call);
    if (!fn) {
      // handed, at start-up, to an object the repository makes from its own class (`client.setLoginPrompt(prompt)`):
      // that object keeps it and decides when it runs (a tool's request may): not seen, so not start-up
      const reason: ReasonId = this.handedToOwnObject(call, file) ? 'no-handler' : 'lifecycle-hook';
      out.push(this.route({ type: 'unportable', reason, at: topLevelStatement(call), file }, { ...w, guarded }));
      return;
    }
    this.fromFunction(fn, file, call, { ...w, guarded }, out);
  }

  private fromReference(ref: Ref, fn: ts.FunctionLikeDeclaration, fnFile: FileIndex, name: string, w: Walk, out: Route[]): void {
    if (this.production && ref.file.isTest) return;
    let r = outerParent(ref.node);
    // `this.handle.bind(this)` stands for the method
    if (r.parent && ts.isPropertyAccessExpression(r.parent) && r.parent.name.text === 'bind' && r.parent.parent && ts.isCallExpression(r.parent.parent)) {
      r = outerParent(r.parent.parent);
    }
    // `helper.call(thisArg, …)` / `helper.apply(thisArg, [ … ])` calls the helper like `helper(…)`
    const invoked = r.parent && ts.isPropertyAccessExpression(r.parent) && INVOKE_METHODS.has(r.parent.name.text) && r.parent.expression === r ? outerParent(r.parent).parent : undefined;
    if (invoked && ts.isCallExpression(invoked) && outerParent(invoked.expression) === outerParent(r.parent!)) {
      this.walk(invoked, ref.file, true, invoked.arguments, { ...w, via: [...w.via, { fn, file: fnFile, name, call: invoked }], nameFromTable: ref.tableKey ?? w.nameFromTable }, out);
      return;
    }
    const p = r.parent;
    if (!p) return;
    if (ts.isNewExpression(p) && unwrap(p.expression) === unwrap(r as ts.Expression)) {
      // `new C(…)` runs C's constructor on the spot; never a handler's result passed on (no call for the plan to follow)
      this.walk(p, ref.file, false, p.arguments ?? [], { ...w, via: [...w.via, { fn, file: fnFile, name, call: undefined }], nameFromTable: ref.tableKey ?? w.nameFromTable }, out);
      return;
    }
    if (ts.isCallExpression(p) && unwrap(p.expression) === unwrap(r as ts.Expression)) {
      const helper: ViaFunction = { fn, file: fnFile, name, call: p };
      this.walk(p, ref.file, true, p.arguments, { ...w, via: [...w.via, helper], nameFromTable: ref.tableKey ?? w.nameFromTable }, out);
      return;
    }
    const helper: ViaFunction = { fn, file: fnFile, name, call: undefined };
    if (ts.isCallExpression(p) && p.arguments.some((a) => outerParent(a) === r)) {
      const entry = entryForArgument(r);
      if (entry) {
        out.push(this.route(this.endOf(entry.verdict, fn, fnFile, fn, w, ref.file), this.wrappedIf(entry, w)));
        return;
      }
      // `wrap(cb)(args)`: the wrapped function is called on the spot
      const applied = outerParent(p).parent;
      if (applied && ts.isCallExpression(applied) && outerParent(applied.expression) === outerParent(p)) {
        this.walk(applied, ref.file, true, applied.arguments, { ...w, via: [...w.via, { ...helper, call: applied }] }, out);
        return;
      }
      const forwarded = this.forwardedInto(p, r, ref.file, w);
      if (forwarded && forwarded.refs.length > 0) {
        for (const fref of forwarded.refs) this.fromReference(fref, fn, fnFile, name, { ...w, paramArgs: forwarded.paramArgs, returnsTo: forwarded.returnsTo }, out);
        return;
      }
      this.walkOutOf(p, ref.file, { ...w, via: [...w.via, helper], reasons: [...w.reasons, 'nested-callback'] }, out);
      return;
    }
    const assigned = classifyAssignment(r);
    if (assigned) {
      out.push(this.route(this.endOf(assigned, fn, fnFile, fn, w, ref.file), w));
      return;
    }
    if (ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) {
      // a function stored in a table: `{ refund: refundHandler }`
      const key = propertyNameText(p.name);
      if (key && ts.isObjectLiteralExpression(p.parent)) {
        const trefs = this.tableReferences(p.parent, ref.file, key);
        // none where the table goes (an entry of an exported array, `[{ name, handler: fn }]`): the
        // entry's member calls elsewhere (`tool.handler(args)` after `allTools.find(…)`), as for a function written in the entry
        const elsewhere = trefs.length > 0 || LEGACY_NAMES.has(key) ? [] : this.objectMemberUsesElsewhere(p.parent, ref.file, key, true);
        for (const tref of trefs.length > 0 ? trefs : elsewhere) this.fromReference(tref, fn, fnFile, name, w, out);
      }
      return;
    }
    // a function stored in a Map: `new Map([['refund', refundHandler]])`
    const mapped = this.mapReferences(r, ref.file);
    for (const mref of mapped) this.fromReference(mref, fn, fnFile, name, w, out);
    if (mapped.length > 0 || this.budget-- <= 0) return;
    // held in a const, or returned by a function: followed to where that value is used
    for (const vref of this.valueFlow(r, ref.file, w.returnsTo)) this.fromReference(vref, fn, fnFile, name, { ...w, nameFromTable: w.nameFromTable ?? ref.tableKey }, out);
  }

  /**
   * Where a value goes when it is neither called nor registered on the spot: the uses of the const
   * holding it (`const handler = tools[name]`), the calls of a named function returning it
   * (`getToolHandler(name)`), through `??`, `||` and conditionals around it.
   */
  private valueFlow(value: ts.Node, file: FileIndex, returnsTo?: Walk['returnsTo']): Ref[] {
    let v = outerParent(value);
    for (let p = v.parent; p; p = v.parent) {
      if (ts.isConditionalExpression(p) && p.condition !== v) v = outerParent(p);
      else if (ts.isBinaryExpression(p) && isPassingOperator(p.operatorToken.kind)) v = outerParent(p);
      else if (ts.isAwaitExpression(p)) v = outerParent(p);
      else break;
    }
    const p = v.parent;
    if (!p) return [];
    if (ts.isVariableDeclaration(p) && p.initializer && outerParent(p.initializer) === v && ts.isIdentifier(p.name)) {
      const local = p.name.text;
      return (file.identRefs.get(local) ?? []).filter((id) => resolveBinding(id, local) === p).map((node) => ({ file, node }));
    }
    if (ts.isBinaryExpression(p) && p.operatorToken.kind === ts.SyntaxKind.EqualsToken && outerParent(p.right) === v) return this.storedValueUses(p.left, file);
    const returning = ts.isReturnStatement(p) ? enclosingFunction(p) : ts.isArrowFunction(p) && p.body === v ? p : undefined;
    // a repo function the value was forwarded into returns it to the call that passed it, not to every caller
    const back = returning ? returnsTo?.get(returning) : undefined;
    if (back) return [back];
    const returnedName = returning ? functionName(returning) : undefined;
    if (!returning || !returnedName) return [];
    const calls: Ref[] = [];
    for (const ref of this.references(returning, file, returnedName)) {
      if (this.production && ref.file.isTest) continue;
      const call = outerParent(ref.node).parent;
      if (call && ts.isCallExpression(call) && outerParent(call.expression) === outerParent(ref.node)) calls.push({ file: ref.file, node: call });
    }
    return calls;
  }

  /**
   * A value stored by an assignment (`sampler = fn` into a module `let`, `this.ask = ask` into a field):
   * the reads of that variable (in its file, and where it is imported) or of that field (`this.ask`
   * in the same class), the assignments' own targets left out. A setter that keeps the callback it is
   * handed (`registerSamplingCallback(cb)`) is followed to where the stored callback is called.
   */
  private storedValueUses(target: ts.Expression, file: FileIndex): Ref[] {
    const t = unwrap(target);
    const assignedTo = (n: ts.Node): boolean => {
      const o = outerParent(n);
      return !!o.parent && ts.isBinaryExpression(o.parent) && o.parent.operatorToken.kind === ts.SyntaxKind.EqualsToken && outerParent(o.parent.left) === o;
    };
    if (ts.isIdentifier(t)) {
      const decl = resolveBinding(t, t.text);
      if (!decl || !ts.isVariableDeclaration(decl) || decl.parent.flags & ts.NodeFlags.Const) return [];
      const own = (file.identRefs.get(t.text) ?? []).filter((id) => id !== t && !assignedTo(id) && resolveBinding(id, t.text) === decl).map((node): Ref => ({ file, node }));
      const exported = ts.isSourceFile(decl.parent.parent.parent) && [...file.exports.values()].includes(t.text);
      return exported ? [...own, ...this.importedUses(file, t.text)] : own;
    }
    if (ts.isPropertyAccessExpression(t) && t.expression.kind === ts.SyntaxKind.ThisKeyword) {
      const cls = thisClass(t);
      if (!cls) return [];
      return (file.propRefs.get(t.name.text) ?? [])
        .filter((pa) => pa !== t && pa.expression.kind === ts.SyntaxKind.ThisKeyword && thisClass(pa) === cls && !assignedTo(pa))
        .map((node): Ref => ({ file, node }));
    }
    return [];
  }

  /**
   * A function passed as an argument of a call to a repo function: the uses of the parameter it
   * lands in, inside that function (where it is registered, called, or passed further on).
   */
  private forwardedInto(call: ts.CallExpression, arg: ts.Node, file: FileIndex, w: Walk): { refs: Ref[]; name: string; paramArgs: Map<ts.ParameterDeclaration, ts.Expression>; returnsTo: Map<ts.FunctionLikeDeclaration, Ref> } | undefined {
    const index = call.arguments.findIndex((a) => outerParent(a) === outerParent(arg));
    if (index < 0 || entryForArgument(arg)) return undefined;
    // the function called by name, a method of a class instance held in a const (`reviewer.setAsker(fn)`),
    // or, through a keyed table (`toolHandler.handler(args, ask)`), each function the table holds
    const called = calledFunction(call.expression, file, this.project) ?? instanceMethodFunction(call.expression, file, this.project);
    const targets = called ? [called] : tableCallees(call.expression, file, this.project);
    const paramArgs = new Map(w.paramArgs);
    const returnsTo = new Map(w.returnsTo);
    const refs: Ref[] = [];
    let name: string | undefined;
    for (const target of targets) {
      const params = target.fn.parameters;
      const rest = params.findIndex((p) => p.dotDotDotToken);
      const param = rest >= 0 && index >= rest ? params[rest] : params[index];
      if (!param || !ts.isIdentifier(param.name)) continue;
      params.forEach((p, i) => {
        if (call.arguments[i] && !p.dotDotDotToken) paramArgs.set(p, call.arguments[i]);
      });
      const paramName = param.name.text;
      name ??= paramName;
      const uses = (target.file.identRefs.get(paramName) ?? []).filter((id) => isInside(id, target.fn) && resolveBinding(id, paramName) === param);
      // an argument gathered into a rest parameter is used where that element is taken out of it
      const nodes = param.dotDotDotToken ? uses.flatMap((id) => restElementRead(id, index - rest, index === call.arguments.length - 1) ?? []) : uses;
      returnsTo.set(target.fn, { file, node: call });
      refs.push(...nodes.map((node) => ({ file: target.file, node })));
    }
    return name === undefined ? undefined : { refs, name, paramArgs, returnsTo };
  }

  /** `M.get(key)` uses of a `const M = new Map([[key, value], …])` holding `value` under a literal key. */
  private mapReferences(value: ts.Node, file: FileIndex): Ref[] {
    const entry = outerParent(value).parent;
    if (!entry || !ts.isArrayLiteralExpression(entry) || entry.elements.length !== 2 || outerParent(entry.elements[1]) !== outerParent(value)) return [];
    const key = stringValue(entry.elements[0]);
    const list = entry.parent;
    const created = list && ts.isArrayLiteralExpression(list) ? outerParent(list).parent : undefined;
    if (key === undefined || !created || !ts.isNewExpression(created) || memberChain(created.expression).at(-1) !== 'Map') return [];
    const decl = outerParent(created).parent;
    if (!decl || !ts.isVariableDeclaration(decl) || !ts.isIdentifier(decl.name)) return [];
    const refs: Ref[] = [];
    for (const id of file.identRefs.get(decl.name.text) ?? []) {
      const get = outerParent(id).parent;
      const call = get?.parent;
      if (!get || !ts.isPropertyAccessExpression(get) || get.name.text !== 'get' || !call || !ts.isCallExpression(call) || call.expression !== get) continue;
      const lit = stringValue(call.arguments[0]);
      if (lit === undefined || lit === key) refs.push({ file, node: call, tableKey: key });
    }
    return refs;
  }

  /** `regFile`: the file of the call that classified the entry (the registration, for handlers). */
  private endOf(verdict: EntryVerdict, fn: ts.FunctionLikeDeclaration, file: FileIndex, inner: ts.Node, w: Walk, regFile: FileIndex): RouteEnd {
    switch (verdict.type) {
      case 'handler': {
        // `registerTool(def.name, def.config, def.handler)` over `{ name: 'refund', handler: async … }`
        const sibling = verdict.nameDynamic ? (siblingName(fn) ?? nameThroughParameters(verdict.registration, w)) : undefined;
        return {
          type: 'handler',
          kind: verdict.kind,
          name: verdict.name ?? sibling ?? w.nameFromTable ?? (verdict.lowLevel ? narrowedName(inner, fn) : null),
          nameDynamic: verdict.nameDynamic && sibling === undefined,
          fn,
          file,
          registration: registrationOf(verdict, regFile),
        };
      }
      case 'factory':
        return { type: 'unportable', reason: 'lifecycle-hook', at: fn, file };
      case 'client':
        return { type: 'client' };
      case 'unportable':
        return { type: 'unportable', reason: verdict.reason, at: fn, file };
    }
  }

  private wrappedIf(entry: Entry, w: Walk): Walk {
    return entry.wrapped ? { ...w, reasons: [...w.reasons, 'wrapped-handler'] } : w;
  }

  private route(end: RouteEnd, w: Walk): Route {
    return { end, via: [...w.via].reverse(), reasons: w.reasons, guarded: w.guarded };
  }

  /** Every place a named function is referenced: its own file, and files importing it. */
  private references(fn: ts.FunctionLikeDeclaration, file: FileIndex, name: string): Ref[] {
    if (ts.isConstructorDeclaration(fn)) return this.constructions(fn.parent, file);
    const refs: Ref[] = [];
    const cls = owningClass(fn);
    const holder = outerParent(fn).parent;
    const inObject = holder && ts.isPropertyAssignment(holder) && ts.isObjectLiteralExpression(holder.parent) ? holder.parent : ts.isMethodDeclaration(fn) && ts.isObjectLiteralExpression(fn.parent) ? fn.parent : undefined;

    if (cls || inObject) {
      // members are called as `x.name(...)`: any receiver in this file or in files importing it
      const seeing = this.filesSeeing(file);
      const siblings = inObject ? siblingKeys(inObject) : undefined;
      for (const f of seeing) {
        for (const pa of f.propRefs.get(name) ?? []) if (!isInside(pa, fn) && !(siblings && readsSibling(pa, siblings)) && !isSiteCallee(pa, f)) refs.push({ file: f, node: pa });
      }
      if (inObject) {
        refs.push(...this.tableReferences(inObject, file, name));
        // destructured off the object where it is used: `const { sender } = sessions[id]; sender(p)`
        for (const f of seeing) {
          for (const id of f.identRefs.get(name) ?? []) {
            const b = resolveBinding(id, name);
            if (b && ts.isBindingElement(b) && ts.isObjectBindingPattern(b.parent) && propertyNameText(b.propertyName ?? b.name) === name && !isInside(id, fn)) refs.push({ file: f, node: id });
          }
        }
      }
      if (refs.length === 0) refs.push(...this.memberUsesElsewhere(fn, file, name));
      return refs;
    }
    // references inside the function itself are recursion: they lead nowhere new
    for (const id of file.identRefs.get(name) ?? []) if (!isInside(id, fn)) refs.push({ file, node: id });
    if (![...file.exports.values()].includes(name)) return refs;
    return [...refs, ...this.importedUses(file, name)];
  }

  /**
   * A constructor runs where its class is instantiated: the `new C(…)` expressions of the class's
   * name, in its file and in the files importing it (a constructor that sets up listeners or timers
   * is reached from wherever the instance is made, not dead because nothing names `constructor`).
   */
  private constructions(cls: ts.ClassLikeDeclaration, file: FileIndex): Ref[] {
    const name = cls.name?.text;
    if (!name) return [];
    const own = (file.identRefs.get(name) ?? []).filter((id) => !isInside(id, cls)).map((id): Ref => ({ file, node: id }));
    const imported = [...file.exports.values()].includes(name) ? this.importedUses(file, name) : [];
    return [...own, ...imported].filter((ref) => isConstructed(ref.node));
  }

  /** The uses of `file`'s export `name` in the files importing it: `name` under its local name, or `ns.name`. */
  private importedUses(file: FileIndex, name: string): Ref[] {
    const refs: Ref[] = [];
    for (const imp of this.project.importersOf(file)) {
      if ('namespace' in imp) {
        for (const pa of imp.from.propRefs.get(name) ?? []) {
          const recv = unwrap(pa.expression);
          if (ts.isIdentifier(recv) && recv.text === imp.local) refs.push({ file: imp.from, node: pa });
        }
      } else if (imp.name === name) {
        for (const id of imp.from.identRefs.get(imp.local) ?? []) refs.push({ file: imp.from, node: id });
      }
    }
    return refs;
  }

  /**
   * Objects and instances travel through factories, parameters and arrays to modules that never
   * import their own (`tool.handler(args, ctx)` in a generic registry, a helper instance handed to
   * tool modules): the member's calls in the parsed files that cannot see its module (by name only:
   * a hand-over `registerTool(n, cfg, def.handler)` would name every table's `handler`). Not for a class member named like a
   * legacy method (`McpAgent.elicitInput`): calls of that name elsewhere are sites of their own.
   */
  private memberUsesElsewhere(fn: ts.FunctionLikeDeclaration, file: FileIndex, name: string): Ref[] {
    const holder = outerParent(fn).parent;
    const inObject = holder && ts.isPropertyAssignment(holder) && ts.isObjectLiteralExpression(holder.parent) ? holder.parent : ts.isMethodDeclaration(fn) && ts.isObjectLiteralExpression(fn.parent) ? fn.parent : undefined;
    if (!inObject && (!owningClass(fn) || LEGACY_NAMES.has(name))) return [];
    return this.objectMemberUsesElsewhere(inObject, file, name);
  }

  /**
   * The calls `x.name(…)` (or hand-overs to a repo function) of the member `name` of `inObject` (a
   * class's when undefined) in the parsed files that cannot see `file` (those the member's own
   * references cover), or in every parsed file (`everywhere`: for a named function held as an entry's value).
   */
  private objectMemberUsesElsewhere(inObject: ts.ObjectLiteralExpression | undefined, file: FileIndex, name: string, everywhere = false): Ref[] {
    const seeing = everywhere ? [] : this.filesSeeing(file);
    const siblings = inObject ? siblingKeys(inObject) : undefined;
    const refs: Ref[] = [];
    for (const f of this.project.parsed()) {
      if (seeing.includes(f)) continue;
      for (const pa of f.propRefs.get(name) ?? []) {
        if ((isCallee(pa) || this.handedToRepoFunction(pa, f)) && !(siblings && readsSibling(pa, siblings))) refs.push({ file: f, node: pa });
      }
    }
    return refs;
  }

  /**
   * `confirm(ctx.ask, msg)` where `confirm` is a repo function: the method travels as a value into a
   * parameter that is called there (followed by forwardedInto). A library's call (`registerTool(n, cfg,
   * def.handler)`) is not one: that would name every table's member of the same name.
   */
  private handedToRepoFunction(pa: ts.PropertyAccessExpression, file: FileIndex): boolean {
    const outer = outerParent(pa);
    const call = outer.parent;
    if (!call || !ts.isCallExpression(call) || !call.arguments.some((a) => outerParent(a) === outer)) return false;
    return calledFunction(call.expression, file, this.project) !== undefined;
  }

  /**
   * `table[expr]` reads of an object literal's value, wherever the value goes: the const holding it,
   * the target it is merged into (`Object.assign(registry, { … })`), the callers of a function
   * returning it (`const tools = createToolRegistry()`). (`table.key` reads are member references.)
   */
  private tableReferences(obj: ts.ObjectLiteralExpression, file: FileIndex, key: string): Ref[] {
    const refs: Ref[] = [];
    const seen = new Set<ts.Node>();
    const visit = (value: ts.Node, f: FileIndex, entryKey?: string): void => {
      if (seen.has(value) || seen.size > MAX_TABLE_FLOW) return;
      seen.add(value);
      const r = outerParent(value);
      const access = r.parent;
      if (access && ts.isElementAccessExpression(access) && outerParent(access.expression) === r) {
        const lit = stringValue(access.argumentExpression);
        if (lit === undefined || lit === key) refs.push({ file: f, node: access, tableKey: key });
        return;
      }
      // `helper.elicit` read off the value (a factory's returned object of functions)
      if (access && ts.isPropertyAccessExpression(access) && outerParent(access.expression) === r) {
        if (access.name.text === key) refs.push({ file: f, node: access, ...(entryKey !== undefined ? { tableKey: entryKey } : {}) });
        return;
      }
      // an entry of an outer table (`{ confirm: { handler: fn } }`): its reads (`const entry =
      // handlers[name]`) are where this object goes, and the outer key names the tool
      if (access && ts.isPropertyAssignment(access) && access.initializer === r && ts.isObjectLiteralExpression(access.parent)) {
        const outerKey = propertyNameText(access.name);
        for (const read of this.tableReferences(access.parent, f, outerKey ?? COMPUTED_KEY)) visit(read.node, read.file, outerKey);
        return;
      }
      for (const next of this.valueFlow(r, f)) visit(next.node, next.file, entryKey);
    };
    const target = objectAssignTarget(obj);
    if (!target) {
      visit(obj, file);
      // an exported table is read in the files importing it (`import { handlers } from './table.js'`)
      const decl = outerParent(obj).parent;
      const exported = decl && ts.isVariableDeclaration(decl) && ts.isIdentifier(decl.name) && [...file.exports.values()].includes(decl.name.text) ? decl.name.text : undefined;
      for (const use of exported ? this.importedUses(file, exported) : []) visit(use.node, use.file);
      return refs;
    }
    const binding = resolveBinding(target, target.text);
    for (const id of binding ? (file.identRefs.get(target.text) ?? []) : []) {
      if (id !== target && resolveBinding(id, target.text) === binding) visit(id, file);
    }
    return refs;
  }

  /** This file and every parsed file that imports from it. */
  private filesSeeing(file: FileIndex): FileIndex[] {
    return [...new Set([file, ...this.project.importersOf(file).map((i) => i.from)])];
  }
}

interface Entry {
  verdict: EntryVerdict;
  /** Registered through a wrapper call (`registerTool(name, cfg, withAuth(fn))`). */
  wrapped: boolean;
}

/** The entry verdict for a function by where it is written (callback argument or assignment). */
function verdictOf(fn: ts.FunctionLikeDeclaration): Entry | undefined {
  const arg = entryForArgument(fn);
  if (arg) return arg;
  const assigned = classifyAssignment(fn);
  return assigned ? { verdict: assigned, wrapped: false } : undefined;
}

/**
 * The entry an expression is handed to as a call argument: directly, or through up to two wrapper
 * calls that are themselves arguments of a registration (`registerTool(n, cfg, withAuth(fn))`).
 */
function entryForArgument(expr: ts.Node): Entry | undefined {
  let outer = outerParent(expr);
  for (let depth = 0; depth < 3; depth++) {
    const p = outer.parent;
    if (!p || !ts.isCallExpression(p)) return undefined;
    const i = p.arguments.findIndex((a) => outerParent(a) === outer);
    if (i < 0) return undefined;
    const verdict = classifyCallbackArgument(p, i);
    if (verdict) return depth === 0 ? { verdict, wrapped: false } : verdict.type === 'handler' ? { verdict, wrapped: true } : undefined;
    outer = outerParent(p);
  }
  return undefined;
}

/** The registration an eligible-handler verdict came from, with the arguments `port` edits. */
function registrationOf(verdict: Extract<EntryVerdict, { type: 'handler' }>, file: FileIndex): Registration {
  const call = verdict.registration;
  return {
    call,
    handlerArg: call.arguments[call.arguments.length - 1],
    nameArg: verdict.lowLevel ? undefined : call.arguments[0],
    file,
  };
}

/** The statement directly in the source file that holds `node` (module top-level code). */
function topLevelStatement(node: ts.Node): ts.Node {
  let n = node;
  while (n.parent && !ts.isSourceFile(n.parent)) n = n.parent;
  return n;
}

/**
 * A registration whose name argument is a parameter of a wrapper the handler was forwarded through
 * (`const tool = (name, …, cb) => server.registerTool(name, …)` called as `tool('refund', …)`): the
 * literal the wrapper was called with.
 */
function nameThroughParameters(registration: ts.CallExpression, w: Walk): string | undefined {
  const nameArg = registration.arguments[0] ? unwrap(registration.arguments[0]) : undefined;
  if (!nameArg || !ts.isIdentifier(nameArg) || !w.paramArgs) return undefined;
  const b = resolveBinding(nameArg, nameArg.text);
  const given = b && ts.isParameter(b) ? w.paramArgs.get(b) : undefined;
  return given ? stringValue(given) : undefined;
}

/** `??`, `||`, `&&`: the result may be either operand, so a value passes through them. */
/** The class whose `this` a `this.x` read means: that of the nearest non-arrow function around it. */
function thisClass(node: ts.Node): ts.ClassLikeDeclaration | undefined {
  let scope = enclosingFunction(node);
  while (scope && ts.isArrowFunction(scope)) scope = enclosingFunction(scope);
  return scope ? owningClass(scope) : undefined;
}

function isPassingOperator(kind: ts.SyntaxKind): boolean {
  return kind === ts.SyntaxKind.QuestionQuestionToken || kind === ts.SyntaxKind.BarBarToken || kind === ts.SyntaxKind.AmpersandAmpersandToken;
}
/** Places one table's value is followed through (consts, merges, returns) before giving up. */
const MAX_TABLE_FLOW = 64;

/** `Object.assign(target, …sources)`: is argument `index` one of the sources? */
function isObjectAssignSource(call: ts.CallExpression | ts.NewExpression, index: number): boolean {
  return index >= 1 && ts.isCallExpression(call) && memberChain(call.expression).join('.') === 'Object.assign';
}

/** The identifier an object literal is merged into with `Object.assign(target, obj)`. */
function objectAssignTarget(obj: ts.ObjectLiteralExpression): ts.Identifier | undefined {
  const arg = outerParent(obj);
  const call = arg.parent;
  if (!call || !ts.isCallExpression(call)) return undefined;
  const index = call.arguments.findIndex((a) => outerParent(a) === arg);
  if (!isObjectAssignSource(call, index)) return undefined;
  const target = unwrap(call.arguments[0]);
  return ts.isIdentifier(target) ? target : undefined;
}

/**
 * For an object literal that is itself a value in a keyed table (`{ help: { handler }, explain: { handler } }`):
 * its own key, and the other keys of that table.
 */
function siblingKeys(obj: ts.ObjectLiteralExpression): { own: string; others: Set<string> } | undefined {
  const holder = outerParent(obj).parent;
  if (!holder || !ts.isPropertyAssignment(holder) || !ts.isObjectLiteralExpression(holder.parent)) return undefined;
  const own = propertyNameText(holder.name);
  if (own === undefined) return undefined;
  const others = new Set<string>();
  for (const p of holder.parent.properties) {
    const k = p.name ? propertyNameText(p.name) : undefined;
    if (k !== undefined && k !== own) others.add(k);
  }
  return { own, others };
}

/** `tools.help.handler` read for the `explain` entry's `handler`: another entry of the same table. */
function readsSibling(access: ts.PropertyAccessExpression, keys: { own: string; others: Set<string> }): boolean {
  const obj = unwrap(access.expression);
  const key = ts.isPropertyAccessExpression(obj) ? obj.name.text : ts.isElementAccessExpression(obj) ? stringValue(obj.argumentExpression) : undefined;
  return key !== undefined && keys.others.has(key);
}

/** Is `node` the callee of a call (`x.handler(…)`)? */
function isCallee(node: ts.Node): boolean {
  const outer = outerParent(node);
  return !!outer.parent && ts.isCallExpression(outer.parent) && outer.parent.expression === outer;
}

/** The string `name` property of the object literal that holds `fn` as a property value or method. */
function siblingName(fn: ts.FunctionLikeDeclaration): string | undefined {
  const holder = ts.isMethodDeclaration(fn) ? fn : outerParent(fn).parent;
  if (!holder || !(ts.isMethodDeclaration(holder) || ts.isPropertyAssignment(holder)) || !ts.isObjectLiteralExpression(holder.parent)) return undefined;
  const nameProp = holder.parent.properties.find((p) => ts.isPropertyAssignment(p) && propertyNameText(p.name) === 'name');
  return nameProp && ts.isPropertyAssignment(nameProp) ? stringValue(nameProp.initializer) : undefined;
}

/** The named function that returns `fn` (a handler factory), if `fn` is what it returns. */
/** `target = fn`: the assignment that keeps an anonymous function in a variable or a field. */
function keepingAssignment(fn: ts.FunctionLikeDeclaration): ts.BinaryExpression | undefined {
  if (functionName(fn)) return undefined;
  const outer = outerParent(fn);
  const p = outer.parent;
  return p && ts.isBinaryExpression(p) && p.operatorToken.kind === ts.SyntaxKind.EqualsToken && outerParent(p.right) === outer ? p : undefined;
}

function makerOf(fn: ts.FunctionLikeDeclaration): ts.FunctionLikeDeclaration | undefined {
  if (functionName(fn)) return undefined;
  const outer = outerParent(fn);
  const p = outer.parent;
  const maker = p && ts.isReturnStatement(p) ? enclosingFunction(p) : p && ts.isArrowFunction(p) && p.body === outer ? p : undefined;
  return maker && functionName(maker) ? maker : undefined;
}

/** The call an object literal holding `fn` (as a method or property value) is passed to. */
function objectArgumentOf(fn: ts.FunctionLikeDeclaration): { call: ts.CallExpression | ts.NewExpression; index: number } | undefined {
  const holder = ts.isMethodDeclaration(fn) ? fn : outerParent(fn).parent;
  if (!holder || !(ts.isMethodDeclaration(holder) || ts.isPropertyAssignment(holder))) return undefined;
  const obj = holder.parent;
  if (!ts.isObjectLiteralExpression(obj)) return undefined;
  const arg = outerParent(obj);
  const call = arg.parent;
  if (!call || !(ts.isCallExpression(call) || ts.isNewExpression(call))) return undefined;
  const index = (call.arguments ?? []).findIndex((a) => outerParent(a) === arg);
  return index >= 0 ? { call, index } : undefined;
}

/** Is the call the value the function returns, unchanged? */
function returnsDirectly(call: ts.Node, fn: ts.FunctionLikeDeclaration): boolean {
  let n = outerParent(call);
  if (n.parent && ts.isAwaitExpression(n.parent)) n = outerParent(n.parent);
  const p = n.parent;
  if (!p) return false;
  if (ts.isReturnStatement(p)) return enclosingFunction(p) === fn;
  return ts.isArrowFunction(fn) && fn.body === n;
}

/**
 * A low-level handler's tool name from the branch around `inner`: `if (request.params.name === 'refund')`
 * or `case 'refund':` in a switch on the name.
 */
function narrowedName(inner: ts.Node, fn: ts.Node): string | null {
  let child: ts.Node = inner;
  for (let n = inner.parent; n && n !== fn; child = n, n = n.parent) {
    if (ts.isIfStatement(n) && child === n.thenStatement) {
      const lit = equalityLiteral(n.expression);
      if (lit !== undefined) return lit;
    }
    if (ts.isCaseClause(n)) {
      const lit = stringValue(n.expression);
      if (lit !== undefined) return lit;
    }
  }
  return null;
}

function equalityLiteral(cond: ts.Expression): string | undefined {
  const e = unwrap(cond);
  if (!ts.isBinaryExpression(e)) return undefined;
  const op = e.operatorToken.kind;
  if (op === ts.SyntaxKind.AmpersandAmpersandToken) return equalityLiteral(e.left) ?? equalityLiteral(e.right);
  if (op !== ts.SyntaxKind.EqualsEqualsEqualsToken && op !== ts.SyntaxKind.EqualsEqualsToken) return undefined;
  const l = stringValue(e.left);
  const r = stringValue(e.right);
  const other = l !== undefined ? e.right : e.left;
  const lit = l ?? r;
  if (lit === undefined) return undefined;
  const last = memberChain(other).at(-1) ?? '';
  return /name|tool|prompt|uri/i.test(last) ? lit : undefined;
}

/** Is `node` within `outer` (same tree: positions alone would match nodes of other files)? */
function isInside(node: ts.Node, outer: ts.Node): boolean {
  if (node.pos < outer.pos || node.end > outer.end) return false;
  for (let n: ts.Node | undefined = node; n; n = n.parent) if (n === outer) return true;
  return false;
}

/**
 * The read of one element of a rest parameter `rest` at `use`: `rest[k]` and `rest.at(k)` for its
 * position `k`, and for the last argument `rest.pop()`, `rest.at(-1)`, `rest[rest.length - 1]`.
 */
function restElementRead(use: ts.Node, position: number, last: boolean): ts.Node | undefined {
  const holder = outerParent(use).parent;
  if (!holder) return undefined;
  if (ts.isElementAccessExpression(holder) && outerParent(holder.expression) === outerParent(use)) {
    const at = holder.argumentExpression;
    if (ts.isNumericLiteral(at)) return Number(at.text) === position ? holder : undefined;
    const lengthMinusOne = ts.isBinaryExpression(at) && at.operatorToken.kind === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(at.right) && at.right.text === '1' && ts.isPropertyAccessExpression(at.left) && at.left.name.text === 'length';
    return last && lengthMinusOne ? holder : undefined;
  }
  if (!ts.isPropertyAccessExpression(holder) || !holder.parent || !ts.isCallExpression(holder.parent) || holder.parent.expression !== holder) return undefined;
  const read = holder.parent;
  if (holder.name.text === 'pop' && read.arguments.length === 0) return last ? read : undefined;
  if (holder.name.text !== 'at' || read.arguments.length !== 1) return undefined;
  const k = read.arguments[0];
  const negativeOne = ts.isPrefixUnaryExpression(k) && k.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(k.operand) && k.operand.text === '1';
  if (negativeOne) return last ? read : undefined;
  return ts.isNumericLiteral(k) && Number(k.text) === position ? read : undefined;
}

/** `node` names the class a `new` expression instantiates (`new C(…)`, `new ns.C(…)`). */
function isConstructed(node: ts.Node): boolean {
  const r = outerParent(node);
  return !!r.parent && ts.isNewExpression(r.parent) && unwrap(r.parent.expression) === unwrap(r as ts.Expression);
}

/** What `receiverFromCall` answers for a call that passes nothing where the ask's receiver comes from. */
const NO_RECEIVER: ReceiverSource = { fn: undefined as unknown as ts.FunctionLikeDeclaration, index: -1, path: [] };

/** The ask's receiver, when it is (a property path in) a parameter of the function holding the ask: `mcp.elicitInput(…)`, `deps.server.server.createMessage(…)`. */
function receiverParameter(call: ts.CallExpression): ReceiverSource | undefined {
  const callee = unwrap(call.expression);
  if (!ts.isPropertyAccessExpression(callee)) return undefined;
  const fn = enclosingFunction(call);
  return fn ? parameterSource(callee.expression, fn) : undefined;
}

/** `e` read from a parameter of `fn` (an identifier, a property path, through `!`, `?.`, casts): which one, by what path. */
function parameterSource(e: ts.Expression, fn: ts.FunctionLikeDeclaration, path: string[] = []): ReceiverSource | undefined {
  const x = unwrap(e);
  if (ts.isPropertyAccessExpression(x)) return parameterSource(x.expression, fn, [x.name.text, ...path]);
  if (!ts.isIdentifier(x)) return undefined;
  const b = resolveBinding(x, x.text);
  if (!b) return undefined;
  if (ts.isParameter(b) && b.parent === fn && ts.isIdentifier(b.name)) return { fn, index: fn.parameters.indexOf(b), path };
  // `({ mcp }) => …`: an element of a destructured parameter
  if (ts.isBindingElement(b) && ts.isObjectBindingPattern(b.parent) && !b.dotDotDotToken && !b.initializer && ts.isParameter(b.parent.parent) && b.parent.parent.parent === fn) {
    const key = propertyNameText(b.propertyName ?? b.name);
    return key === undefined ? undefined : { fn, index: fn.parameters.indexOf(b.parent.parent), path: [key, ...path] };
  }
  return undefined;
}

/**
 * Where the receiver comes from in the caller: `NO_RECEIVER` when the call leaves it out (the
 * argument omitted, `undefined`/`null`, an object literal without that property), the caller's own
 * parameter when it is passed on, else undefined (not followed further: the route stands).
 */
/**
 * `server.server.listRoots()` where a repo object's own method is named `listRoots` too: the call is a
 * legacy site (detection judged its receiver), the ask itself, not a call of that method.
 */
function isSiteCallee(access: ts.PropertyAccessExpression, file: FileIndex): boolean {
  if (!LEGACY_NAMES.has(access.name.text)) return false;
  return file.sites.some((s) => ts.isCallExpression(s.call) && unwrap(s.call.expression) === access);
}

function receiverFromCall(source: ReceiverSource, node: ts.Node, helper: ViaFunction | undefined): ReceiverSource | undefined {
  if (!helper || helper.fn !== source.fn || helper.call !== node || !ts.isCallExpression(node)) return undefined;
  const callee = unwrap(node.expression);
  // the helper called by name, its arguments in place (not `.call`/`.apply`, not a wrapper's result)
  if (!(ts.isIdentifier(callee) || ts.isPropertyAccessExpression(callee)) || (ts.isPropertyAccessExpression(callee) && INVOKE_METHODS.has(callee.name.text))) return undefined;
  const param = source.fn.parameters[source.index];
  if (!param || param.dotDotDotToken || node.arguments.some((a) => ts.isSpreadElement(a))) return undefined;
  let arg: ts.Expression | undefined = node.arguments[source.index];
  let path = source.path;
  // left out: the parameter's default (when it has one) decides, else there is no receiver
  if (arg === undefined) return param.initializer ? undefined : NO_RECEIVER;
  for (;;) {
    const x = unwrap(arg);
    if (isNothing(x)) return param.initializer && arg === node.arguments[source.index] && !(x.kind === ts.SyntaxKind.NullKeyword) ? undefined : NO_RECEIVER;
    if (path.length > 0 && ts.isObjectLiteralExpression(x)) {
      if (x.properties.some((p) => ts.isSpreadAssignment(p) || (p.name !== undefined && propertyNameText(p.name) === undefined))) return undefined;
      const prop = x.properties.find((p) => p.name !== undefined && propertyNameText(p.name) === path[0]);
      if (!prop) return NO_RECEIVER;
      if (ts.isPropertyAssignment(prop)) arg = prop.initializer;
      else if (ts.isShorthandPropertyAssignment(prop)) arg = prop.name;
      else return undefined;
      path = path.slice(1);
      continue;
    }
    const caller = enclosingFunction(node);
    return caller ? parameterSource(x, caller, path) : undefined;
  }
}

/** `undefined`, `null`, `void 0`. */
function isNothing(e: ts.Expression): boolean {
  return e.kind === ts.SyntaxKind.NullKeyword || (ts.isIdentifier(e) && e.text === 'undefined') || ts.isVoidExpression(e);
}
