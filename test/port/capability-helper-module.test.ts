/**
 * A capability check in another module, which asks nothing: the tool's handler calls
 * `canAskForm(server)` (src/capabilities.ts), which reads the connection's capabilities through a
 * further helper of that module. On a 2026-07-28 connection those may be missing (a stdio connection
 * pinned to that era has no `initialize`), and the handler would take its fallback and never ask:
 * `port` rewrites the read in that module, importing the runtime's `clientCapabilities` under another
 * name there (the module has its own `clientCapabilities`), and the wrap passes the connection's getter
 * although the handler's file reads no capability itself. The ported tree type-checks.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runPort } from '../../src/port/index.js';
import { typeCheck } from '../transforms/typecheck.js';
import { removeDir } from './helpers.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

let dir: string | undefined;
afterEach(() => {
  if (dir) removeDir(dir);
  dir = undefined;
});

const files: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'capability-module', version: '1.0.0', type: 'module', dependencies: { '@modelcontextprotocol/server': '2.4.0', zod: '4.6.7' } }, null, 2) + '\n',
  'src/capabilities.ts': [
    `import type { ClientCapabilities, McpServer } from '@modelcontextprotocol/server';`,
    ``,
    `/** The client's declared capabilities (a name the runtime's import must not take). */`,
    `export function clientCapabilities(server: McpServer): ClientCapabilities {`,
    `  return server.server.getClientCapabilities() ?? {};`,
    `}`,
    ``,
    `export function canAskForm(server: McpServer): boolean {`,
    `  const elicitation = clientCapabilities(server).elicitation;`,
    `  return elicitation !== undefined && (elicitation.form !== undefined || Object.keys(elicitation).length === 0);`,
    `}`,
    ``,
  ].join('\n'),
  'src/server.ts': [
    `import { McpServer } from '@modelcontextprotocol/server';`,
    `import * as z from 'zod';`,
    `import { canAskForm } from './capabilities.js';`,
    ``,
    `export const server = new McpServer({ name: 'posts', version: '1.0.0' });`,
    ``,
    `server.registerTool('publish', { inputSchema: z.object({ slug: z.string() }) }, async ({ slug }, ctx) => {`,
    `  if (!canAskForm(server)) return { content: [{ type: 'text', text: \`Published \${slug} unreviewed\` }] };`,
    `  const review = await ctx.mcpReq.elicitInput({ message: \`Publish \${slug}?\`, requestedSchema: { type: 'object', properties: {} } });`,
    `  return { content: [{ type: 'text', text: review.action === 'accept' ? \`Published \${slug}\` : 'Not published' }] };`,
    `});`,
    ``,
  ].join('\n'),
};

describe('port rewrites a capability read in a module the path calls', () => {
  it('reads the request capabilities in the helper module (import aliased), passes the getter at the wrap, and type-checks', async () => {
    // under the repo, so that the SDK and zod resolve for the type check
    mkdirSync(join(root, '.tmp'), { recursive: true });
    dir = mkdtempSync(join(root, '.tmp', 'capability-module-'));
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(join(dir, rel, '..'), { recursive: true });
      writeFileSync(join(dir, rel), text);
    }
    const result = await runPort({ cwd: dir, paths: ['.'] });
    expect(result.files.filter((f) => f.status === 'changed').map((f) => f.file).sort()).toEqual(['src/capabilities.ts', 'src/server.ts']);

    const helper = readFileSync(join(dir, 'src/capabilities.ts'), 'utf8');
    expect(helper).toContain(`import { clientCapabilities as clientCapabilities2 } from './mrtr-flow.js';`);
    expect(helper).toContain('return (clientCapabilities2() ?? server.server.getClientCapabilities()) ?? {};');
    // the module's own function and its call are left as they were
    expect(helper).toContain('const elicitation = clientCapabilities(server).elicitation;');

    const server = readFileSync(join(dir, 'src/server.ts'), 'utf8');
    expect(server).toContain(`import { elicit, once, resumable } from './mrtr-flow.js';`);
    expect(server).toContain(`}, { capabilities: () => server.server.getClientCapabilities() }));`);
    expect(server).not.toContain('clientCapabilities()');

    const runtime = { aead: join(root, 'src/runtime/mrtr-continuation.ts'), sdk: join(root, 'src/runtime/mrtr-continuation-sdk.ts'), flow: join(root, 'src/runtime/mrtr-flow.ts') };
    expect(typeCheck([join(dir, 'src/capabilities.ts'), join(dir, 'src/server.ts')], runtime, { unused: true })).toEqual([]);

    const again = await runPort({ cwd: dir, paths: ['.'] });
    expect(again.summary.changed).toBe(0);
  }, 180_000);
});
