/**
 * The analyzer's programmatic API: finds every legacy server→client request in the given files,
 * attributes each to the request handler that reaches it, and classifies its portability.
 *
 * Pipeline: plain-text prefilter → parse only files that name the legacy vocabulary (pass 1) →
 * parse files that name a function, class or module leading to a site, until nothing new turns up
 * (pass 2) → walk each site out to its entry points → one verdict per site → the JSON report.
 * Synchronous; no type checker; bare TypeScript ASTs with parent pointers.
 */
import { resolve } from 'node:path';
import ts from '../typescript.cjs';
import { memberChain, outerParent, owningClass, position, unwrap } from './ast.js';
import { detectSites, isServerSide, siteOfConfirmed, type RawSite, type UndecidedCall } from './detect.js';
import { classifyRoute, classifyRoutes } from './classify.js';
import type { FileIndex } from './file-index.js';
import type { AnalysisReport, EntryRoute, HandlerRef, Portability, SdkEra, Site, ViaStep } from './model.js';
import { REASONS, type ReasonId } from './reasons.js';
import { leadNames, type HandedOn } from './leads.js';
import { resolveBinding } from './bindings.js';
import { calledFunction, instanceMethodFunction } from './functions.js';
import { mentionsLegacyVocabulary, wordMatcher } from './prefilter.js';
import { prepareDeclarations } from './types.js';
import { Project } from './project.js';
import { ReceiverResolver } from './receivers.js';
import { isProtocolServerCall } from './type-evidence.js';
import { Reach, type HandlerEnd, type Route } from './reach.js';
import { isSourcePath } from './source.js';
import { buildPlans, type FilePlan, type PlanOptions } from './plan/index.js';
import type { HandlerKind } from '../vocabulary.js';

export type { AnalysisReport, EntryRoute, HandlerRef, Site, SkippedFile, ViaStep, Portability, SdkEra } from './model.js';
export type { HandlerEnd, Registration, Route, RouteEnd, ViaFunction } from './reach.js';
export type { RawSite } from './detect.js';
export type { FileIndex } from './file-index.js';
export { Project } from './project.js';
export { REASONS, isReasonId, type ReasonId } from './reasons.js';
export type { FilePlan, PlanOptions } from './plan/index.js';

export interface AnalyzeOptions {
  cwd: string;
  /** Absolute paths, already discovered. */
  files: readonly string[];
  /** Called once per file the analyzer parses (tests use it to prove the prefilter). */
  onParse?: (file: string) => void;
  /** Texts already in memory, by absolute path (`port` reads every file once); others are read from disk. */
  texts?: ReadonlyMap<string, string>;
  /** Called with each file's tree once it is parsed and indexed (`port` reuses them instead of parsing again). */
  onTree?: (file: string, sf: ts.SourceFile) => void;
  /** How the port's plan is made (docs/engine.md); the verdicts are the plan's. Default: roots from configuration. */
  plan?: PlanOptions;
}

export interface HandlerEntry {
  file: string;
  kind: HandlerKind;
  name: string | null;
  /** Char offsets of the handler function in its file (start after leading trivia). */
  start: number;
  end: number;
  siteIndexes: number[];
}

export interface AnalyzeResult {
  /** `files.skipped` includes files that failed to parse: `{ file, reason: 'parse-error: <message> (line:col)' }`. */
  report: AnalysisReport;
  /** Per handler that reaches sites: the handler function's range, so `port` can find it in another AST. */
  handlers: HandlerEntry[];
  /** What the port edits (or marks) in each file that has something to port or mark. */
  plans: FilePlan[];
}

/**
 * Gets the type checker's declarations ready for an analysis of `files` that has not started yet (the
 * port calls it while the v1 migration runs on another thread): the ones the analysis will read first
 * (those naming the legacy vocabulary) decide the options, their imports which packages. `texts`: the
 * files' contents as read.
 */
export function prepareTypeDeclarations(options: { cwd: string; files: readonly string[]; texts: ReadonlyMap<string, string> }): void {
  const roots = options.files.filter((f) => isSourcePath(f) && mentionsLegacyVocabulary(options.texts.get(f) ?? ''));
  prepareDeclarations(options.cwd, roots, options.texts);
}

export function analyze(options: AnalyzeOptions): AnalyzeResult {
  const { found, project, scanned } = findSites(options);
  // the shape between each handler and its asks is the plan's to judge: its verdicts are the sites'
  // (a site no request can reach, or one already dual-era, keeps the analyzer's verdict)
  const planned = buildPlans(found, project, options.plan);
  for (const f of found) {
    const verdict = planned.verdicts.get(f.site);
    if (verdict && (f.site.portability === 'auto' || f.site.portability === 'manual')) {
      Object.assign(f.site, verdict);
      judgeHandlerEntries(f.site, planned.routeVerdicts.get(f.site) ?? []);
    }
  }
  const sites = found.map((f) => f.site);
  const summary = { sites: sites.length, auto: 0, manual: 0, unportable: 0, guarded: 0 };
  for (const s of sites) summary[s.portability]++;
  const skipped = [...project.skipped].sort((a, b) => compare(a.file, b.file));
  return {
    report: { tool: 'mrtr-port', version: 1, files: { scanned, skipped, ...typeChecked(project) }, sites, summary },
    handlers: handlerEntries(found.map((f) => f.routes)),
    plans: planned.plans,
  };
}

/**
 * Every site with its verdict and the routes that reach it, sorted by file and position, and the
 * project that parsed them (trees, imports, the type checker). What `analyze()` reports and the
 * port's plan is built from.
 */
export function findSites(options: AnalyzeOptions): { found: Found[]; project: Project; scanned: number } {
  // absolute paths are the contract; a relative one is taken against cwd rather than misreported
  const files = [...new Set(options.files.map((f) => resolve(options.cwd, f)))];
  const project = new Project(options.cwd, files, options.onParse, options.texts, options.onTree);
  const sources = files.filter(isSourcePath);

  // pass 1: files that name the legacy vocabulary
  for (const file of sources) {
    const text = project.text(file);
    if (text !== undefined && mentionsLegacyVocabulary(text)) project.get(file);
  }
  recognizeSites(project);
  // pass 2: files that name what leads to a site, until nothing new turns up
  const leads = new Set<string>();
  let fresh = new Set<string>();
  const handedOn = storedCallbackLeads(project, leads, fresh);
  for (const index of project.parsed()) for (const site of index.sites) addLeads(site.node, index, leads, fresh, handedOn);
  while (fresh.size > 0) {
    const matcher = wordMatcher(fresh);
    fresh = new Set();
    if (!matcher) break;
    const added: FileIndex[] = [];
    for (const file of sources) {
      if (project.isParsed(file)) continue;
      const text = project.text(file);
      if (text === undefined || !matcher.test(text)) continue;
      const index = project.get(file);
      if (index) added.push(index);
    }
    for (const index of added) {
      for (const name of leads) {
        for (const ref of [...(index.identRefs.get(name) ?? []), ...(index.propRefs.get(name) ?? [])]) addLeads(ref, index, leads, fresh, handedOn);
      }
    }
  }

  project.dropTexts();
  const reach = new Reach(project);
  const found: Found[] = [];
  for (const index of project.parsed()) {
    if (isClientOnly(index)) continue;
    try {
      found.push(...sitesOf(index, project, reach));
    } catch (err) {
      // a shape the walker does not expect must not sink the whole run: report the file, keep the rest
      project.skipped.push({ file: index.rel, reason: `analyzer-error: ${(err as Error).message}` });
    }
  }
  found.sort((a, b) => compare(a.site.file, b.site.file) || a.site.line - b.site.line || a.site.column - b.site.column);
  return { found, project, scanned: files.length };
}

/**
 * The sites of the files pass 1 parsed: by the call's spelling, then by following the receiver's
 * value; what neither decides goes to the type checker (built only if some call needs it).
 */
function recognizeSites(project: Project): void {
  const resolver = new ReceiverResolver(project);
  const evidence = {
    flow: (receiver: ts.Expression, index: FileIndex) => resolver.role(receiver, index),
    returnedMethod: (call: ts.CallExpression, index: FileIndex) => resolver.returnedMethod(call, index),
    ownsMethod: (receiver: ts.Expression, name: string, index: FileIndex) => resolver.ownsMethod(receiver, name, index),
  };
  const undecided: Array<{ index: FileIndex; call: UndecidedCall }> = [];
  for (const index of project.parsed()) {
    const found = detectSites(index, evidence);
    index.sites = found.sites;
    if (isClientOnly(index)) continue;
    // JavaScript declares no types for the checker to read, and a program over bundled JS is costly
    if (!TYPED_SOURCE.test(index.file)) continue;
    for (const call of found.undecided) if (call.needs === 'server') undecided.push({ index, call });
  }
  for (const { index, call } of undecided) {
    const checker = project.typeChecker(index);
    if (!checker) break;
    if (!isProtocolServerCall(checker, call.call, call.receiver)) continue;
    const site = siteOfConfirmed(call, index);
    if (site) index.sites.push(site);
  }
  for (const index of project.parsed()) index.sites.sort((a, b) => a.node.pos - b.node.pos);
}

/** Files whose receivers can carry declared types (`.ts`, `.tsx`, `.mts`, `.cts`). */
const TYPED_SOURCE = /\.[cm]?tsx?$/;

function typeChecked(project: Project): { typeChecked?: number } {
  return project.typeCheckedFiles.size > 0 ? { typeChecked: project.typeCheckedFiles.size } : {};
}

function addLeads(node: ts.Node, index: FileIndex, leads: Set<string>, fresh: Set<string>, handedOn?: (index: FileIndex) => HandedOn): void {
  for (const name of leadNames(node, index, handedOn?.(index))) {
    if (name === 'constructor' || leads.has(name)) continue;
    leads.add(name);
    fresh.add(name);
  }
}

/**
 * A function on a site's path handed to a repo function that keeps it (`useSampler(fn)` storing it in
 * a module `let`, `reviewer.setAsker(fn)` in a field): the reads of what it is stored in are where it is
 * called, so they lead on (their exported functions name the next files to parse), in that function's file.
 */
function storedCallbackLeads(project: Project, leads: Set<string>, fresh: Set<string>): (index: FileIndex) => HandedOn {
  const done = new Set<ts.ParameterDeclaration>();
  const self = (index: FileIndex): HandedOn => (call, at) => {
    const target = calledFunction(call.expression, index, project) ?? instanceMethodFunction(call.expression, index, project);
    const param = target?.fn.parameters[at];
    if (!target || !param || param.dotDotDotToken || !ts.isIdentifier(param.name) || done.has(param)) return;
    done.add(param);
    for (const read of storedReads(target.fn, param as ts.ParameterDeclaration & { name: ts.Identifier }, target.file)) addLeads(read, target.file, leads, fresh, self);
  };
  return self;
}

/** The reads of the module `let`/`var` or `this` field that `fn` assigns its parameter `param` to. */
function storedReads(fn: ts.FunctionLikeDeclaration, param: ts.ParameterDeclaration & { name: ts.Identifier }, file: FileIndex): ts.Node[] {
  const name = param.name.text;
  const out: ts.Node[] = [];
  const isTarget = (n: ts.Node): boolean => {
    const o = outerParent(n);
    return !!o.parent && ts.isBinaryExpression(o.parent) && o.parent.operatorToken.kind === ts.SyntaxKind.EqualsToken && outerParent(o.parent.left) === o;
  };
  for (const use of file.identRefs.get(name) ?? []) {
    if (use.pos < fn.pos || use.end > fn.end || resolveBinding(use, name) !== param) continue;
    const assign = outerParent(use).parent;
    if (!assign || !ts.isBinaryExpression(assign) || assign.operatorToken.kind !== ts.SyntaxKind.EqualsToken || outerParent(assign.right) !== outerParent(use)) continue;
    const left = unwrap(assign.left);
    if (ts.isIdentifier(left)) {
      const decl = resolveBinding(left, left.text);
      if (!decl || !ts.isVariableDeclaration(decl) || decl.parent.flags & ts.NodeFlags.Const) continue;
      for (const id of file.identRefs.get(left.text) ?? []) if (id !== left && !isTarget(id) && resolveBinding(id, left.text) === decl) out.push(id);
    } else if (ts.isPropertyAccessExpression(left) && left.expression.kind === ts.SyntaxKind.ThisKeyword) {
      for (const pa of file.propRefs.get(left.name.text) ?? []) if (pa !== left && pa.expression.kind === ts.SyntaxKind.ThisKeyword && !isTarget(pa)) out.push(pa);
    }
  }
  return out;
}

/** Each `handlers` entry a route of the plan reaches takes that route's verdict (routes to one entry merge: the worse verdict, reasons joined). */
function judgeHandlerEntries(site: Site, routes: readonly { end: HandlerEnd; verdict: { portability: Portability; reasons: ReasonId[] } }[]): void {
  const judged = new Set<EntryRoute>();
  for (const { end, verdict } of routes) {
    const ref = handlerRef(end);
    const entry = site.handlers?.find((h) => h.kind === ref.kind && h.name === ref.name && h.file === ref.file && h.line === ref.line);
    if (!entry) continue;
    if (!judged.has(entry)) {
      judged.add(entry);
      entry.portability = verdict.portability;
      entry.reasons = verdict.reasons;
      continue;
    }
    entry.reasons = REASON_IDS.filter((id) => entry.reasons.includes(id) || verdict.reasons.includes(id));
    if (PORTABILITY_RANK[verdict.portability] > PORTABILITY_RANK[entry.portability]) entry.portability = verdict.portability;
  }
}

/** One site as found: the report entry, the legacy call in its file, and the routes from it to eligible handlers. */
export interface Found {
  site: Site;
  /** The legacy call (`raw.call`) and the node its position is reported at (`raw.node`). */
  raw: RawSite;
  /** The parsed file holding the site. */
  file: FileIndex;
  /** Every route that reaches an eligible handler (its registration, the helpers crossed with their calls). */
  routes: Route[];
}

/** The sites of one file with their verdicts, and the handler routes that reach each. */
function sitesOf(index: FileIndex, project: Project, reach: Reach): Found[] {
  const out: Found[] = [];
  for (const raw of index.sites) {
    const routes = reach.routes(raw, index);
    const classified = classifyRoutes(routes);
    if (!classified) continue;
    // a task stream is a relay wherever it sits; the handler around it is still shown (and indexed,
    // so `port` sees a site there it must not rewrite)
    const verdict = raw.stream ? { ...classified, portability: 'unportable' as const, reasons: ['task-relay' as const] } : classified;
    const { line, column } = position(index.sf, raw.node);
    const shown = verdict.shown;
    const handler: HandlerRef | null = shown && shown.end.type === 'handler' ? handlerRef(shown.end) : null;
    let sdk = project.eraOf(index);
    if (sdk === 'unknown' && shown?.end.type === 'handler') sdk = project.eraOf(shown.end.file);
    if (sdk === 'unknown') sdk = eraOfForm(raw);
    out.push({
      site: {
        file: index.rel,
        line,
        column,
        kind: raw.kind,
        form: raw.form,
        sdk,
        handler,
        via: viaSteps(shown),
        portability: verdict.portability,
        reasons: verdict.reasons,
        handlers: entryRoutes(verdict.serverRoutes, raw.stream),
      },
      raw,
      file: index,
      routes: verdict.handlerRoutes,
    });
  }
  return out;
}

function handlerRef(end: HandlerEnd): HandlerRef {
  const ref: HandlerRef = { kind: end.kind, name: end.name, file: end.file.rel, line: position(end.file.sf, end.fn).line };
  if (end.framework) ref.framework = end.framework;
  return ref;
}

function viaSteps(route: Route | undefined): ViaStep[] {
  return (route?.via ?? []).map((v) => ({ function: qualifiedName(v.fn, v.name), file: v.file.rel, line: position(v.file.sf, v.fn).line }));
}

/** Each route's entry with that route's own verdict; routes to the same entry merge (reasons joined, the worse verdict kept). */
function entryRoutes(routes: readonly Route[], stream: boolean): EntryRoute[] {
  const byEntry = new Map<string, EntryRoute>();
  for (const route of routes) {
    const own = stream ? { portability: 'unportable' as const, reasons: ['task-relay' as const] } : classifyRoute(route);
    const end = route.end;
    let entry: EntryRoute;
    if (end.type === 'handler') {
      entry = { ...handlerRef(end), via: viaSteps(route), ...own };
    } else if (end.type === 'unportable') {
      entry = { kind: end.reason, name: null, file: end.file.rel, line: position(end.file.sf, end.at).line, via: viaSteps(route), ...own };
    } else {
      continue;
    }
    const key = `${entry.kind}\0${entry.name ?? ''}\0${entry.file}\0${entry.line}`;
    const seen = byEntry.get(key);
    if (!seen) {
      byEntry.set(key, entry);
    } else {
      seen.reasons = REASON_IDS.filter((id) => seen.reasons.includes(id) || entry.reasons.includes(id));
      if (PORTABILITY_RANK[entry.portability] > PORTABILITY_RANK[seen.portability]) seen.portability = entry.portability;
    }
  }
  return [...byEntry.values()].sort((a, b) => compare(a.file, b.file) || a.line - b.line || compare(String(a.kind), String(b.kind)) || compare(a.name ?? '', b.name ?? ''));
}

const REASON_IDS = Object.keys(REASONS) as ReasonId[];
/** Which verdict wins when routes to one entry disagree. */
const PORTABILITY_RANK: Readonly<Record<Portability, number>> = { guarded: 0, auto: 1, manual: 2, unportable: 3 };

/**
 * The era the call's own shape implies when imports do not say (the SDK imported by relative path):
 * `ctx.mcpReq.*` exists only in v2, `extra.sendRequest` only in v1.
 */
function eraOfForm(raw: RawSite): SdkEra {
  if (raw.form === 'sendRequest') return 'v1';
  return ts.isCallExpression(raw.call) && memberChain(raw.call.expression).includes('mcpReq') ? 'v2' : 'unknown';
}

/** `Class.method` for class members, the plain name otherwise. */
function qualifiedName(fn: ts.FunctionLikeDeclaration, name: string): string {
  const cls = owningClass(fn);
  return cls?.name ? `${cls.name.text}.${name}` : name;
}

/** A file that imports only the client side of the SDK: its handlers answer requests, never send them. */
function isClientOnly(index: FileIndex): boolean {
  return !isServerSide(index);
}

function handlerEntries(routesPerSite: Route[][]): HandlerEntry[] {
  const byKey = new Map<string, HandlerEntry>();
  routesPerSite.forEach((routes, siteIndex) => {
    for (const r of routes) {
      if (r.end.type !== 'handler') continue;
      const start = r.end.fn.getStart(r.end.file.sf);
      const key = `${r.end.file.rel}\0${start}\0${r.end.kind}\0${r.end.name ?? ''}`;
      let entry = byKey.get(key);
      if (!entry) {
        entry = { file: r.end.file.rel, kind: r.end.kind, name: r.end.name, start, end: r.end.fn.end, siteIndexes: [] };
        byKey.set(key, entry);
      }
      if (!entry.siteIndexes.includes(siteIndex)) entry.siteIndexes.push(siteIndex);
    }
  });
  return [...byKey.values()].sort((a, b) => compare(a.file, b.file) || a.start - b.start || compare(a.name ?? '', b.name ?? ''));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
