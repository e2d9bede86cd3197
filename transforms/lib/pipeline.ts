/**
 * One file through the port: prefilter, parse once, run the transforms in order on that parse
 * (their edits are spliced into the original text), then add the imports the new code needs, found
 * from that same parse (see imports-from-first-parse.ts; a file it cannot be sure of is parsed again).
 * The order is explained in transforms/index.ts.
 */
import { insertMarkers } from '../../src/port/markers.js';
import { mapLines } from '../../src/port/line-map.js';
import { PREFILTER_NAMES } from '../../src/vocabulary.js';
import { portHandlers } from '../two-pass-handlers.js';
import { retireRoots } from '../retire-roots.js';
import { addMissingImports } from '../imports.js';
import { portHelperAsks } from '../helper-asks.js';
import { parseProgram, parserFor, unwrap, type Node } from './ast.js';
import type { EnabledTransforms, PortContext, PortOptions, PortSourceResult, SiteInstruction } from './context.js';
import { findLegacyCalls, type LegacyCall } from './legacy-calls.js';
import { handlerReferences } from './handlers.js';
import { SourceText } from './source-text.js';
import { planImportsFromFirstParse } from './imports-from-first-parse.js';

export interface PortSourceInput {
  source: string;
  path: string;
  sites?: readonly SiteInstruction[];
  options: PortOptions;
}

/** How the imports are found: from the transforms' parse (default), or by parsing their output again. */
export interface ImportPass {
  mode?: 'first-parse' | 'reparse';
  /** Called when the first-parse way cannot be sure of a file and it is parsed again. */
  onReparse?: (path: string, reason: string) => void;
}

export function portSourceWith(input: PortSourceInput, enabled: EnabledTransforms, importPass: ImportPass = {}): PortSourceResult {
  const unchanged: PortSourceResult = { source: input.source, changed: false, markers: [], notes: [] };
  if (!PREFILTER_NAMES.some((name) => input.source.includes(name)) && !(enabled.imports && onlyImports(enabled))) return unchanged;

  const src = new SourceText(input.source);
  const parser = parserFor(input.path);
  let program: Node;
  try {
    program = parseProgram(src.text, parser);
  } catch (error) {
    throw new Error(`${input.path}: cannot parse (${(error as Error).message}); file left unchanged`);
  }
  const instructionOf = instructionLookup(input.sites);
  // with the analyzer's sites, only what it reported is a site (it knows client-side code, SDK internals, …)
  const calls = findLegacyCalls(program).filter((call) => !input.sites || instructionOf(call) !== undefined);
  const ctx: PortContext = {
    src,
    typed: /\.[mc]?tsx?$/.test(input.path),
    program,
    options: input.options,
    enabled,
    calls,
    instructionOf,
    references: handlerReferences(program),
    consumed: new Set(),
    edits: [],
    markers: [],
    notes: [],
  };
  retireRoots(ctx);
  if (enabled.twoPass || enabled.urlElicitation) {
    const helpers = portHandlers(ctx);
    portHelperAsks(ctx, helpers);
  }

  let source: string;
  try {
    source = ctx.edits.length > 0 ? src.apply(ctx.edits) : input.source;
  } catch (error) {
    // two rewrites claimed the same text (e.g. a roots call inside an ask's params): refuse the file whole
    throw new Error(`${input.path}: the transforms produced conflicting edits (${(error as Error).message}); file left unchanged`);
  }
  if (enabled.imports && (ctx.edits.length > 0 || onlyImports(enabled))) {
    const plan = importPass.mode === 'reparse' ? { fallback: 'asked to parse again' } : planImportsFromFirstParse(src, program, ctx.edits, source, input.options);
    if ('edits' in plan) {
      if (plan.edits.length > 0) source = src.apply([...ctx.edits, ...plan.edits]);
    } else {
      if (importPass.mode !== 'reparse') importPass.onReparse?.(input.path, plan.fallback);
      source = addMissingImports(source, parser, input.options);
    }
  }
  ctx.markers.sort((a, b) => a.line - b.line || a.reason.localeCompare(b.reason));
  return { source, changed: source !== input.source, markers: ctx.markers, notes: ctx.notes };
}

/** portSource plus the markers inserted at the output lines of their statements. */
export function applyPortSourceWith(input: PortSourceInput, enabled: EnabledTransforms, importPass: ImportPass = {}): string {
  const result = portSourceWith(input, enabled, importPass);
  if (result.markers.length === 0) return result.source;
  const toOutput = mapLines(input.source, result.source);
  return insertMarkers(
    result.source,
    result.markers.map((m) => ({ line: toOutput(m.line), reason: m.reason, message: m.message })),
  );
}

function onlyImports(enabled: EnabledTransforms): boolean {
  return !enabled.twoPass && !enabled.urlElicitation && !enabled.retireRoots && !enabled.capabilityBranches;
}

/** Matches analyzer sites to calls by their original line and column (call, `await` or `throw` start). */
function instructionLookup(sites: readonly SiteInstruction[] | undefined): (call: LegacyCall) => SiteInstruction | undefined {
  if (!sites) return () => undefined;
  const byPosition = new Map<string, SiteInstruction>();
  for (const s of sites) byPosition.set(`${s.line}:${s.column}`, s);
  return (call) => {
    const candidates: Node[] = [call.node];
    const parent = call.ancestors[call.ancestors.length - 1];
    if (parent?.type === 'AwaitExpression') candidates.push(parent);
    if (call.node.type === 'ThrowStatement') candidates.push(unwrap(call.node.argument as Node));
    for (const n of candidates) {
      const hit = byPosition.get(`${n.loc.start.line}:${n.loc.start.column + 1}`);
      if (hit) return hit;
    }
    const sameLine = sites.filter((s) => s.line === call.node.loc.start.line);
    return sameLine.length === 1 ? sameLine[0] : undefined;
  };
}

/** The continuation module path in the file's relative-import style (`.js` suffix or none). */
export function defaultContinuationImport(source: string): string {
  const relative = [...source.matchAll(/from\s+['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]);
  const suffixless = relative.length > 0 && relative.every((spec) => !/\.[mc]?[jt]sx?$/.test(spec));
  return suffixless ? './mrtr-continuation' : './mrtr-continuation.js';
}
