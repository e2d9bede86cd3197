/**
 * Generated handlers (reads, writes, asks of every kind, decline checks, asks inside an `if`) go
 * through the port; whatever the mix, the output parses, a second run changes nothing, every legacy
 * call left in the output sits under a `@mrtr-port-todo` marker (nothing is silently skipped), and a
 * sample of outputs type-checks with strict against the SDK and the runtime helper.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MARKERS } from '../../src/vocabulary.js';
import { applyPortSource, type PortOptions } from '../../transforms/index.js';
import { parseProgram } from '../../transforms/lib/ast.js';
import { statementOf } from '../../transforms/lib/context.js';
import { findLegacyCalls } from '../../transforms/lib/legacy-calls.js';
import { typeCheck } from './typecheck.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

type Piece = (n: number, prior: number[]) => string;

const schema = "{ type: 'object', properties: { ok: { type: 'boolean' } } }";
// `n` is the piece's index; `prior` lists earlier ask indexes whose answers a piece may read
const pieces: Piece[] = [
  (n) => `const r${n} = await store.getItem('k${n}');`,
  (n) => `await store.saveItem('k${n}');`,
  (n) => `log.push('step ${n}');`,
  (n) => `const a${n} = await ctx.mcpReq.elicitInput({ message: 'Q${n}?', requestedSchema: ${schema} });`,
  (n, prior) => `const a${n} = await ctx.mcpReq.elicitInput({ message: \`Q${n} after \${String(${prior.length ? `a${prior[prior.length - 1]}.action` : "'start'"})}?\`, requestedSchema: ${schema} });`,
  (n) => `const a${n} = await ctx.mcpReq.requestSampling({ messages: [{ role: 'user', content: { type: 'text', text: 'S${n}' } }], maxTokens: 5 });`,
  (n) => `const a${n} = await server.server.listRoots();`,
  (n, prior) => (prior.length ? `if (a${prior[prior.length - 1]}.action === 'decline') return { content: [] };` : `const c${n} = ${n};`),
  (n) => `if (flag) {\n    const a${n} = await ctx.mcpReq.elicitInput({ message: 'In if ${n}?', requestedSchema: ${schema} });\n    if (a${n}.action !== 'accept') return { content: [] };\n  }`,
  (n) => `for (const x of [1, 2]) {\n    await ctx.mcpReq.elicitInput({ message: \`Loop ${n} \${x}\`, requestedSchema: ${schema} });\n  }`,
];
const asking = new Set([3, 4, 5, 6]);

function server(choices: number[]): string {
  const body: string[] = [];
  const prior: number[] = [];
  choices.forEach((choice, n) => {
    const piece = choice === 7 && prior.length && body.join('').includes(`a${prior[prior.length - 1]}.action`) ? pieces[2] : pieces[choice];
    body.push(`  ${piece(n, prior)}`);
    if (asking.has(choice) && !(choice === 6)) prior.push(n);
  });
  return [
    "import { McpServer } from '@modelcontextprotocol/server';",
    "import * as z from 'zod';",
    'declare const store: { getItem(k: string): Promise<string>; saveItem(k: string): Promise<void> };',
    'declare const log: string[];',
    "const server = new McpServer({ name: 'gen', version: '1.0.0' });",
    "server.registerTool('gen', { inputSchema: z.object({ flag: z.boolean() }) }, async ({ flag }, ctx) => {",
    ...body,
    "  return { content: [{ type: 'text', text: 'done' }] };",
    '});',
    'export { server };',
    '',
  ].join('\n');
}

function unmarkedLegacyCalls(text: string): number[] {
  const lines = text.split('\n');
  return findLegacyCalls(parseProgram(text, 'ts'))
    .map((call) => statementOf(call.node, call.ancestors).loc.start.line)
    .filter((line) => !(lines[line - 2] ?? '').includes(MARKERS.todo));
}

describe('port of generated handlers', () => {
  for (const roots of ['config', 'ask'] as const) {
    it(`parses, is idempotent and leaves no unmarked legacy call (--roots ${roots})`, () => {
      const options: PortOptions = { codec: 'aead', roots, continuationImport: './mrtr-continuation.js' };
      fc.assert(
        fc.property(fc.array(fc.integer({ min: 0, max: pieces.length - 1 }), { minLength: 1, maxLength: 7 }), (choices) => {
          const source = server(choices);
          const once = applyPortSource({ source, path: 'gen.ts', options });
          expect(() => parseProgram(once, 'ts')).not.toThrow();
          expect(applyPortSource({ source: once, path: 'gen.ts', options })).toBe(once);
          expect(unmarkedLegacyCalls(once)).toEqual([]);
        }),
        { numRuns: 150, seed: 20261129 },
      );
      // 300 port+re-port pairs: about a minute on a quiet machine, over the default 300 s at load 20
    }, 900_000);
  }

  it('a sample of outputs type-checks (strict) with the runtime helper', () => {
    mkdirSync(join(root, '.tmp'), { recursive: true });
    const dir = mkdtempSync(join(root, '.tmp', 'transform-property-'));
    try {
      const samples = fc.sample(fc.array(fc.integer({ min: 0, max: pieces.length - 1 }), { minLength: 1, maxLength: 7 }), { numRuns: 40, seed: 7 });
      const files = samples.flatMap((choices, i) =>
        (['config', 'ask'] as const).map((roots) => {
          const file = join(dir, `generated-${i}-${roots}.ts`);
          writeFileSync(file, applyPortSource({ source: server(choices), path: file, options: { codec: 'aead', roots, continuationImport: './mrtr-continuation.js' } }));
          return file;
        }),
      );
      const runtime = { aead: join(root, 'src/runtime/mrtr-continuation.ts'), sdk: join(root, 'src/runtime/mrtr-continuation-sdk.ts'), flow: join(root, 'src/runtime/mrtr-flow.ts') };
      expect(typeCheck(files, runtime)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
