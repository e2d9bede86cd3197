/**
 * Property: for an ask nested in any mix of statements inside a tool handler, the analyzer's reasons
 * are exactly what a small model of the auto-shape rules predicts (plain if/else/blocks are free;
 * loops, try, switch and callbacks each cost their reason; a callback hides what is outside it).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyzer/index.js';
import { REASONS } from '../../src/analyzer/reasons.js';

type Container = 'if' | 'else' | 'block' | 'for' | 'while' | 'try' | 'catch' | 'switch' | 'callback';
type Statement = 'const' | 'expr' | 'destructure' | 'return' | 'condition' | 'void';

const ASK = `ctx.mcpReq.elicitInput({ message: 'Go?', requestedSchema: { type: 'object', properties: {} } })`;

const STATEMENTS: Record<Statement, { code: string; reason?: string }> = {
  const: { code: `const answer = await ${ASK};` },
  expr: { code: `await ${ASK};` },
  destructure: { code: `const { action, content } = await ${ASK};` },
  return: { code: `return await ${ASK};`, reason: 'result-escapes' },
  condition: { code: `if ((await ${ASK}).action === 'accept') noop();`, reason: 'in-expression' },
  void: { code: `void ${ASK};`, reason: 'not-awaited' },
};

const CONTAINERS: Record<Container, { wrap: (body: string) => string; reason?: string }> = {
  if: { wrap: (b) => `if (flag) {\n${b}\n}` },
  else: { wrap: (b) => `if (flag) {\nnoop();\n} else {\n${b}\n}` },
  block: { wrap: (b) => `{\n${b}\n}` },
  for: { wrap: (b) => `for (const item of items) {\n${b}\n}`, reason: 'in-loop' },
  while: { wrap: (b) => `while (flag) {\n${b}\n}`, reason: 'in-loop' },
  try: { wrap: (b) => `try {\n${b}\n} catch {\nnoop();\n}`, reason: 'try-catch' },
  catch: { wrap: (b) => `try {\nnoop();\n} catch {\n${b}\n}`, reason: 'try-catch' },
  switch: { wrap: (b) => `switch (kind) {\ncase 'a': {\n${b}\n}\n}`, reason: 'branching-statement' },
  callback: { wrap: (b) => `await Promise.all(items.map(async (item) => {\n${b}\n}));`, reason: 'nested-callback' },
};

/** The model: containers listed from the ask outwards; a callback ends what the ask's function sees. */
function expectedReasons(statement: Statement, containersInnermostFirst: Container[]): string[] {
  const found = new Set<string>();
  if (STATEMENTS[statement].reason) found.add(STATEMENTS[statement].reason!);
  for (const c of containersInnermostFirst) {
    if (CONTAINERS[c].reason) found.add(CONTAINERS[c].reason!);
    if (c === 'callback') break;
  }
  return Object.keys(REASONS).filter((id) => found.has(id));
}

function program(statement: Statement, containersInnermostFirst: Container[]): string {
  let body = STATEMENTS[statement].code;
  for (const c of containersInnermostFirst) body = CONTAINERS[c].wrap(body);
  return [
    `import { McpServer } from '@modelcontextprotocol/server';`,
    `declare const flag: boolean; declare const items: string[]; declare const kind: string; declare function noop(): void;`,
    `const server = new McpServer({ name: 'p', version: '1' });`,
    `server.registerTool('t', {}, async (ctx) => {`,
    body,
    `return { content: [] };`,
    `});`,
    '',
  ].join('\n');
}

describe('portability shape rules (property)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mrtr-shape-'));
  let n = 0;

  it('reasons match the model for any nesting of statements around an ask', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<Statement>('const', 'expr', 'destructure', 'return', 'condition', 'void'),
        fc.array(fc.constantFrom<Container>('if', 'else', 'block', 'for', 'while', 'try', 'catch', 'switch', 'callback'), { maxLength: 4 }),
        (statement, containers) => {
          const file = join(dir, `case-${n++}.ts`);
          writeFileSync(file, program(statement, containers));
          const { report } = analyze({ cwd: dir, files: [file] });
          expect(report.files.skipped).toEqual([]);
          expect(report.sites).toHaveLength(1);
          const [site] = report.sites;
          const reasons = expectedReasons(statement, containers);
          expect(site.reasons).toEqual(reasons);
          expect(site.portability).toBe(reasons.length === 0 ? 'auto' : 'manual');
          expect(site.handler).toMatchObject({ kind: 'tool', name: 't' });
        },
      ),
      { numRuns: 200 },
    );
  });
});
