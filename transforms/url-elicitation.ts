/**
 * url-elicitation — URL-mode elicitation onto `inputRequired.elicitUrl`.
 *
 * Before:
 *   throw new UrlElicitationRequiredError([{ mode: 'url', message: 'Sign in', url, elicitationId: id }]);
 *   const done = await ctx.mcpReq.elicitInput({ mode: 'url', message: 'Pay', url, elicitationId: id });
 * After (inside the two-pass shape the engine writes):
 *   return inputRequired({ inputRequests: { urlElicitation: inputRequired.elicitUrl({ message: 'Sign in', url }) },
 *     requestState: await continuation.seal(ctx, { step: 'urlElicitation', bind, urlElicitationElicitationId: id }) });
 *   … inputRequests: { done: inputRequired.elicitUrl({ message: 'Pay', url }) } …
 * 2026-07-28 removed `elicitationId` and `notifications/elicitation/complete`: the correlation id, if
 * any, travels in the sealed state. A declined or cancelled URL step after a throw ends the call with
 * an error (the legacy -32042 left the call failed too) and is never asked again in that call.
 *
 * Does not: port several URL elicitations in one error (dynamic-request marker), or a
 * `createElicitationCompletionNotifier` (there is no completion notification any more: remove it).
 */
import { objectProperty, type Node } from './lib/ast.js';
import { runAsJscodeshift, type FileInfo } from './lib/jscodeshift-module.js';
import type { DecodedRequest } from './lib/legacy-calls.js';
import type { SourceText } from './lib/source-text.js';

const DROPPED = new Set(['mode', 'elicitationId']);

/** The `{ message, url }` argument of `inputRequired.elicitUrl`, and the correlation id to seal. */
export function urlRequest(request: DecodedRequest, src: SourceText): { text: string; correlation?: string } {
  const params = request.params!;
  if (params.type === 'Identifier') {
    const name = params.name as string;
    return { text: `{ message: ${name}.message, url: ${name}.url }`, correlation: `${name}.elicitationId` };
  }
  const kept = (params.properties as Node[]).filter((p) => {
    const key = p.key as Node;
    const name = key.type === 'Identifier' ? (key.name as string) : (key.value as string);
    return !DROPPED.has(name);
  });
  const id = objectProperty(params, 'elicitationId');
  return {
    text: `{ ${kept.map((p) => src.slice(p.start, p.end)).join(', ')} }`,
    correlation: id ? src.slice((id.value as Node).start, (id.value as Node).end) : undefined,
  };
}

export const parser = 'ts';

/** jscodeshift module: ports handlers whose asks are URL-mode elicitations. */
export default function transformer(file: FileInfo, _api: unknown, options: Record<string, unknown> = {}): string | undefined {
  return runAsJscodeshift(file, options, { twoPass: false, capabilityBranches: false, retireRoots: false, urlElicitation: true, imports: true });
}
