/**
 * A local only the legacy request read, kept because its initializer may have an effect
 * (`const sdk = connect(ctx)`): the port leaves it, tsc will call it unread under noUnusedLocals,
 * so the port report says so.
 */
import { describe, expect, it } from 'vitest';
import { portFile } from '../../transforms/lib/port-file.js';

const SOURCE = `import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';
declare function connect(ctx: unknown): { server: { elicitInput(p: object): Promise<{ action: string }> } };
const server = new McpServer({ name: 's', version: '1.0.0' });
server.registerTool('t', { inputSchema: z.object({ id: z.string() }) }, async ({ id }, ctx) => {
  const sdk = connect(ctx);
  const answer = await sdk.server.elicitInput({ message: id, requestedSchema: { type: 'object', properties: {} } });
  return { content: [{ type: 'text', text: answer.action }] };
});
`;

describe('the port report on kept locals', () => {
  it('names a local kept for its initializer, with the line it stands on', () => {
    const result = portFile({ source: SOURCE, path: '/virtual/server.ts', options: { codec: 'aead', roots: 'config', continuationImport: './mrtr-continuation.js' } });
    expect(result.changed).toBe(true);
    expect(result.source).toContain('const sdk = connect(ctx);');
    expect(result.notes).toContainEqual(expect.stringMatching(/^line 6: `sdk` was read only by the legacy request and is kept/));
  });
});
