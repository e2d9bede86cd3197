/**
 * The plan builder: from the analyzer's sites and the handler routes that reach them, one `FilePlan`
 * per file (what the transform edits) and the verdict of every site. A site is `auto` only when the
 * plan covers it: its handler's registration is visible, every step from the handler to the ask is
 * awaited, and every value computed before an ask can travel in the sealed state (or be computed
 * again). Handlers that share a site or a helper are ported together or not at all, so a helper's ask
 * never becomes a runtime call that some caller runs outside a flow.
 */
import ts from '../../typescript.cjs';
import { enclosingFunction, functionName, isFunctionLike, isLoop, outerParent, unwrap } from '../ast.js';
import type { RawSite } from '../detect.js';
import type { FileIndex } from '../file-index.js';
import type { Portability, Site } from '../model.js';
import type { Project } from '../project.js';
import type { Route } from '../reach.js';
import { REASONS, type ReasonId } from '../reasons.js';
import { classifyRoute } from '../classify.js';
import { askArguments, describeAsk } from './asks.js';
import { awaitedCallback, awaitedPosition } from './awaited.js';
import { FileEmitter } from './emit.js';
import { siblingBatches } from './siblings.js';
import { FlowFunction, type FunctionEdits } from './flow-function.js';
import { capabilityReadsOnPath } from './capabilities.js';
import { leavesWithoutAsking } from './leaves.js';
import { isWrite } from './references.js';
import type { FilePlan, PlanAsk } from './model.js';
import { handlerRoutes, hopCalls, registrationOf, registrationReceiver, typeAccess, type HandlerRouteEnd, type RegistrationSeam } from './seams.js';
import { REGISTRATION_METHODS } from '../../vocabulary.js';

export type { FilePlan } from './model.js';

export interface PlanOptions {
  /** `config` (default): roots come from configuration (the retire-roots transform), so a roots call is no ask. */
  roots?: 'config' | 'ask';
  /**
   * `false`: verdicts only, no `FilePlan` is assembled (`plans` is empty). For callers that report
   * verdicts (analyze, check): assembling a plan walks the whole file for names the runtime imports may take.
   */
  edits?: boolean;
}

/** One analyzer site, as the plan needs it. */
export interface PlanInput {
  site: Site;
  raw: RawSite;
  file: FileIndex;
  routes: readonly Route[];
}

export interface Verdict {
  portability: Portability;
  reasons: ReasonId[];
}

export interface PlanResult {
  /** Files the plan changes or marks, by relative path. */
  plans: FilePlan[];
  /** The verdict of each site, replacing the analyzer's where the plan judged the shape. */
  verdicts: Map<Site, Verdict>;
  /**
   * Per site, the verdict of each handler route the plan judged (the site's `handlers` entries): a
   * route whose handler the plan refuses carries that route's reasons; a route left only because it
   * shares a helper with a refused one carries `handler-not-ported`.
   */
  routeVerdicts: Map<Site, { end: HandlerRouteEnd; verdict: Verdict }[]>;
}

/**
 * Reasons the analyzer's walk attaches that are about the shape between the handler and the ask:
 * on every site the plan judges, its own judgement replaces them (a callback the handler awaits, a
 * registration it can wrap, a wrapper inside the project).
 */
const PLAN_OWNED = new Set<string>(['nested-callback', 'wrapped-handler', 'unknown-handler-shape']);

/** Clients stop a flow after 10 rounds (`inputRequired.maxRounds`), the SDK's legacy shim after 8. */
const LOOP_NOTE = 'asks once per loop iteration: one round each; clients stop after 10 rounds (the legacy shim after 8)';

interface Unit {
  end: HandlerRouteEnd;
  registration: RegistrationSeam | undefined;
  inputs: Set<PlanInput>;
  routes: { route: Route & { end: HandlerRouteEnd }; input: PlanInput }[];
}

export function buildPlans(inputs: readonly PlanInput[], project: Project, options: PlanOptions = {}): PlanResult {
  const builder = new PlanBuilder(project, options);
  return builder.build(inputs);
}

class PlanBuilder {
  private readonly types;
  private readonly project: Project;
  private readonly emitters = new Map<FileIndex, FileEmitter>();
  private readonly verdicts = new Map<Site, Verdict>();
  private readonly routeVerdicts = new Map<Site, { end: HandlerRouteEnd; verdict: Verdict }[]>();
  /** What a site's marker names for a reason (the variable that cannot be carried). */
  private readonly details = new Map<Site, Map<ReasonId, string>>();
  private readonly rootsAsked: boolean;
  private readonly assemble: boolean;
  /** Asks that run once per iteration of a loop on their path (one round each). */
  private readonly looping = new Set<PlanInput>();

  constructor(
    project: Project,
    options: PlanOptions,
  ) {
    this.types = typeAccess(project);
    this.project = project;
    this.rootsAsked = options.roots === 'ask';
    this.assemble = options.edits !== false;
  }

  build(inputs: readonly PlanInput[]): PlanResult {
    const units = new Map<ts.Node, Unit>();
    const unitsOf = new Map<PlanInput, Unit[]>();
    for (const input of inputs) {
      if (this.isRetiredRoots(input)) {
        this.retireRoots(input);
        continue;
      }
      const mine: Unit[] = [];
      for (const route of handlerRoutes(input.routes)) {
        const registration = registrationOf(route.end);
        const key = registration?.handlerArg ?? route.end.fn;
        let unit = units.get(key);
        if (!unit) units.set(key, (unit = { end: route.end, registration, inputs: new Set(), routes: [] }));
        unit.inputs.add(input);
        unit.routes.push({ route, input });
        if (!mine.includes(unit)) mine.push(unit);
      }
      unitsOf.set(input, mine);
    }
    for (const component of this.sharingFunctions(components([...units.values()], unitsOf))) this.planComponent(component);
    // the marker of every site a human must decide, with the reasons it has now
    for (const input of inputs) {
      // a site no request can reach keeps the analyzer's verdict (analyze() merges only auto/manual ones)
      const own = input.site.portability === 'unportable' || input.site.portability === 'guarded';
      const verdict = (!own && this.verdicts.get(input.site)) || { portability: input.site.portability, reasons: input.site.reasons };
      if (verdict.portability === 'manual' || verdict.portability === 'unportable') this.emitter(input.file)?.markSite(input.raw.node, verdict.reasons, this.details.get(input.site));
    }
    const plans = this.assemble ? [...this.emitters.values()].map((e) => e.plan()).filter((p): p is FilePlan => p !== undefined) : [];
    plans.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
    return { plans, verdicts: this.verdicts, routeVerdicts: this.routeVerdicts };
  }

  /**
   * Roots from configuration need no round: whatever the shape around the call, `rootsFromConfig()`
   * answers where it stands. Only where no request can be in flight (or a human must decide) is it kept.
   */
  private retireRoots(input: PlanInput): void {
    if (input.site.portability === 'guarded' || handlerRoutes(input.routes).length === 0) return;
    const reasons = ordered(input.site.reasons.filter((r) => !PLAN_OWNED.has(r)));
    const portable = !reasons.some((r) => REASONS[r].portability !== 'auto');
    this.verdicts.set(input.site, { portability: portable ? 'auto' : 'manual', reasons });
    const emitter = this.emitter(input.file);
    if (!portable || !emitter) return;
    // the handlers registered around it: a parameter only the request read may go from them
    const handlers = handlerRoutes(input.routes).flatMap((r) => registrationOf(r.end)?.handlerArg ?? []);
    emitter.retire(input.raw.node, handlers);
  }

  /** The file's edits so far; undefined when no plan is assembled (the verdicts never depend on them). */
  private emitter(file: FileIndex): FileEmitter | undefined {
    if (!this.assemble) return undefined;
    let e = this.emitters.get(file);
    if (!e) this.emitters.set(file, (e = new FileEmitter(file)));
    return e;
  }

  private isRetiredRoots(input: PlanInput): boolean {
    return input.raw.kind === 'roots' && !this.rootsAsked;
  }

  /**
   * Components whose paths cross a function of another (a wrapper every tool's body runs in,
   * `wrapErrors(() => runX(…))`, reached by tools that ask different questions) are planned together:
   * planned apart, each would edit that function on its own (two catch guards, two memos of one
   * expression, whose edits overlap and leave the file unported).
   */
  private sharingFunctions(groups: Unit[][]): Unit[][] {
    if (groups.length < 2) return groups;
    const parent = groups.map((_, i) => i);
    const find = (i: number): number => {
      while (parent[i] !== i) i = parent[i] = parent[parent[i]];
      return i;
    };
    const owner = new Map<ts.FunctionLikeDeclaration, number>();
    groups.forEach((units, i) => {
      const flows = new Map<ts.FunctionLikeDeclaration, FlowFunction>();
      for (const unit of units) for (const { route, input } of unit.routes) if (!this.isRetiredRoots(input)) this.walkRoute(route, input, flows);
      for (const fn of flows.keys()) {
        const j = owner.get(fn);
        if (j === undefined) owner.set(fn, i);
        else parent[find(i)] = find(j);
      }
    });
    const merged = new Map<number, Unit[]>();
    groups.forEach((units, i) => {
      const root = find(i);
      merged.set(root, [...(merged.get(root) ?? []), ...units]);
    });
    return [...merged.values()];
  }

  private planComponent(units: Unit[]): void {
    const inputs = [...new Set(units.flatMap((u) => [...u.inputs]))];
    // already dual-era: the handler is left as it is
    if (inputs.some((i) => i.site.portability === 'guarded')) return;
    const first = this.attempt(units, inputs);
    if (first.ok) return this.emit(units, inputs, first.asks, first.edits);
    // Sites a human must decide need not hold back the others that reach the same handlers: those are
    // ported, and the refused ones keep their legacy call, when none of them stands in a function the
    // port changes (there a replayed round would send it again).
    let refused = inputs.filter((i) => first.reasons.get(i)!.size > 0);
    for (let fine = inputs.filter((i) => !refused.includes(i)); fine.length > 0; ) {
      const part = units.map((u) => restrict(u, fine)).filter((u) => u.inputs.size > 0);
      const next = this.attempt(part, fine);
      if (next.ok) {
        const touched = [...next.flows.keys()];
        if (refused.some((i) => touched.some((fn) => fn.getSourceFile() === i.file.sf && i.raw.node.pos >= fn.pos && i.raw.node.end <= fn.end))) break;
        this.emit(part, fine, next.asks, next.edits);
        this.fail(units, refused, first.reasons, first.byUnit);
        return;
      }
      refused = [...refused, ...fine.filter((i) => next.reasons.get(i)!.size > 0)];
      for (const i of fine) for (const r of next.reasons.get(i)!) first.reasons.get(i)!.add(r);
      fine = fine.filter((i) => !refused.includes(i));
    }
    this.fail(units, inputs, first.reasons, first.byUnit);
  }

  /** Plans the handlers of `units` for `inputs`: the edits, or why some input cannot be ported. */
  private attempt(units: Unit[], inputs: readonly PlanInput[]): Attempt {
    const reasons = new Map<PlanInput, Set<ReasonId>>(inputs.map((i) => [i, new Set()]));
    // the same, per handler route: what refuses that handler (shown on the site's `handlers` entries)
    const byUnit = new Map<PlanInput, Map<Unit, Set<ReasonId>>>(inputs.map((i) => [i, new Map()]));
    const add = (input: PlanInput, reason: ReasonId, unit?: Unit): void => {
      reasons.get(input)!.add(reason);
      if (!unit) return;
      const own = byUnit.get(input)!;
      if (!own.has(unit)) own.set(unit, new Set());
      own.get(unit)!.add(reason);
    };
    for (const input of inputs) {
      for (const r of input.site.reasons) if (!PLAN_OWNED.has(r) && REASONS[r].portability !== 'auto' && !(r === 'indirect-call' && rewritableInvocation(input.raw))) add(input, r);
    }
    for (const unit of units) for (const reason of this.registrationProblems(unit)) for (const input of unit.inputs) add(input, reason, unit);

    const flows = new Map<ts.FunctionLikeDeclaration, FlowFunction>();
    const asks = new Map<PlanInput, Omit<PlanAsk, 'start' | 'end'> & { node: ts.Node }>();
    for (const unit of units) {
      for (const { route, input } of unit.routes) {
        if (this.isRetiredRoots(input)) continue;
        const ask = describeAsk(input.raw, (e) => {
          const checker = this.types.checker(input.file);
          return checker ? checker.getTypeAtLocation(e).getProperty('~standard') !== undefined : undefined;
        });
        if (!ask.ok) {
          // an invocation the port cannot rewrite already has its reason (indirect-call)
          if (askArguments(input.raw)) add(input, 'dynamic-request');
          continue;
        }
        asks.set(input, ask.ask);
        for (const reason of this.walkRoute(route, input, flows)) add(input, reason, unit);
      }
    }
    if (blocked(reasons)) return { ok: false, reasons, byUnit };
    const edits = this.functionEdits(flows, inputs, asks);
    for (const [flow, e] of edits) {
      if (e.blocking.length === 0) continue;
      for (const unit of units) {
        const passer = unit.registration && passingFunction(unit.registration, unit.end.fn);
        // the registered function (or the one that hands its result on) holds back every site it reaches;
        // a function further on (one tool of a table that a shared function dispatches to) only the sites
        // whose routes cross it: the others are still ported
        const shared = passer === flow.fn || unit.end.fn === flow.fn;
        const crossing = shared ? [...unit.inputs] : unit.routes.filter(({ route }) => route.via.some((v) => v.fn === flow.fn)).map((r) => r.input);
        for (const input of new Set(crossing)) {
          for (const b of e.blocking) {
            add(input, b.reason, unit);
            this.detail(input.site, b.reason, b.detail);
          }
        }
      }
    }
    if (blocked(reasons)) return { ok: false, reasons, byUnit };
    return { ok: true, flows, asks, edits };
  }

  private detail(site: Site, reason: ReasonId, detail: string): void {
    let own = this.details.get(site);
    if (!own) this.details.set(site, (own = new Map()));
    const known = own.get(reason);
    if (!known) own.set(reason, detail);
    else if (!known.split(', ').includes(detail)) own.set(reason, `${known}, ${detail}`);
  }

  /** Why a handler's registration cannot be wrapped. */
  private registrationProblems(unit: Unit): ReasonId[] {
    const reg = unit.registration;
    // a framework registers it (the analyzer says so): that is the whole reason, not an unknown shape
    if (!reg) return [unit.end.framework ? 'framework-registration' : 'unknown-handler-shape'];
    if (reg.nameArg && hasCall(reg.nameArg)) return ['unknown-handler-shape'];
    const arg = unwrap(reg.handlerArg);
    if (ts.isCallExpression(arg) && !isBind(arg) && !this.wrapperInProject(arg, reg.file)) return ['wrapped-handler'];
    return [];
  }

  /** A wrapper call (`withAuth(fn)`) whose function the project holds (a local function or a relative import): its code runs inside the flow. */
  private wrapperInProject(call: ts.CallExpression, file: FileIndex): boolean {
    const callee = unwrap(call.expression);
    const root = ts.isIdentifier(callee) ? callee : undefined;
    if (!root) return false;
    const binding = file.imports.get(root.text);
    if (binding) return binding.spec.startsWith('.');
    return file.functions.has(root.text);
  }

  /**
   * Walks one route from the ask out to the handler: each step must be awaited where it stands,
   * through callbacks the function waits for. Records the ask points of each function on the way.
   */
  private walkRoute(route: Route & { end: HandlerRouteEnd }, input: PlanInput, flows: Map<ts.FunctionLikeDeclaration, FlowFunction>): ReasonId[] {
    const chain = [route.end.fn, ...route.via.map((v) => v.fn)];
    const files = [route.end.file, ...route.via.map((v) => v.file)];
    const flowOf = (fn: ts.FunctionLikeDeclaration, file: FileIndex, parent?: FlowFunction, mapped?: ts.Expression): FlowFunction => {
      let f = flows.get(fn);
      if (!f) flows.set(fn, (f = new FlowFunction(fn, file, parent, mapped)));
      return f;
    };
    const handler = flowOf(chain[0], files[0]);
    handler.handlerKind = true;
    for (let k = 1; k < chain.length; k++) flowOf(chain[k], files[k]).helper = true;

    const out: ReasonId[] = [];
    // the registered function only hands the handler's result on (`try { return await run(args, ctx) } catch …`):
    // it runs in the flow too, so its own try/catch, finally and effects around that call are planned
    const registration = registrationOf(route.end);
    const passer = registration && passingFunction(registration, route.end.fn);
    if (passer) {
      const calls = passingCalls(passer, route.end.fn);
      if (calls.length > 0) flowOf(passer, registration.file).handlerKind = true;
      for (const call of calls) {
        const r = this.climb(input, call, passer, registration.file, route.end.fn, flowOf);
        if (r) out.push(r);
      }
    }
    const last = chain.length - 1;
    const r = this.climb(input, input.raw.node, chain[last], files[last], undefined, flowOf);
    if (r) out.push(r);
    for (let k = last; k >= 1; k--) {
      const calls = hopCalls(chain[k - 1], route.via[k - 1]);
      if (calls.length === 0) out.push('nested-callback');
      for (const call of calls) {
        const hop = this.climb(input, call, chain[k - 1], files[k - 1], chain[k], flowOf);
        if (hop) out.push(hop);
      }
    }
    return out;
  }

  /** From an ask point up to the path function that holds it; undefined when every step is awaited. */
  private climb(
    input: PlanInput,
    node: ts.Node,
    owner: ts.FunctionLikeDeclaration,
    file: FileIndex,
    enters: ts.FunctionLikeDeclaration | undefined,
    flowOf: (fn: ts.FunctionLikeDeclaration, file: FileIndex, parent?: FlowFunction, mapped?: ts.Expression) => FlowFunction,
  ): ReasonId | undefined {
    let point: ts.Node = node;
    let positioned: ts.Node = node;
    let entering = enters;
    const pending: { fn: ts.FunctionLikeDeclaration; point: ts.Node; positioned: ts.Node; enters?: ts.FunctionLikeDeclaration }[] = [];
    for (let fn = enclosingFunction(point); fn !== owner; fn = enclosingFunction(fn)) {
      if (!fn) return 'nested-callback';
      const anchor = awaitedCallback(fn);
      if (!anchor) return 'nested-callback';
      pending.push({ fn, point, positioned, enters: entering });
      entering = fn;
      point = fn;
      positioned = anchor;
    }
    pending.push({ fn: owner, point, positioned, enters: entering });
    // outermost first, so a callback's flow knows the function around it
    let parent: FlowFunction | undefined;
    for (const step of pending.reverse()) {
      const position = ts.isThrowStatement(step.positioned) ? { ok: true as const, awaitEnd: step.positioned.end, settled: false } : awaitedPosition(step.positioned, step.fn);
      if (!position.ok) return position.reason;
      const flow = step.fn === owner ? flowOf(owner, file) : flowOf(step.fn, file, parent, mappedOver(step.fn));
      if (step.fn !== owner) flow.helper = true;
      flow.addAskPoint({ node: step.point, awaitEnd: position.awaitEnd, settled: position.settled, enters: step.enters });
      if (inLoopOf(step.point, step.fn)) this.looping.add(input);
      parent = flow;
    }
    return undefined;
  }

  private functionEdits(flows: Map<ts.FunctionLikeDeclaration, FlowFunction>, inputs: readonly PlanInput[], asks: Map<PlanInput, { node: ts.Node; params?: { start: number; end: number } }>): Map<FlowFunction, FunctionEdits> {
    // a function that keeps running after a stopped round makes its callers' later code run too
    const swallows = new Set<ts.FunctionLikeDeclaration>();
    for (let changed = true; changed; ) {
      changed = false;
      for (const f of flows.values()) {
        if (swallows.has(f.fn)) continue;
        if ([...f.askPoints.values()].some((p) => p.settled || (p.enters !== undefined && swallows.has(p.enters)))) {
          swallows.add(f.fn);
          changed = true;
        }
      }
    }
    const kept = new Map<ts.Node, ts.Node | undefined>();
    for (const [input, ask] of asks) kept.set(ask.node, keptArgument(input.raw));
    const replaced = new Set<ts.Node>();
    for (const input of inputs) {
      if (!this.isRetiredRoots(input)) continue;
      replaced.add(input.raw.node);
      const outer = outerParent(input.raw.node).parent;
      if (outer && ts.isAwaitExpression(outer)) replaced.add(outer);
    }
    const asksAfter = asksAfterReturn(flows);
    const out = new Map<FlowFunction, FunctionEdits>();
    // the calls into each helper, by the path function making them
    const callers = new Map<ts.FunctionLikeDeclaration, { flow: FlowFunction; call: ts.Node }[]>();
    for (const flow of flows.values()) {
      for (const point of flow.askPoints.values()) {
        if (!point.enters || point.node === point.enters || !ts.isCallExpression(point.node)) continue;
        const list = callers.get(point.enters) ?? [];
        list.push({ flow, call: point.node });
        callers.set(point.enters, list);
      }
    }
    const entered = enteredCallbacks(flows, callers);
    // callers before the helpers they call (a helper's parameters hold what they pass), and functions
    // around a callback before it (the callback's scope sees theirs)
    const hops = callDepths(flows, callers);
    const ordered = [...flows.values()].sort((a, b) => (hops.get(a) ?? 0) - (hops.get(b) ?? 0) || depth(a.fn) - depth(b.fn));
    for (const flow of ordered) {
      const legacy = new Set(flow.file.sites.map((s) => s.node).filter((n) => !replaced.has(n)));
      out.set(flow, flow.edits({ legacy, replaced, kept, checker: () => this.types.checker(flow.file), swallowing: (fn) => swallows.has(fn), asksAfterReturn: (fn) => asksAfter(fn), callers: (fn) => callers.get(fn) ?? [], enteredParameters: (fn) => entered.get(fn), verdictsOnly: !this.assemble }));
    }
    return out;
  }

  private emit(units: Unit[], inputs: readonly PlanInput[], asks: Map<PlanInput, Omit<PlanAsk, 'start' | 'end'> & { node: ts.Node }>, edits: Map<FlowFunction, FunctionEdits>): void {
    // a handler whose only legacy calls are retired roots asks nothing: no flow to wrap it in. Without a
    // plan to assemble (analyze, check) none of this is needed: it only records edits
    if (asks.size > 0 && this.assemble) {
      // the capability reads the flow can run: the path functions' and those of the functions they call (capabilities.ts)
      const capabilityReads = capabilityReadsOnPath(edits.keys(), this.project, { rootsRetired: !this.rootsAsked });
      const needsCapabilities = capabilityReads.length > 0 || [...edits.values()].some((e) => e.catchGuards.length > 0);
      for (const unit of units) {
        const reg = unit.registration!;
        this.emitter(reg.file)!.wrap(reg, needsCapabilities ? capabilitySource(reg.call) : undefined);
      }
      for (const read of capabilityReads) this.emitter(read.file)!.capabilityRead(read.call);
      // independent sibling asks of one function: one round (before their asks are emitted one by one)
      for (const flow of edits.keys()) {
        const own = new Map<ts.Node, ts.Expression | undefined>();
        const byNode = new Map<ts.Node, Omit<PlanAsk, 'start' | 'end'> & { node: ts.Node }>();
        for (const [input, ask] of asks) {
          if (enclosingFunction(ask.node) !== flow.fn || !ts.isCallExpression(ask.node) || ask.runtime === 'urlElicitationRequired') continue;
          own.set(ask.node, keptArgument(input.raw));
          byNode.set(ask.node, ask);
        }
        for (const group of siblingBatches(flow.fn, own)) this.emitter(flow.file)!.batch(group.map((m) => ({ ask: byNode.get(m.call)!, guard: m.guard, awaited: m.awaited })));
      }
      for (const [input, ask] of asks) this.emitter(input.file)!.ask(ask);
      for (const [flow, e] of edits) this.emitter(flow.file)!.functionEdits(e);
    }
    for (const input of inputs) {
      // a method invoked with .call/.apply on its own object was rewritten like the direct call
      const rewritten = (r: ReasonId): boolean => r === 'indirect-call' && rewritableInvocation(input.raw);
      const reasons = input.site.reasons.filter((r) => !PLAN_OWNED.has(r) && !rewritten(r));
      if (this.looping.has(input)) reasons.push('in-loop');
      this.verdicts.set(input.site, { portability: 'auto', reasons: ordered(reasons) });
      const loop: ReasonId[] = this.looping.has(input) ? ['in-loop'] : [];
      this.judgeRoutes(units, input, (route) => ({ portability: 'auto', reasons: ordered([...routeKept(route).filter((r) => !rewritten(r)), ...loop]) }));
      if (reasons.includes('capability-fallback')) this.emitter(input.file)?.markSite(input.raw.node, ['capability-fallback']);
      if (this.looping.has(input)) this.emitter(input.file)?.note(input.raw.node, LOOP_NOTE);
    }
  }

  private fail(units: Unit[], inputs: readonly PlanInput[], reasons: Map<PlanInput, Set<ReasonId>>, byUnit: Map<PlanInput, Map<Unit, Set<ReasonId>>>): void {
    for (const input of inputs) {
      const kept = input.site.reasons.filter((r) => !PLAN_OWNED.has(r));
      this.verdicts.set(input.site, { portability: 'manual', reasons: refused(kept, reasons.get(input)!) });
      this.judgeRoutes(units, input, (route, unit) => ({ portability: 'manual', reasons: refused(routeKept(route), byUnit.get(input)!.get(unit) ?? []) }));
    }
  }

  /** The verdict of each handler route of `input` (one per unit it reaches). */
  private judgeRoutes(units: Unit[], input: PlanInput, verdictOf: (route: Route, unit: Unit) => Verdict): void {
    const out: { end: HandlerRouteEnd; verdict: Verdict }[] = [];
    for (const unit of units) {
      for (const { route, input: reaching } of unit.routes) if (reaching === input) out.push({ end: route.end, verdict: verdictOf(route, unit) });
    }
    this.routeVerdicts.set(input.site, out);
  }
}

/** The analyzer's reasons for one route, without those about the shape (the plan judges those). */
function routeKept(route: Route): ReasonId[] {
  return classifyRoute(route).reasons.filter((r) => !PLAN_OWNED.has(r));
}

/** A refused site's (or route's) reasons: its own, and `handler-not-ported` when none of them needs a human (another handler it shares code with does). */
function refused(kept: readonly ReasonId[], own: Iterable<ReasonId>): ReasonId[] {
  const all = new Set<ReasonId>([...kept, ...own]);
  if (![...all].some((r) => REASONS[r].portability !== 'auto')) all.add('handler-not-ported');
  return ordered([...all]);
}

type Attempt =
  | { ok: true; flows: Map<ts.FunctionLikeDeclaration, FlowFunction>; asks: Map<PlanInput, Omit<PlanAsk, 'start' | 'end'> & { node: ts.Node }>; edits: Map<FlowFunction, FunctionEdits> }
  | { ok: false; reasons: Map<PlanInput, Set<ReasonId>>; byUnit: Map<PlanInput, Map<Unit, Set<ReasonId>>> };

/**
 * Can an ask follow once `fn` has returned, in the same round? Then all of a helper's code runs before
 * an ask (its later code too). Not when every call that enters it is its caller's last ask point
 * (nothing asks after it, it is in no loop that asks, not settled) in a caller of which the same holds:
 * its code after its own last ask then runs once, on the round that completes, as a handler's does.
 * A callback (mapped in `Promise.all`) runs beside its siblings' asks: always yes.
 */
function asksAfterReturn(flows: ReadonlyMap<ts.FunctionLikeDeclaration, FlowFunction>): (fn: ts.FunctionLikeDeclaration) => boolean {
  const known = new Map<ts.FunctionLikeDeclaration, boolean>();
  const decide = (fn: ts.FunctionLikeDeclaration): boolean => {
    const flow = flows.get(fn);
    if (!flow?.helper) return false;
    if (flow.parent) return true;
    const callers = [...flows.values()].flatMap((c) => [...c.askPoints.values()].filter((p) => p.enters === fn).map((p) => ({ c, p })));
    if (callers.length === 0) return true;
    return callers.some(({ c, p }) => {
      if (p.settled) return true;
      const points = [...c.askPoints.values()];
      // a call in a `return` after which the caller asks nothing (leaves.ts) is its last ask point,
      // whatever asks follow in the text (another `case` of a switch) and whatever loop is around it
      if (!leavesWithoutAsking(p.node, c.fn, points.map((q) => q.node))) {
        if (points.some((q) => q.node.getStart() >= p.awaitEnd)) return true;
        if (points.some((q) => q !== p && loopAround(q.node, c.fn, p.node))) return true;
        if (inLoopOf(p.node, c.fn)) return true;
      }
      return ask(c.fn);
    });
  };
  const ask = (fn: ts.FunctionLikeDeclaration): boolean => {
    const k = known.get(fn);
    if (k !== undefined) return k;
    known.set(fn, true); // a cycle (recursion): assume it can
    const v = decide(fn);
    known.set(fn, v);
    return v;
  };
  return ask;
}

/** Is there a loop of `fn` holding both `a` and `b`? */
function loopAround(a: ts.Node, fn: ts.Node, b: ts.Node): boolean {
  for (let n: ts.Node | undefined = a.parent; n && n !== fn; n = n.parent) {
    if (isLoop(n) && b.pos >= n.pos && b.end <= n.end) return true;
  }
  return false;
}

/** The registered function when it is not the route's handler (it returns the handler's call: a dispatcher, a try around it). */
function passingFunction(reg: RegistrationSeam, handler: ts.FunctionLikeDeclaration): ts.FunctionLikeDeclaration | undefined {
  const arg = unwrap(reg.handlerArg);
  const fn = isFunctionLike(arg) ? arg : undefined;
  return fn && fn !== handler ? fn : undefined;
}

/** The calls in `passer` whose result it returns (`return [await] handler(…)`, `return handlers[name](…)`) and that may enter `handler`. */
function passingCalls(passer: ts.FunctionLikeDeclaration, handler: ts.FunctionLikeDeclaration): ts.CallExpression[] {
  const name = functionName(handler);
  const out: ts.CallExpression[] = [];
  const returned = (e: ts.Expression): void => {
    let x = unwrap(e);
    if (ts.isAwaitExpression(x)) x = unwrap(x.expression);
    if (!ts.isCallExpression(x)) return;
    const callee = unwrap(x.expression);
    const named = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
    // a table dispatch (`handlers[name](…)`) may enter any of its entries
    if ((name !== undefined && named === name) || ts.isElementAccessExpression(callee)) out.push(x);
  };
  const visit = (n: ts.Node): void => {
    if (isFunctionLike(n) && n !== passer) return;
    if (ts.isReturnStatement(n) && n.expression) returned(n.expression);
    ts.forEachChild(n, visit);
  };
  if (passer.body && !ts.isBlock(passer.body)) returned(passer.body);
  else if (passer.body) visit(passer.body);
  return out;
}

/** A unit with only the routes of `inputs`. */
function restrict(unit: Unit, inputs: readonly PlanInput[]): Unit {
  const routes = unit.routes.filter((r) => inputs.includes(r.input));
  return { ...unit, inputs: new Set(routes.map((r) => r.input)), routes };
}

function blocked(reasons: Map<PlanInput, Set<ReasonId>>): boolean {
  return [...reasons.values()].some((set) => set.size > 0);
}

/** Groups handlers that share a site (and so a helper): they are ported together or not at all. */
function components(units: Unit[], unitsOf: Map<PlanInput, Unit[]>): Unit[][] {
  const parent = new Map<Unit, Unit>(units.map((u) => [u, u]));
  const find = (u: Unit): Unit => {
    let r = u;
    while (parent.get(r) !== r) r = parent.get(r)!;
    parent.set(u, r);
    return r;
  };
  for (const list of unitsOf.values()) for (let i = 1; i < list.length; i++) parent.set(find(list[i]), find(list[0]));
  const groups = new Map<Unit, Unit[]>();
  for (const u of units) {
    const root = find(u);
    const g = groups.get(root);
    if (g) g.push(u);
    else groups.set(root, [u]);
  }
  return [...groups.values()];
}

/** The argument an ask keeps: its params (or request object, or URL list). */
function keptArgument(raw: RawSite): ts.Expression | undefined {
  return askArguments(raw)?.[0];
}

/** `method.call(owner, params)` / `.apply(owner, [params])` on the object the method was read from: rewritten like the direct call. */
function rewritableInvocation(raw: RawSite): boolean {
  return raw.indirect === 'call-apply' && askArguments(raw) !== undefined;
}

function hasCall(expr: ts.Node): boolean {
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found) return;
    if (ts.isCallExpression(n) || ts.isNewExpression(n) || ts.isTaggedTemplateExpression(n) || ts.isAwaitExpression(n)) found = true;
    else ts.forEachChild(n, visit);
  };
  visit(expr);
  return found;
}

function isBind(call: ts.CallExpression): boolean {
  const callee = unwrap(call.expression);
  return ts.isPropertyAccessExpression(callee) && callee.name.text === 'bind';
}

/** The receiver whose `getClientCapabilities()` answers for 2025 connections: `server.server` for `server.registerTool`, the low-level server itself for `setRequestHandler`. */
function capabilitySource(call: ts.CallExpression): string | undefined {
  const receiver = registrationReceiver(call);
  if (!receiver || hasCall(receiver)) return undefined;
  const callee = unwrap(call.expression) as ts.PropertyAccessExpression;
  const text = receiver.getText();
  return Object.prototype.hasOwnProperty.call(REGISTRATION_METHODS, callee.name.text) ? `${text}.server` : text;
}

/** What a mapped callback maps over (`items` in `items.map(cb)` inside `Promise.all`). */
function mappedOver(fn: ts.FunctionLikeDeclaration): ts.Expression | undefined {
  const call = outerParent(fn).parent;
  if (!call || !ts.isCallExpression(call) || !ts.isPropertyAccessExpression(call.expression) || outerParent(call.expression) === outerParent(fn)) return undefined;
  return call.expression.expression;
}

/** How many helper calls from a handler each path function is (a callback counts as the function it is written in). */
/**
 * A helper on the path that calls a function it is handed before its ask (`const summary = await
 * summarize()` in confirmDestructive(server, label, summarize)), where every caller on the path passes a
 * function written on the spot, one of which assigns a variable of the function around it (`approved =
 * await client.appsIn(project)`, read by the operation run after the answer). Memoized whole in the
 * helper, the call would not run on a later round, and the variable would keep its old value there: the
 * operation would run on `undefined`. Instead the functions passed are planned as callbacks on the path
 * (their effects memoized, their assignments made again each round with the journalled values) and
 * the helper's call of that parameter runs each round. The helper's parameters so entered, by helper.
 */
function enteredCallbacks(flows: Map<ts.FunctionLikeDeclaration, FlowFunction>, callers: Map<ts.FunctionLikeDeclaration, { flow: FlowFunction; call: ts.Node }[]>): Map<ts.FunctionLikeDeclaration, Set<string>> {
  const out = new Map<ts.FunctionLikeDeclaration, Set<string>>();
  for (const flow of [...flows.values()]) {
    const calls = flow.helper ? (callers.get(flow.fn) ?? []) : [];
    if (calls.length === 0) continue;
    flow.fn.parameters.forEach((param, index) => {
      if (!ts.isIdentifier(param.name) || param.dotDotDotToken || !callsName(flow.fn, param.name.text)) return;
      const passed = passedFunctions(calls, index, callers, new Set([flow.fn]));
      if (!passed || !passed.some((p) => assignsCaptured(p.fn))) return;
      for (const { caller, fn } of passed) {
        if (flows.has(fn)) continue;
        const callback = new FlowFunction(fn, caller.file, caller);
        callback.helper = true;
        flows.set(fn, callback);
      }
      const names = out.get(flow.fn) ?? new Set<string>();
      names.add(param.name.text);
      out.set(flow.fn, names);
    });
  }
  return out;
}

/**
 * The functions written on the spot that the calls pass at `index`, through callers that hand on a
 * parameter of their own (`guardDestructive(signal, label, summarize, op)` passing its `summarize` on):
 * undefined when one of them passes anything else.
 */
function passedFunctions(
  calls: readonly { flow: FlowFunction; call: ts.Node }[],
  index: number,
  callers: Map<ts.FunctionLikeDeclaration, { flow: FlowFunction; call: ts.Node }[]>,
  seen: Set<ts.FunctionLikeDeclaration>,
): { caller: FlowFunction; fn: ts.ArrowFunction | ts.FunctionExpression }[] | undefined {
  const out: { caller: FlowFunction; fn: ts.ArrowFunction | ts.FunctionExpression }[] = [];
  for (const { flow: caller, call } of calls) {
    const arg = ts.isCallExpression(call) && call.arguments[index] && !call.arguments.some((a) => ts.isSpreadElement(a)) ? unwrap(call.arguments[index]) : undefined;
    if (!arg) return undefined;
    if (ts.isArrowFunction(arg) || ts.isFunctionExpression(arg)) {
      out.push({ caller, fn: arg });
      continue;
    }
    // a parameter of the caller handed on: what the caller's own callers pass there
    const j = ts.isIdentifier(arg) ? caller.fn.parameters.findIndex((p) => ts.isIdentifier(p.name) && p.name.text === arg.text && !p.dotDotDotToken) : -1;
    const outer = j >= 0 && caller.helper && !seen.has(caller.fn) ? (callers.get(caller.fn) ?? []) : [];
    if (outer.length === 0) return undefined;
    const inner = passedFunctions(outer, j, callers, new Set([...seen, caller.fn]));
    if (!inner) return undefined;
    out.push(...inner);
  }
  return out;
}

/** Does `fn` call `name(…)` itself (outside the functions written in it)? */
function callsName(fn: ts.FunctionLikeDeclaration, name: string): boolean {
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found || (n !== fn && isFunctionLike(n))) return;
    if (ts.isCallExpression(n) && ts.isIdentifier(unwrap(n.expression)) && (unwrap(n.expression) as ts.Identifier).text === name) found = true;
    else ts.forEachChild(n, visit);
  };
  if (fn.body) visit(fn.body);
  return found;
}

/** Does `fn` assign a variable it does not declare (one of the function around it)? */
function assignsCaptured(fn: ts.FunctionLikeDeclaration): boolean {
  const declared = new Set<string>();
  const assigned: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isParameter(n) || ts.isVariableDeclaration(n) || ts.isBindingElement(n)) {
      if (ts.isIdentifier(n.name)) declared.add(n.name.text);
    } else if (ts.isIdentifier(n) && isWrite(n)) {
      assigned.push(n.text);
    }
    ts.forEachChild(n, visit);
  };
  visit(fn);
  return assigned.some((name) => !declared.has(name));
}

function callDepths(flows: Map<ts.FunctionLikeDeclaration, FlowFunction>, callers: Map<ts.FunctionLikeDeclaration, { flow: FlowFunction }[]>): Map<FlowFunction, number> {
  const out = new Map<FlowFunction, number>();
  const of = (flow: FlowFunction, seen: Set<FlowFunction>): number => {
    const known = out.get(flow);
    if (known !== undefined) return known;
    if (seen.has(flow)) return 0;
    seen.add(flow);
    let d = 0;
    if (flow.parent) d = of(flow.parent, seen);
    else if (!flow.handlerKind) {
      const from = (callers.get(flow.fn) ?? []).map((c) => of(c.flow, seen) + 1);
      d = from.length > 0 ? Math.max(...from) : 0;
    }
    seen.delete(flow);
    out.set(flow, d);
    return d;
  };
  for (const flow of flows.values()) of(flow, new Set());
  return out;
}

function depth(fn: ts.Node): number {
  let d = 0;
  for (let f = enclosingFunction(fn); f; f = enclosingFunction(f)) d++;
  return d;
}

/** Is `node` inside a loop of `fn` (so it runs once per iteration)? */
function inLoopOf(node: ts.Node, fn: ts.Node): boolean {
  for (let n: ts.Node | undefined = node.parent; n && n !== fn; n = n.parent) {
    if (isLoop(n)) return true;
  }
  return false;
}

const REASON_ORDER = Object.keys(REASONS) as ReasonId[];

function ordered(ids: readonly ReasonId[]): ReasonId[] {
  const set = new Set(ids);
  return REASON_ORDER.filter((id) => set.has(id));
}

