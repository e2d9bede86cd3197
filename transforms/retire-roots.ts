/**
 * retire-roots — the default for roots (`--roots config`): no round at all, roots come from
 * configuration (`MCP_ALLOWED_ROOTS`), shaped like the legacy `ListRootsResult` so the code after
 * the call reads it unchanged. Roots are deprecated in 2026-07-28 (SEP-2577), and asking for them on
 * every call costs a round trip.
 *
 * Before:  const { roots } = await server.server.listRoots();
 * After:   /* @mrtr-port-todo(roots-retired): … *\/
 *          const { roots } = rootsFromConfig();
 * (`ctx.mcpReq.send({ method: 'roots/list' })` and the v1 shapes alike; a call that is not awaited
 * becomes `Promise.resolve(rootsFromConfig())`.)
 *
 * A legacy gate on the client's roots capability goes with it (lib/roots-gates.ts): it asks the
 * configuration instead, so configured roots are used for clients that declare none, and the fallback
 * still runs when no roots are configured.
 *   if (server.server.getClientCapabilities()?.roots) { … }  →  if (rootsFromConfig().roots.length > 0) { … }
 *
 * Does not: run with `--roots ask` (the two-pass engine asks with `inputRequired.listRoots()` then),
 * or touch a roots request the analyzer did not call `auto` (it gets that reason's marker).
 */
import { RUNTIME_ENV } from '../src/vocabulary.js';
import { unwrap, type Node } from './lib/ast.js';
import { addMarker, statementOf, type PortContext } from './lib/context.js';
import { runAsJscodeshift, type FileInfo } from './lib/jscodeshift-module.js';
import type { LegacyCall } from './lib/legacy-calls.js';
import { rootsGateEdits, unusedCapabilityDeclarations } from './lib/roots-gates.js';

const WRAPPERS = new Set(['ParenthesizedExpression', 'TSAsExpression', 'TSSatisfiesExpression', 'TSNonNullExpression', 'TSTypeAssertion']);

export function retireRoots(ctx: PortContext): void {
  if (!ctx.enabled.retireRoots || ctx.options.roots !== 'config') return;
  const retired: LegacyCall[] = [];
  for (const call of ctx.calls) {
    if (call.kind !== 'roots' || ctx.consumed.has(call)) continue;
    ctx.consumed.add(call);
    const statement = statementOf(call.node, call.ancestors);
    const instruction = ctx.instructionOf(call);
    if (instruction && instruction.portability !== 'auto') {
      if (instruction.portability !== 'guarded') for (const reason of instruction.reasons) addMarker(ctx, statement, reason);
      continue;
    }
    let k = call.ancestors.length - 1;
    while (k >= 0 && WRAPPERS.has(call.ancestors[k].type)) k--;
    const parent = call.ancestors[k];
    const awaited = parent?.type === 'AwaitExpression' && unwrap(parent.argument as Node) === call.node;
    const target = awaited ? parent : call.node;
    ctx.edits.push({ start: target.start, end: target.end, text: awaited ? 'rootsFromConfig()' : 'Promise.resolve(rootsFromConfig())' });
    addMarker(ctx, statement, 'roots-retired');
    ctx.notes.push(`retired roots/list at line ${call.node.loc.start.line} to ${RUNTIME_ENV.roots}`);
    retired.push(call);
    for (const gate of rootsGateEdits(ctx.program, call.node, call.ancestors)) {
      // two retired calls under one gate: rewrite it once
      if (ctx.edits.some((e) => e.start === gate.start && e.end === gate.end)) continue;
      ctx.edits.push(gate);
      ctx.notes.push(`the roots capability gate at line ${lineAt(ctx, gate.start)} now checks ${RUNTIME_ENV.roots}`);
    }
  }
  for (const call of retired) {
    for (const removal of unusedCapabilityDeclarations(ctx.program, call.node, call.ancestors, ctx.edits, ctx.src.text)) {
      if (!ctx.edits.some((e) => e.start === removal.start && e.end === removal.end)) ctx.edits.push(removal);
    }
  }
}

function lineAt(ctx: PortContext, offset: number): number {
  return ctx.src.text.slice(0, offset).split('\n').length;
}

export const parser = 'ts';

/** jscodeshift module: roots retired to configuration, nothing else. */
export default function transformer(file: FileInfo, _api: unknown, options: Record<string, unknown> = {}): string | undefined {
  return runAsJscodeshift(file, options, { resumable: false, retireRoots: true, imports: true });
}
