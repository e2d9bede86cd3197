/**
 * Property: an ask is `guarded` exactly when some enclosing check selects the legacy era for it —
 * the then-arm of a legacy test, the else-arm of a modern test, or code after an early return on a
 * modern test — whatever other plain checks (flags, client capabilities) surround it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyzer/index.js';

const LEGACY_TESTS = [`reqCtx.era === 'legacy'`, `'legacy' === era`, `ctx.mcpReq.envelope === undefined`, `!ctx.mcpReq.envelope`, `era !== 'modern'`];
const MODERN_TESTS = [`reqCtx.era !== 'legacy'`, `era === 'modern'`, `ctx.mcpReq.envelope !== undefined`, `ctx.mcpReq.envelope`];

interface Layer {
  code: (body: string) => string;
  guards: boolean;
}

const layer = fc.oneof(
  fc.constantFrom(...LEGACY_TESTS).map((t): Layer => ({ code: (b) => `if (${t}) {\n${b}\n}`, guards: true })),
  fc.constantFrom(...LEGACY_TESTS).map((t): Layer => ({ code: (b) => `if (${t}) {\nnoop();\n} else {\n${b}\n}`, guards: false })),
  fc.constantFrom(...MODERN_TESTS).map((t): Layer => ({ code: (b) => `if (${t}) {\nnoop();\n} else {\n${b}\n}`, guards: true })),
  fc.constantFrom(...MODERN_TESTS).map((t): Layer => ({ code: (b) => `if (${t}) {\n${b}\n}`, guards: false })),
  fc.constantFrom(...MODERN_TESTS).map((t): Layer => ({ code: (b) => `{\nif (${t}) {\nnoop();\nreturn { content: [] };\n}\n${b}\n}`, guards: true })),
  fc.constantFrom(...LEGACY_TESTS).map((t): Layer => ({ code: (b) => `{\nif (${t}) return { content: [] };\n${b}\n}`, guards: false })),
  fc.constantFrom(`flag`, `caps?.elicitation`, `server.server.getClientCapabilities()?.elicitation`).map((t): Layer => ({ code: (b) => `if (${t}) {\n${b}\n}`, guards: false })),
);

function program(layersInnermostFirst: Layer[]): string {
  let body = `const answer = await ctx.mcpReq.elicitInput({ message: 'Go?', requestedSchema: { type: 'object', properties: {} } });`;
  for (const l of layersInnermostFirst) body = l.code(body);
  return [
    `import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';`,
    `declare const flag: boolean; declare const caps: { elicitation?: object } | undefined; declare function noop(): void;`,
    `export const handler = createMcpHandler((reqCtx) => {`,
    `const era = reqCtx.era;`,
    `const server = new McpServer({ name: 'g', version: '1' });`,
    `server.registerTool('t', {}, async (ctx) => {`,
    body,
    `return { content: [] };`,
    `});`,
    `return server;`,
    `});`,
    '',
  ].join('\n');
}

describe('era guards (property)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mrtr-guards-'));
  let n = 0;

  it('guarded exactly when some layer selects the legacy era', () => {
    fc.assert(
      fc.property(fc.array(layer, { maxLength: 3 }), (layers) => {
        const file = join(dir, `case-${n++}.ts`);
        writeFileSync(file, program(layers));
        const { report } = analyze({ cwd: dir, files: [file] });
        expect(report.files.skipped).toEqual([]);
        expect(report.sites).toHaveLength(1);
        const guarded = layers.some((l) => l.guards);
        expect(report.sites[0].portability).toBe(guarded ? 'guarded' : 'auto');
      }),
      { numRuns: 200 },
    );
  });
});
