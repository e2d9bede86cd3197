/**
 * `plan.edits: false` (analyze, check) plans each flow function for its verdict only: the memos, guards,
 * capability reads and `!`s are not recorded (plan/flow-function.ts `verdictsOnly`). What can refuse a
 * function at edit time must still run there: an effect before an ask that cannot travel (a timer, a
 * closure or promise held across the ask), and a function that would have to become async and cannot.
 * Each case here is such a refusal; its verdict comes from the edit-time planner alone, so a verdicts-only
 * run that skipped the check would call the site auto and differ from the full plan.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyzer/index.js';
import type { AnalysisReport } from '../../src/analyzer/model.js';
import { tempDir } from '../cli/helpers.js';

const SCHEMA = `{ type: 'object' as const, properties: { ok: { type: 'boolean' as const } } }`;
const ELICIT = `await ctx.mcpReq.elicitInput({ message: 'Go on?', requestedSchema: ${SCHEMA} })`;

/** One server file around `body` (a tool handler's statements, `ctx` its context); `head`: module code before it. */
function server(body: string[], head: string[] = [], signature = 'async (args, ctx)'): string {
  return [
    `import { McpServer, UrlElicitationRequiredError } from '@modelcontextprotocol/server';`,
    `import { openLedger, startAudit } from './ledger.js';`,
    ...head,
    `const server = new McpServer({ name: 's', version: '1' });`,
    `server.registerTool('go', {}, ${signature} => {`,
    ...body.map((l) => `  ${l}`),
    `});`,
    `export { server, UrlElicitationRequiredError, openLedger, startAudit };`,
  ].join('\n');
}

/** Both runs over one project: the report must be the same; returns it. */
function bothWays(files: Record<string, string>): AnalysisReport {
  const root = tempDir('mrtr-verdicts-only-');
  const paths: string[] = [];
  for (const [rel, text] of Object.entries({ 'src/ledger.ts': LEDGER, ...files })) {
    const abs = join(root, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, text);
    paths.push(abs);
  }
  const full = analyze({ cwd: root, files: paths });
  const verdicts = analyze({ cwd: root, files: paths, plan: { edits: false } });
  expect(full.plans.length).toBeGreaterThan(0);
  expect(verdicts.plans).toEqual([]);
  expect(verdicts.report).toEqual(full.report);
  return full.report;
}

const LEDGER = [
  `export interface Ledger { write(line: string): Promise<void>; close(): void }`,
  `export declare function openLedger(): Promise<Ledger>;`,
  `export declare function startAudit(): () => void;`,
].join('\n');

function verdictOf(report: AnalysisReport): { portability: string; reasons: string[] } {
  expect(report.sites).toHaveLength(1);
  const [site] = report.sites;
  return { portability: site.portability, reasons: site.reasons };
}

describe('verdicts only (plan.edits false): the edit-time refusals still refuse', () => {
  it('a timer started before the ask and kept across it', () => {
    const report = bothWays({ 'src/server.ts': server([`const beat = setInterval(() => console.error('waiting'), 1000);`, `const a = ${ELICIT};`, `clearInterval(beat);`, `return { content: [{ type: 'text', text: a.action }] };`]) });
    expect(verdictOf(report)).toEqual({ portability: 'manual', reasons: ['timer-across-ask'] });
  });

  it('a module flag set before the ask and set back in finally', () => {
    const report = bothWays({ 'src/server.ts': server([`if (busy) return { content: [] };`, `busy = true;`, `try {`, `  const a = ${ELICIT};`, `  return { content: [{ type: 'text', text: a.action }] };`, `} finally {`, `  busy = false;`, `}`], [`let busy = false;`]) });
    expect(verdictOf(report)).toEqual({ portability: 'manual', reasons: ['state-across-ask'] });
  });

  it('a closure made before the ask and called after it', () => {
    const report = bothWays({ 'src/server.ts': server([`const stop = startAudit();`, `const a = ${ELICIT};`, `stop();`, `return { content: [{ type: 'text', text: a.action }] };`]) });
    expect(verdictOf(report)).toEqual({ portability: 'manual', reasons: ['not-carryable'] });
  });

  it('a promise made before the ask and awaited after it', () => {
    const report = bothWays({ 'src/server.ts': server([`const pending = openLedger();`, `const a = ${ELICIT};`, `const ledger = await pending;`, `await ledger.write(a.action);`, `return { content: [] };`]) });
    expect(verdictOf(report)).toEqual({ portability: 'manual', reasons: ['not-carryable'] });
  });

  it('a handle that cannot travel in the state, opened before the ask', () => {
    const report = bothWays({ 'src/server.ts': server([`const ledger = await openLedger();`, `const a = ${ELICIT};`, `await ledger.write(a.action);`, `return { content: [] };`]) });
    expect(verdictOf(report)).toEqual({ portability: 'manual', reasons: ['not-carryable'] });
  });

  it('a function that would have to become async but returns no Promise', () => {
    const report = bothWays({
      'src/server.ts': server(
        [`console.error(String(++calls));`, `throw new UrlElicitationRequiredError([{ mode: 'url', message: 'Link', url: 'https://example.com/link', elicitationId: 'link' }]);`],
        [`let calls = 0;`, `type Result = { content: [] };`],
        '(args, ctx): Result',
      ),
    });
    expect(verdictOf(report)).toEqual({ portability: 'manual', reasons: ['not-async'] });
  });

  it('the same function, async: ported (the memo is what asked for async)', () => {
    const report = bothWays({
      'src/server.ts': server(
        [`console.error(String(++calls));`, `throw new UrlElicitationRequiredError([{ mode: 'url', message: 'Link', url: 'https://example.com/link', elicitationId: 'link' }]);`],
        [`let calls = 0;`, `type Result = { content: [] };`],
        'async (args, ctx): Promise<Result>',
      ),
    });
    expect(verdictOf(report)).toEqual({ portability: 'auto', reasons: [] });
  });

  it('counts the file whose only questions to the checker come from a memo of outer state (the report says how many were type-checked)', () => {
    const report = bothWays({ 'src/server.ts': server([`calls += 1;`, `const a = ${ELICIT};`, `return { content: [{ type: 'text', text: a.action }] };`], [`let calls = 0;`]) });
    expect(verdictOf(report)).toEqual({ portability: 'auto', reasons: [] });
    expect(report.files.typeChecked).toBe(1);
  });
});
