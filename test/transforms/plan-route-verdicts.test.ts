/**
 * The plan judges each handler route on its own: a site's `handlers` entries say which handler the
 * plan refuses and why, and which one is left only because it shares the asking helper with it (the
 * two are ported together or not at all). Framework-registered handlers carry that reason alone.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyzer/index.js';

const cwd = '/virtual/route-verdicts';

function sitesOf(text: string): { verdict: string; handlers: string[] }[] {
  const file = join(cwd, 'server.ts');
  const { report } = analyze({ cwd, files: [file], texts: new Map([[file, text]]) });
  return report.sites.map((s) => ({
    verdict: `${s.portability}(${s.reasons.join(',')})`,
    handlers: (s.handlers ?? []).map((h) => `${h.name ?? '?'}:${h.portability}(${h.reasons.join(',')})`),
  }));
}

const shared = (second: string): string => `import { McpServer } from '@modelcontextprotocol/server';
const server = new McpServer({ name: 'x', version: '1.0.0' });
const schema = { type: 'object' as const, properties: {} };
async function confirm(ctx: any): Promise<string> {
  const a = await ctx.mcpReq.elicitInput({ message: 'Go on?', requestedSchema: schema });
  return a.action;
}
server.registerTool('plain', {}, async (_args: any, ctx: any) => ({ content: [{ type: 'text' as const, text: await confirm(ctx) }] }));
server.registerTool('second', {}, async (_args: any, ctx: any) => ({ content: [{ type: 'text' as const, text: ${second} }] }));
`;

describe('per-route verdicts of the plan', () => {
  it('a handler that races the helper is refused as raced; the one sharing the helper is handler-not-ported', () => {
    const [site] = sitesOf(shared(`await Promise.race([confirm(ctx), new Promise<string>((r) => setTimeout(() => r('timeout'), 10))])`));
    expect(site.verdict).toBe('manual(raced)');
    expect(site.handlers).toEqual(['plain:manual(handler-not-ported)', 'second:manual(raced)']);
  });

  it('when every handler can be ported, every route is auto', () => {
    const [site] = sitesOf(shared('await confirm(ctx)'));
    expect(site.verdict).toBe('auto()');
    expect(site.handlers).toEqual(['plain:auto()', 'second:auto()']);
  });

  it('a decorator-registered handler is framework-registration only (no unknown-handler-shape next to it)', () => {
    const text = `import { Tool, Context } from '@rekog/mcp-nest';
const schema = { type: 'object' as const, properties: {} };
export class Tools {
  @Tool({ name: 'greet' })
  async greet(_args: unknown, context: Context) {
    const a = await context.mcpServer.server.elicitInput({ message: 'Name?', requestedSchema: schema });
    return { content: [{ type: 'text', text: a.action }] };
  }
}
`;
    const [site] = sitesOf(text);
    expect(site.verdict).toBe('manual(framework-registration)');
    expect(site.handlers).toEqual(['greet:manual(framework-registration)']);
  });
});
