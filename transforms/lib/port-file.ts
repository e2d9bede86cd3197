/**
 * One file through the port engine: its plan (the analyzer's, or made here by analyzing the file
 * alone) → the edits of `resumable-handlers` on a TypeScript parse of the text → roots retired to
 * configuration (`retire-roots`, on a Babel parse, only when the plan lists some) → the imports the
 * new code uses → one splice of every edit into the original text. Markers are returned with their
 * original lines (the caller inserts them: `applyPortFile`).
 */
import { dirname, resolve } from 'node:path';
import ts from 'typescript';
import { analyze } from '../../src/analyzer/index.js';
import type { FilePlan } from '../../src/analyzer/plan/model.js';
import { insertMarkers } from '../../src/port/markers.js';
import { mapLines } from '../../src/port/line-map.js';
import { isCommonJs, moduleImportEdits } from '../imports.js';
import { retireRoots } from '../retire-roots.js';
import { resumableEdits } from './plan-edits.js';
import { parseProgram, parserFor } from './ast.js';
import type { MarkerAt, PortContext, PortOptions, PortSourceResult } from './context.js';
import { findLegacyCalls } from './legacy-calls.js';
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

const SCRIPT_KINDS: Readonly<Record<string, ts.ScriptKind>> = { ts: ts.ScriptKind.TS, tsx: ts.ScriptKind.TSX, js: ts.ScriptKind.JS, jsx: ts.ScriptKind.JSX };

export function portFile(input: PortFileInput): PortSourceResult {
  const unchanged: PortSourceResult = { source: input.source, changed: false, markers: [], notes: [] };
  const plan = input.plan === undefined ? planOfFileAlone(input) : input.plan;
  if (!plan) return unchanged;
  const src = new SourceText(input.source);
  const sf = input.tree && input.tree.text === src.text ? input.tree : parseTs(input.path, src.text);
  const edits: Edit[] = resumableEdits(src, sf, plan, input.path);
  const markers: MarkerAt[] = plan.markers.map((m) => ({ line: m.line, reason: m.reason, message: m.message }));
  const notes: string[] = [...plan.notes];

  let retired = false;
  if (plan.retiredRoots.length > 0 && input.options.roots === 'config') {
    const roots = retiredRootsEdits(src, input.path, plan, input.options);
    edits.push(...roots.edits);
    markers.push(...roots.markers);
    notes.push(...roots.notes);
    retired = roots.edits.length > 0;
  }

  const cjs = input.options.module ? input.options.module === 'cjs' : isCommonJs(input.path, sf);
  if (plan.runtimeImports.length > 0 && edits.length > 0) {
    edits.push(...moduleImportEdits(sf, src.style, flowModule(input.options), plan.runtimeImports, cjs));
  }
  if (retired) edits.push(...moduleImportEdits(sf, src.style, continuationModuleOf(input.options), [{ name: 'rootsFromConfig', local: 'rootsFromConfig' }], cjs));

  let source: string;
  try {
    source = edits.length > 0 ? src.apply(edits) : input.source;
  } catch (error) {
    throw new Error(`${input.path}: the plan's edits overlap (${(error as Error).message}); file left unchanged`);
  }
  markers.sort((a, b) => a.line - b.line || a.reason.localeCompare(b.reason));
  return { source, changed: source !== input.source, markers, notes };
}

/** `portFile` with its markers inserted above their statements in the output. */
export function applyPortFile(input: PortFileInput): string {
  const result = portFile(input);
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
  return ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, SCRIPT_KINDS[ext] ?? ts.ScriptKind.TS);
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
  const calls = findLegacyCalls(program).filter((c) => c.kind === 'roots' && starts.has(c.node.start));
  if (calls.length !== plan.retiredRoots.length) throw new Error(`${path}: the plan's roots requests are not where it says; file left unchanged`);
  const ctx: PortContext = {
    src,
    typed: /\.[mc]?tsx?$/.test(path),
    program,
    options,
    enabled: { retireRoots: true, capabilityBranches: false, twoPass: false, urlElicitation: false, imports: false },
    calls,
    instructionOf: () => ({ line: 0, column: 0, portability: 'auto', reasons: [] }),
    references: new Map(),
    consumed: new Set(),
    edits: [],
    markers: [],
    notes: [],
  };
  retireRoots(ctx);
  return { edits: ctx.edits, markers: ctx.markers, notes: ctx.notes };
}
