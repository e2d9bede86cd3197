/**
 * One file through the port engine: its plan (the analyzer's, or made here by analyzing the file
 * alone) → the edits of `resumable-handlers` on a TypeScript parse of the text → roots retired to
 * configuration (`retire-roots`, on a Babel parse, only when the plan lists some) → the imports the
 * new code uses → one splice of every edit into the original text. Markers are returned with their
 * original lines (the caller inserts them: `applyPortFile`).
 */
import { dirname, resolve } from 'node:path';
import ts from '../../src/typescript.cjs';
import { analyze } from '../../src/analyzer/index.js';
import type { FilePlan } from '../../src/analyzer/plan/model.js';
import { insertMarkers } from '../../src/port/markers.js';
import { mapLines } from '../../src/port/line-map.js';
import { isCommonJs, moduleImportEdits, unboundRuntimeNames } from '../imports.js';
import { retireRoots } from '../retire-roots.js';
import { resumableEdits } from './plan-edits.js';
import { memberChain, parseProgram, parserFor, walk, type Node } from './ast.js';
import { ALL_TRANSFORMS, type EnabledTransforms, type MarkerAt, type PortContext, type PortOptions, type PortSourceResult } from './context.js';
import { findLegacyCalls, type LegacyCall } from './legacy-calls.js';
import { SourceText, type Edit } from './source-text.js';

export interface PortFileInput {
  source: string;
  /** The file's path (its extension picks the parser and the module syntax). */
  path: string;
  /** The analyzer's plan of this file; `null`: it has nothing to port; omitted: analyze the file alone. */
  plan?: FilePlan | null;
  options: PortOptions;
  /** A TypeScript parse of `source` (the analyzer's), reused when it is of exactly this text. */
  tree?: ts.SourceFile;
}

// read on use: a compiler value at module level would load the compiler when this module is imported
const scriptKind = (ext: string): ts.ScriptKind =>
  ({ ts: ts.ScriptKind.TS, tsx: ts.ScriptKind.TSX, js: ts.ScriptKind.JS, jsx: ts.ScriptKind.JSX })[ext] ?? ts.ScriptKind.TS;

export function portFile(input: PortFileInput, enabled: EnabledTransforms = ALL_TRANSFORMS): PortSourceResult {
  const unchanged: PortSourceResult = { source: input.source, changed: false, markers: [], notes: [] };
  const src = new SourceText(input.source);
  const parse = (): ts.SourceFile => (input.tree && input.tree.text === src.text ? input.tree : parseTs(input.path, src.text));
  if (!enabled.resumable && !enabled.retireRoots) return enabled.imports ? importsOnly(input, src, parse()) : unchanged;
  const plan = input.plan === undefined ? planOfFileAlone(input) : input.plan;
  if (!plan) return unchanged;
  const sf = parse();
  const edits: Edit[] = [];
  const markers: MarkerAt[] = [];
  const notes: string[] = [];
  if (enabled.resumable) {
    // the unread declarations' last reads may be in retired roots requests: edit them only when those go too
    const rootsGo = plan.retiredRoots.length === 0 || (enabled.retireRoots && input.options.roots === 'config');
    edits.push(...resumableEdits(src, sf, plan, input.path, rootsGo));
    markers.push(...plan.markers.map((m) => ({ line: m.line, reason: m.reason, message: m.message })));
    notes.push(...plan.notes);
  }
  let retired = false;
  if (enabled.retireRoots && plan.retiredRoots.length > 0 && input.options.roots === 'config') {
    const roots = retiredRootsEdits(src, input.path, plan, input.options);
    edits.push(...roots.edits);
    markers.push(...roots.markers);
    notes.push(...roots.notes);
    retired = roots.edits.length > 0;
  }
  if (enabled.imports) {
    const cjs = commonJs(input, sf);
    const runtimeNames = enabled.resumable && edits.length > 0 ? plan.runtimeImports : [];
    edits.push(...moduleImportEdits(sf, src.style, flowModule(input.options), runtimeNames, cjs));
    if (retired) edits.push(...moduleImportEdits(sf, src.style, continuationModuleOf(input.options), [{ name: 'rootsFromConfig', local: 'rootsFromConfig' }], cjs));
  }

  let source: string;
  try {
    source = edits.length > 0 ? src.apply(edits) : input.source;
  } catch (error) {
    throw new Error(`${input.path}: the plan's edits overlap (${(error as Error).message}); file left unchanged`);
  }
  markers.sort((a, b) => a.line - b.line || a.reason.localeCompare(b.reason));
  return { source, changed: source !== input.source, markers, notes };
}

/** Imports alone: the runtime names the file calls without binding them. */
function importsOnly(input: PortFileInput, src: SourceText, sf: ts.SourceFile): PortSourceResult {
  const edits = moduleImportEdits(sf, src.style, flowModule(input.options), unboundRuntimeNames(sf), commonJs(input, sf));
  const source = edits.length > 0 ? src.apply(edits) : input.source;
  return { source, changed: source !== input.source, markers: [], notes: [] };
}

function commonJs(input: PortFileInput, sf: ts.SourceFile): boolean {
  return input.options.module ? input.options.module === 'cjs' : isCommonJs(input.path, sf);
}

/** `portFile` with its markers inserted above their statements in the output. */
export function applyPortFile(input: PortFileInput, enabled: EnabledTransforms = ALL_TRANSFORMS): string {
  const result = portFile(input, enabled);
  if (result.markers.length === 0) return result.source;
  const toOutput = mapLines(input.source, result.source);
  return insertMarkers(result.source, result.markers.map((m) => ({ line: toOutput(m.line), reason: m.reason, message: m.message })));
}

/** The plan of a file analyzed on its own (jscodeshift, tests): helpers in other files are not followed. */
export function planOfFileAlone(input: { source: string; path: string; options: PortOptions }): FilePlan | null {
  const abs = resolve(input.path);
  const result = analyze({ cwd: dirname(abs), files: [abs], texts: new Map([[abs, input.source]]), plan: { roots: input.options.roots } });
  const problem = result.report.files.skipped.find((s) => resolve(dirname(abs), s.file) === abs);
  if (problem) throw new Error(`${input.path}: ${problem.reason}; file left unchanged`);
  return result.plans?.[0] ?? null;
}

function parseTs(path: string, text: string): ts.SourceFile {
  const ext = /\.([cm]?)([jt]sx?)$/.exec(path)?.[2] ?? 'ts';
  return ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, scriptKind(ext));
}

/** The flow runtime's specifier: the option, or the continuation's with `mrtr-flow` for its name. */
export function flowModule(options: PortOptions): string {
  if (options.flowImport) return options.flowImport;
  return options.continuationImport.replace(/mrtr-continuation(-sdk)?(?=(\.[cm]?[jt]s)?$)/, 'mrtr-flow');
}

/** The continuation module for the chosen codec (`--codec sdk` uses the SDK-codec variant). */
function continuationModuleOf(options: PortOptions): string {
  const spec = options.continuationImport;
  if (options.codec !== 'sdk' || /-sdk(\.[cm]?[jt]s)?$/.test(spec)) return spec;
  return /\.[mc]?[jt]s$/.test(spec) ? spec.replace(/(\.[mc]?[jt]s)$/, '-sdk$1') : `${spec}-sdk`;
}

/** retire-roots on the roots requests the plan hands it (a Babel parse of the same text: same offsets). */
function retiredRootsEdits(src: SourceText, path: string, plan: FilePlan, options: PortOptions): { edits: Edit[]; markers: MarkerAt[]; notes: string[] } {
  const program = parseProgram(src.text, parserFor(path));
  const starts = new Set(plan.retiredRoots.map((r) => r.start));
  // the plan's positions decide, not the vocabulary: the analyzer follows receivers by flow
  // (`this.low.listRoots()`, `ha.context.samplingServer!.listRoots()`) that the Babel matcher does not know
  const known = new Map(findLegacyCalls(program).filter((c) => c.kind === 'roots').map((c) => [c.node.start as number, c]));
  const byStart = new Map<number, LegacyCall>();
  walk(program, (node, ancestors) => {
    if (node.type !== 'CallExpression' && node.type !== 'OptionalCallExpression') return;
    const start = node.start as number;
    if (!starts.has(start) || known.has(start)) return;
    // calls sharing a start (`x.listRoots().then(…)`): the one whose callee is the roots method, innermost last
    if (memberChain(node.callee as Node).at(-1) === 'listRoots') byStart.set(start, { node, kind: 'roots', form: 'listRoots', ancestors: [...ancestors] });
  });
  const calls = [...starts].flatMap((start) => known.get(start) ?? byStart.get(start) ?? []).sort((a, b) => (a.node.start as number) - (b.node.start as number));
  if (calls.length !== plan.retiredRoots.length) throw new Error(`${path}: the plan's roots requests are not where it says; file left unchanged`);
  const ctx: PortContext = {
    src,
    typed: /\.[mc]?tsx?$/.test(path),
    program,
    options,
    enabled: { resumable: false, retireRoots: true, imports: false },
    calls,
    instructionOf: () => ({ portability: 'auto', reasons: [] }),
    consumed: new Set(),
    edits: [],
    markers: [],
    notes: [],
  };
  retireRoots(ctx);
  return { edits: ctx.edits, markers: ctx.markers, notes: ctx.notes };
}

/** The continuation module path in the file's relative-import style (`.js` suffix or none), when the runner did not say. */
export function defaultContinuationImport(source: string): string {
  const relative = [...source.matchAll(/from\s+['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]);
  const suffixless = relative.length > 0 && relative.every((spec) => !/\.[mc]?[jt]sx?$/.test(spec));
  return suffixless ? './mrtr-continuation' : './mrtr-continuation.js';
}
