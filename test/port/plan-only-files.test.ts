/**
 * A file with no legacy site of its own can still be one the plan edits: the tool registered there
 * calls a helper in another file that asks. `port` must wrap that registration (and memoize what runs
 * before the helper), or the ported helper's `elicit()` runs outside a flow and fails on every call.
 */
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runPort } from '../../src/port/index.js';
import { removeDir } from './helpers.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) removeDir(dir);
  dir = undefined;
});

const files: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'two-files', version: '1.0.0', type: 'module', dependencies: { '@modelcontextprotocol/server': '2.4.0', zod: '4.6.7' } }, null, 2) + '\n',
  'src/confirm.ts': [
    `import type { ServerContext } from '@modelcontextprotocol/server';`,
    ``,
    `export async function confirmDelete(ctx: ServerContext, name: string): Promise<boolean> {`,
    `  const answer = await ctx.mcpReq.elicitInput({ message: \`Delete \${name}?\`, requestedSchema: { type: 'object', properties: {} } });`,
    `  return answer.action === 'accept';`,
    `}`,
    ``,
  ].join('\n'),
  'src/server.ts': [
    `import { McpServer } from '@modelcontextprotocol/server';`,
    `import * as z from 'zod';`,
    `import { confirmDelete } from './confirm.js';`,
    ``,
    `declare const files: { stat(name: string): Promise<{ size: number }>; remove(name: string): Promise<void> };`,
    `export const server = new McpServer({ name: 'files', version: '1.0.0' });`,
    ``,
    `server.registerTool('delete', { inputSchema: z.object({ name: z.string() }) }, async ({ name }, ctx) => {`,
    `  const { size } = await files.stat(name);`,
    `  if (!(await confirmDelete(ctx, name))) return { content: [{ type: 'text', text: 'Kept' }] };`,
    `  await files.remove(name);`,
    `  return { content: [{ type: 'text', text: \`Deleted \${size} bytes\` }] };`,
    `});`,
    ``,
  ].join('\n'),
};

describe('port edits files that hold no site but a handler the plan wraps', () => {
  it('wraps the registration in the handler file and memoizes its effect before the helper, once', async () => {
    dir = mkdtempSync(join(tmpdir(), 'mrtr-port-plan-only-'));
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(join(dir, rel, '..'), { recursive: true });
      writeFileSync(join(dir, rel), text);
    }
    const result = await runPort({ cwd: dir, paths: ['.'] });
    const server = readFileSync(join(dir, 'src/server.ts'), 'utf8');
    expect(server).toContain(`import { once, resumable } from './mrtr-flow.js';`);
    expect(server).toContain(`resumable('delete', async ({ name }, ctx) => {`);
    expect(server).toContain('const { size } = await once(() => files.stat(name));');
    expect(readFileSync(join(dir, 'src/confirm.ts'), 'utf8')).toContain('await elicit({');
    expect(result.files.filter((f) => f.status === 'changed').map((f) => f.file).sort()).toEqual(['src/confirm.ts', 'src/server.ts']);
    const again = await runPort({ cwd: dir, paths: ['.'] });
    expect(again.summary.changed).toBe(0);
  }, 120_000);
});
