/**
 * Collects the edits of one file into its `FilePlan`: positions as offsets of the text without its
 * BOM, markers at the lines of their statements, and the runtime names the file now uses, each under
 * a local name that does not clash with a name the file already has.
 */
import ts from '../../typescript.cjs';
import type { FileIndex } from '../file-index.js';
import { REASONS, type ReasonId } from '../reasons.js';
import { statementOf, type FunctionEdits } from './flow-function.js';
import type { FilePlan, PlanAsk, PlanFinallyGuard, RuntimeName, Span } from './model.js';
import { emptyPlan, planEdits } from './model.js';
import type { RegistrationSeam } from './seams.js';
import { freshName } from './scope.js';
import { unreadEdits } from './unread.js';

/** Imports of the runtime the file already has (a partly ported file): reused, never added twice. */
const FLOW_MODULE = /(^|\/)mrtr-flow(\.[cm]?[jt]s)?$/;

export class FileEmitter {
  private readonly plan_: FilePlan;
  private readonly shift: number;
  private readonly used = new Set<RuntimeName>();
  private readonly wrapped = new Set<ts.Node>();
  private readonly asked = new Set<ts.Node>();
  /** Text of the file the edits drop (receivers, request options, retired roots requests), in offsets of the tree. */
  private readonly drops: Span[] = [];
  /** Registered handler arguments (wrapped, or around a retired roots request): their unread trailing parameters may go. */
  private readonly handlers = new Set<ts.Node>();

  constructor(private readonly file: FileIndex) {
    this.plan_ = emptyPlan(file.rel);
    this.shift = file.sf.text.startsWith('\uFEFF') ? 1 : 0;
  }

  private span(start: number, end: number): Span {
    return { start: start - this.shift, end: end - this.shift };
  }

  private at(offset: number): number {
    return offset - this.shift;
  }

  wrap(reg: RegistrationSeam, capabilities: string | undefined): void {
    if (this.wrapped.has(reg.handlerArg)) return;
    this.wrapped.add(reg.handlerArg);
    this.handlers.add(reg.handlerArg);
    const arg = reg.handlerArg;
    this.plan_.wraps.push({
      ...this.span(arg.getStart(), arg.end),
      name: reg.nameArg ? reg.nameArg.getText() : null,
      ...(capabilities ? { capabilities } : {}),
    });
    this.used.add('resumable');
  }

  ask(ask: Omit<PlanAsk, 'start' | 'end'> & { node: ts.Node }): void {
    if (this.asked.has(ask.node)) return;
    this.asked.add(ask.node);
    const { node, ...rest } = ask;
    const out: PlanAsk = { ...rest, ...this.span(node.getStart(), node.end) };
    if (rest.params) out.params = this.span(rest.params.start, rest.params.end);
    if (rest.resultSchema) out.resultSchema = this.span(rest.resultSchema.start, rest.resultSchema.end);
    this.plan_.asks.push(out);
    this.dropAround(node.getStart(), node.end, rest.params, rest.resultSchema);
    this.used.add(ask.runtime);
  }

  /** Independent sibling asks, asked in one round (siblings.ts). */
  batch(members: readonly { ask: Omit<PlanAsk, 'start' | 'end'> & { node: ts.Node }; guard: ts.IfStatement; awaited: ts.AwaitExpression }[]): void {
    if (members.some((m) => this.asked.has(m.ask.node))) return;
    const name = freshName(this.file.sf, 'answers', this.plan_.batches.map((b) => b.name));
    this.plan_.batches.push({
      at: this.at(members[0].guard.getStart()),
      name,
      members: members.map((m) => {
        this.asked.add(m.ask.node);
        this.used.add(m.ask.runtime);
        const { node, ...rest } = m.ask;
        const ask: PlanAsk = { ...rest, ...this.span(node.getStart(), node.end) };
        if (rest.params) ask.params = this.span(rest.params.start, rest.params.end);
        if (rest.resultSchema) ask.resultSchema = this.span(rest.resultSchema.start, rest.resultSchema.end);
        // the awaited call becomes `answers[i]!`; its params are copied into the batch
        this.dropAround(m.awaited.getStart(), m.awaited.end, rest.params, rest.resultSchema);
        return { condition: this.span(m.guard.expression.getStart(), m.guard.expression.end), awaited: this.span(m.awaited.getStart(), m.awaited.end), ask };
      }),
    });
  }

  functionEdits(e: FunctionEdits): void {
    for (const m of e.memos) {
      this.plan_.memos.push({
        ...m,
        ...this.span(m.start, m.end),
        ...(m.awaitStart !== undefined ? { awaitStart: this.at(m.awaitStart) } : {}),
        ...(m.narrowedPaths ? { narrowedPaths: m.narrowedPaths.map((p) => ({ ...this.span(p.start, p.end), param: p.param })) } : {}),
      });
      this.used.add('once');
      if (m.restored) this.used.add('binding');
    }
    for (const n of e.snapshots) {
      this.plan_.snapshots.push({ at: this.at(n.at), indentFrom: this.at(n.indentFrom), name: n.name, read: this.span(n.read.start, n.read.end), uses: n.uses.map((u) => this.span(u.start, u.end)) });
      this.used.add('once');
    }
    for (const g of e.catchGuards) {
      this.plan_.catchGuards.push({
        ...g,
        blockStart: this.at(g.blockStart),
        ...(g.paramAt !== undefined ? { paramAt: this.at(g.paramAt) } : {}),
        ...(g.pattern ? { pattern: this.span(g.pattern.start, g.pattern.end) } : {}),
      });
      this.used.add('isSuspension');
    }
    for (const g of e.finallyGuards) {
      const guard: PlanFinallyGuard = { blockStart: this.at(g.blockStart), blockEnd: this.at(g.blockEnd) };
      if (g.runs) guard.runs = g.runs.map((r) => this.span(r.start, r.end));
      this.plan_.finallyGuards.push(guard);
      this.used.add('suspended');
    }
    if (e.asyncAt !== undefined) this.plan_.asyncInserts.push({ at: this.at(e.asyncAt) });
    for (const at of e.nonNullReads) this.plan_.nonNullReads.push(this.at(at));
    for (const c of e.castReads) this.plan_.castReads.push({ ...this.span(c.start, c.end), type: c.type });
    for (const r of e.recomputed) this.mark(r.statement, 'recomputed-value', `${r.names.map((n) => `\`${n}\``).join(', ') || 'this value'}: ${REASONS['recomputed-value'].advice}`);
  }

  /** `X.getClientCapabilities()` → `(clientCapabilities() ?? X.getClientCapabilities())` (capabilities.ts); each once, whichever flows reach it. */
  capabilityRead(call: ts.CallExpression): void {
    const span = this.span(call.getStart(), call.end);
    if (this.plan_.capabilityReads.some((c) => c.start === span.start)) return;
    this.plan_.capabilityReads.push(span);
    this.used.add('clientCapabilities');
  }

  /** A roots request the retire-roots transform replaces (it writes its own marker), and the handler arguments of its registrations. */
  retire(node: ts.Node, handlers: readonly ts.Node[] = []): void {
    for (const h of handlers) this.handlers.add(h);
    if (this.plan_.retiredRoots.some((r) => r.start === node.getStart() - this.shift)) return;
    this.plan_.retiredRoots.push(this.span(node.getStart(), node.end));
    this.drops.push({ start: node.getStart(), end: node.end });
  }

  /** [start, end) is replaced, but for `kept` (the params the runtime call keeps). */
  private dropAround(start: number, end: number, ...kept: (Span | undefined)[]): void {
    // what the port keeps of the call (its request, a raw request's result schema) is not dropped
    let at = start;
    for (const k of kept.filter((x): x is Span => x !== undefined).sort((a, b) => a.start - b.start)) {
      this.drops.push({ start: at, end: k.start });
      at = k.end;
    }
    this.drops.push({ start: at, end });
  }

  /** Declarations left unread by the drops: their edits, and a marker on each private member kept. */
  private unread(): void {
    if (this.drops.length === 0) return;
    const { edits, privateMembers, keptLocals } = unreadEdits(this.file.sf, this.drops, this.handlers);
    this.plan_.unread = edits.map((e) => ({ ...e, ...this.span(e.start, e.end), expect: { ...e.expect, at: this.at(e.expect.at) } }));
    for (const m of privateMembers) this.mark(m.node, 'unread-private-member', `\`${m.name}\`: ${REASONS['unread-private-member'].advice}`, true);
    // kept for its initializer's possible effect: the report says so, since tsc will call it unread under noUnusedLocals
    for (const k of keptLocals) this.note(k.node, `\`${k.name}\` was read only by the legacy request and is kept: its initializer may have an effect (tsc reports it unread under noUnusedLocals); delete it if that effect is not needed`);
  }

  /** A note for the port report, at the line of `node`. */
  note(node: ts.Node, text: string): void {
    const line = this.file.sf.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    const note = `line ${line}: ${text}`;
    if (!this.plan_.notes.includes(note)) this.plan_.notes.push(note);
  }

  /** Markers above the statement holding a site, one per reason (`details` names what the reason is about). */
  markSite(node: ts.Node, reasons: readonly ReasonId[], details?: ReadonlyMap<ReasonId, string>): void {
    for (const reason of reasons) {
      const detail = details?.get(reason);
      this.mark(node, reason, detail ? `${detail}: ${REASONS[reason].advice}` : REASONS[reason].advice);
    }
  }

  /** `exact`: above the node's own line (a class member), not above its statement. */
  private mark(node: ts.Node, reason: ReasonId, message: string, exact = false): void {
    const statement = exact ? node : statementOf(node);
    const line = this.file.sf.getLineAndCharacterOfPosition(statement.getStart()).line + 1;
    if (this.plan_.markers.some((m) => m.line === line && m.reason === reason)) return;
    this.plan_.markers.push({ line, reason, message });
  }

  plan(): FilePlan | undefined {
    const p = this.plan_;
    if (planEdits(p) === 0 && p.markers.length === 0) return undefined;
    this.unread();
    const byStart = (a: { start: number }, b: { start: number }): number => a.start - b.start;
    p.wraps.sort(byStart);
    p.asks.sort(byStart);
    p.batches.sort((a, b) => a.at - b.at);
    p.memos.sort(byStart);
    p.catchGuards.sort((a, b) => a.blockStart - b.blockStart);
    p.finallyGuards.sort((a, b) => a.blockStart - b.blockStart);
    p.capabilityReads.sort(byStart);
    p.asyncInserts.sort((a, b) => a.at - b.at);
    p.retiredRoots.sort(byStart);
    p.markers.sort((a, b) => a.line - b.line || (a.reason < b.reason ? -1 : 1));
    p.runtimeImports = this.localNames();
    return p;
  }

  /** Each runtime name the file uses, under a local name free in the file (`once` → `once2` when the file has a `once`). */
  private localNames(): FilePlan['runtimeImports'] {
    if (this.used.size === 0) return [];
    const taken = new Set<string>();
    const imported = new Map<string, string>();
    const visit = (n: ts.Node): void => {
      if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier) && FLOW_MODULE.test(n.moduleSpecifier.text)) {
        const named = n.importClause?.namedBindings;
        if (named && ts.isNamedImports(named)) for (const s of named.elements) imported.set((s.propertyName ?? s.name).text, s.name.text);
        return;
      }
      if (ts.isIdentifier(n) && !isMemberName(n)) taken.add(n.text);
      ts.forEachChild(n, visit);
    };
    visit(this.file.sf);
    const out: FilePlan['runtimeImports'] = [];
    for (const name of [...this.used].sort()) {
      let local = imported.get(name);
      if (!local) {
        local = name;
        for (let i = 2; taken.has(local); i++) local = `${name}${i}`;
        taken.add(local);
      }
      out.push({ name, local });
    }
    return out;
  }
}

/** A name that binds nothing in scope: a property after a dot, a key of an object literal or type, a method or class member name. */
function isMemberName(id: ts.Identifier): boolean {
  const p = id.parent;
  if (!p) return false;
  if (ts.isPropertyAccessExpression(p)) return p.name === id;
  if (ts.isQualifiedName(p)) return p.right === id;
  if (ts.isPropertyAssignment(p) || ts.isMethodDeclaration(p) || ts.isPropertyDeclaration(p) || ts.isPropertySignature(p) || ts.isMethodSignature(p) || ts.isGetAccessor(p) || ts.isSetAccessor(p)) {
    return p.name === id;
  }
  return false;
}
