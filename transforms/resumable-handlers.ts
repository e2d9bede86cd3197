/**
 * resumable-handlers — applies the analyzer's plan (docs/engine.md) to one file: the legacy handler
 * keeps its body and runs once across rounds on the runtime (`mrtr-flow`).
 *
 * Before:
 *   server.registerTool('refund', cfg, async ({ orderId }, ctx) => {
 *     const order = await orders.get(orderId);
 *     const answer = await ctx.mcpReq.elicitInput({ message: `Refund ${order.total}?`, requestedSchema });
 *     …
 *   });
 * After:
 *   server.registerTool('refund', cfg, resumable('refund', async ({ orderId }, ctx) => {
 *     const order = await once(() => orders.get(orderId));
 *     const answer = await elicit({ message: `Refund ${order.total}?`, requestedSchema });
 *     …
 *   }));
 *
 * Every edit is a splice at an exact offset of the original text (without its BOM): the registration
 * argument wrapped, each ask's callee and options replaced around its kept argument, each memoized
 * expression wrapped in `await once(() => …)`, guards inserted at the start of catch and finally
 * blocks. Nothing else moves, so comments, quotes, semicolons and line endings keep their bytes.
 * Each position is checked against a TypeScript parse first; a mismatch refuses the file.
 *
 * As a jscodeshift module it analyzes the file alone to make its plan (no cross-file helpers).
 */
import { runAsJscodeshift, type FileInfo } from './lib/jscodeshift-module.js';

export { resumableEdits } from './lib/plan-edits.js';

export const parser = 'ts';

/** jscodeshift module: the port of the file alone (its plan made by the analyzer on that file). */
export default function transformer(file: FileInfo, _api: unknown, options: Record<string, unknown> = {}): string | undefined {
  return runAsJscodeshift(file, options, { resumable: true, retireRoots: false, imports: true });
}
