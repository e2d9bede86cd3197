/**
 * capability-branches — keeps the legacy code's capability fallback, reading the per-request
 * capabilities of 2026-07-28 requests.
 *
 * Before (inside a handler being ported):
 *   if (server.server.getClientCapabilities()?.elicitation) { const answer = await ctx.mcpReq.elicitInput(…); … }
 *   else { return useDefault(); }
 * After:
 *   const clientCapabilities = ((ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ?? server.server.getClientCapabilities();
 *   if (clientCapabilities?.elicitation) { …two-pass ask… } else { return useDefault(); }
 * plus a `capability-fallback` marker to review. The envelope is typed `{}` in server 2.4.0, hence
 * the cast (TS7053 otherwise); on 2025 connections there is no envelope and the connection-level
 * capabilities still answer.
 *
 * Does not: touch capability checks outside an `if` that holds an ask of a handler being ported,
 * or checks written another way (`'elicitation' in caps`); those stay as written.
 */
import { memberChain, walk, type Node } from './lib/ast.js';
import { addMarker, type PortContext } from './lib/context.js';
import type { HandlerScope } from './lib/handlers.js';
import { runAsJscodeshift, type FileInfo } from './lib/jscodeshift-module.js';
import { NameScope } from './lib/names.js';

const CAPABILITY_GETTER = 'getClientCapabilities';

/** Rewrites the capability reads in the `if` tests that hold asks of a handler being ported. */
export function capabilityEdits(ctx: PortContext, scope: HandlerScope, ctxName: string, askTops: readonly Node[], names: NameScope): void {
  if (!ctx.enabled.capabilityBranches) return;
  const { src } = ctx;
  const semi = src.style.semi;
  for (const top of new Set(askTops)) {
    if (top.type !== 'IfStatement' || !scope.statements.includes(top)) continue;
    const getters: Node[] = [];
    walk(top.test as Node, (n) => {
      if (n.type === 'CallExpression' && memberChain(n.callee as Node).at(-1) === CAPABILITY_GETTER && (n.arguments as Node[]).length === 0) getters.push(n);
    });
    if (getters.length === 0) continue;
    const caps = names.fresh('clientCapabilities');
    const fallback = src.slice(getters[0].start, getters[0].end);
    const at = top.start;
    const indent = src.indentAt(top.start);
    const perRequest = ctx.typed
      ? `(${ctxName}.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined`
      : `${ctxName}.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY]`;
    const declaration = `const ${caps} = (${perRequest}) ?? ${fallback}${semi}`;
    ctx.edits.push({ start: at, end: at, text: declaration + src.style.eol + indent, order: 1 });
    for (const g of getters) ctx.edits.push({ start: g.start, end: g.end, text: caps });
    addMarker(ctx, top, 'capability-fallback');
  }
}

export const parser = 'ts';

/** jscodeshift module: capability branches only make sense while their asks are ported, so the engine runs too. */
export default function transformer(file: FileInfo, _api: unknown, options: Record<string, unknown> = {}): string | undefined {
  return runAsJscodeshift(file, options, { twoPass: true, capabilityBranches: true, retireRoots: false, urlElicitation: false, imports: true });
}
