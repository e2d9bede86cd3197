/**
 * `isEraGuarded` asks the file's text first (guards.ts `mayTestEra`): a file that never names `era`,
 * `getProtocolEra` or `envelope` (nor holds a unicode escape, which could spell one) holds no era test.
 * Each era test the guard knows, written so the file names only the word that test needs, is still seen.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyzer/index.js';
import { tempDir } from '../cli/helpers.js';

function portabilityOf(test: string, head: string[] = []): string {
  const root = tempDir('mrtr-era-text-');
  const abs = join(root, 'src/server.ts');
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(
    abs,
    [
      `import { McpServer } from '@modelcontextprotocol/server';`,
      ...head,
      `const server = new McpServer({ name: 's', version: '1' });`,
      `server.registerTool('go', {}, async (args, ctx) => {`,
      `  if (${test}) {`,
      `    const a = await ctx.mcpReq.elicitInput({ message: 'Go?', requestedSchema: { type: 'object', properties: {} } });`,
      `    return { content: [{ type: 'text', text: a.action }] };`,
      `  }`,
      `  return { content: [] };`,
      `});`,
    ].join('\n'),
  );
  const { report } = analyze({ cwd: root, files: [abs] });
  expect(report.sites).toHaveLength(1);
  return report.sites[0].portability;
}

describe('era guards found through the text check', () => {
  it('an envelope test in a file that never says era', () => {
    expect(portabilityOf(`ctx.mcpReq.envelope === undefined`)).toBe('guarded');
  });

  it('a getProtocolEra() call as the only era word', () => {
    expect(portabilityOf(`server.getProtocolEra(ctx) === 'legacy'`, [`declare module '@modelcontextprotocol/server' { interface McpServer { getProtocolEra(c: unknown): string } }`])).toBe('guarded');
  });

  it('an era name spelled with a unicode escape', () => {
    expect(portabilityOf(`\\u0065ra === 'legacy'`, [`declare const \\u0065ra: string;`])).toBe('guarded');
  });

  it('no era test: not guarded (the words alone decide nothing)', () => {
    expect(portabilityOf(`args !== undefined`, [`// era, envelope`])).not.toBe('guarded');
  });
});
