import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyzer/index.js';
import { tempDir } from '../cli/helpers.js';

/** Writes a small project into a fresh temp folder; returns its root and the absolute paths. */
function project(files: Record<string, string>): { root: string; paths: string[] } {
  const root = tempDir('mrtr-analyzer-');
  const paths: string[] = [];
  for (const [rel, text] of Object.entries(files)) {
    const abs = join(root, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, text);
    paths.push(abs);
  }
  return { root, paths };
}

const ELICIT = `await ctx.mcpReq.elicitInput({ message: 'Sure?', requestedSchema: { type: 'object', properties: {} } })`;

const helperProject = {
  'src/server.ts': [
    `import { McpServer } from '@modelcontextprotocol/server';`,
    `import { confirmRefund } from './lib/confirm.js';`,
    `const server = new McpServer({ name: 's', version: '1' });`,
    `server.registerTool('refund', {}, async (ctx) => {`,
    `  const ok = await confirmRefund(ctx);`,
    `  return { content: [{ type: 'text', text: String(ok) }] };`,
    `});`,
    `server.registerTool('nudge', {}, async (ctx) => {`,
    `  void confirmRefund(ctx);`,
    `  return { content: [] };`,
    `});`,
  ].join('\n'),
  'src/lib/confirm.ts': [
    `import type { ServerContext } from '@modelcontextprotocol/server';`,
    `export async function confirmRefund(ctx: ServerContext): Promise<boolean> {`,
    `  const a = ${ELICIT};`,
    `  return a.action === 'accept';`,
    `}`,
  ].join('\n'),
  'src/unrelated.ts': `export const answer = 42;\n`,
  'docs/usage.md': '# Usage\n\n```ts\nconst a = await ctx.mcpReq.elicitInput({ message: "x" });\n```\n',
};

describe('analyze: report shape', () => {
  it('produces the versioned JSON report with relative, slash-separated paths and a consistent summary', () => {
    const { root, paths } = project(helperProject);
    const { report } = analyze({ cwd: root, files: paths });
    expect(Object.keys(report)).toEqual(['tool', 'version', 'files', 'sites', 'summary']);
    expect(report.tool).toBe('mrtr-port');
    expect(report.version).toBe(1);
    expect(report.files).toEqual({ scanned: 4, skipped: [] });
    expect(report.sites).toHaveLength(1);
    const site = report.sites[0];
    expect(Object.keys(site)).toEqual(['file', 'line', 'column', 'kind', 'form', 'sdk', 'handler', 'via', 'portability', 'reasons', 'handlers']);
    expect(site).toMatchObject({ file: 'src/lib/confirm.ts', line: 3, column: 19, kind: 'elicitation', form: 'elicitInput', sdk: 'v2' });
    expect(report.summary).toEqual({ sites: 1, auto: 0, manual: 1, unportable: 0, guarded: 0 });
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });

  it('attributes a helper in another file to the handler and names the via chain', () => {
    const { root, paths } = project(helperProject);
    const { report, handlers } = analyze({ cwd: root, files: paths });
    const site = report.sites[0];
    // the first handler by position is shown; the verdict is the worst over every route
    expect(site.handler).toEqual({ kind: 'tool', name: 'refund', file: 'src/server.ts', line: 4 });
    expect(site.via).toEqual([{ function: 'confirmRefund', file: 'src/lib/confirm.ts', line: 2 }]);
    expect(site.portability).toBe('manual');
    expect(site.reasons).toEqual(['not-awaited']);
    expect(handlers.map((h) => [h.file, h.name, h.siteIndexes])).toEqual([
      ['src/server.ts', 'refund', [0]],
      ['src/server.ts', 'nudge', [0]],
    ]);
    // each handler with the plan's verdict of its own route: nudge does not await the helper; refund is
    // left because it shares the helper with nudge (they are ported together or not at all)
    expect(site.handlers).toEqual([
      { kind: 'tool', name: 'refund', file: 'src/server.ts', line: 4, via: site.via, portability: 'manual', reasons: ['handler-not-ported'] },
      { kind: 'tool', name: 'nudge', file: 'src/server.ts', line: 8, via: site.via, portability: 'manual', reasons: ['not-awaited'] },
    ]);
  });

  it('test files are their own entry points: a test calling a shared helper never changes the production verdict', () => {
    const { root, paths } = project({
      ...helperProject,
      'src/server.ts': helperProject['src/server.ts'].split('\n').slice(0, 7).join('\n'),
      'src/lib/confirm.test.ts': [
        `import { beforeAll } from 'vitest';`,
        `import { confirmRefund } from './confirm.js';`,
        `declare const ctx: never;`,
        `beforeAll(async () => { await confirmRefund(ctx); });`,
        `const direct = await ctx.mcpReq.elicitInput({ message: 'In a test', requestedSchema: { type: 'object', properties: {} } });`,
      ].join('\n'),
    });
    const { report } = analyze({ cwd: root, files: paths });
    const production = report.sites.find((s) => s.file === 'src/lib/confirm.ts')!;
    expect([production.portability, production.reasons]).toEqual(['auto', []]);
    expect(production.handlers?.map((h) => h.kind)).toEqual(['tool']);
    const inTest = report.sites.find((s) => s.file === 'src/lib/confirm.test.ts')!;
    expect([inTest.portability, inTest.reasons]).toEqual(['unportable', ['lifecycle-hook']]);
  });

  it('a helper nobody calls is manual(no-handler); one called only from a timer is unportable, with the timer as its entry', () => {
    const { root, paths } = project({
      'src/jobs.ts': [
        `import { Server } from '@modelcontextprotocol/sdk/server/index.js';`,
        `const server = new Server({ name: 's', version: '1' }, { capabilities: {} });`,
        `export async function orphan() { return server.listRoots(); }`,
        `async function poll() { await server.createMessage({ messages: [], maxTokens: 1 }); }`,
        `setInterval(poll, 1000);`,
      ].join('\n'),
    });
    const { report } = analyze({ cwd: root, files: paths });
    expect(report.sites.map((s) => [s.line, s.portability, s.reasons])).toEqual([
      [3, 'manual', ['no-handler']],
      [4, 'unportable', ['timer']],
    ]);
    expect(report.sites[0].handlers).toEqual([{ kind: 'no-handler', name: null, file: 'src/jobs.ts', line: 3, via: [], portability: 'manual', reasons: ['no-handler'] }]);
    expect(report.sites[1].handlers).toEqual([{ kind: 'timer', name: null, file: 'src/jobs.ts', line: 4, via: [], portability: 'unportable', reasons: ['timer'] }]);
  });

  it('gives handler ranges that cut the handler function out of the file text', async () => {
    const { root, paths } = project(helperProject);
    const { handlers } = analyze({ cwd: root, files: paths });
    const { readFileSync } = await import('node:fs');
    const text = readFileSync(join(root, 'src/server.ts'), 'utf8');
    const refund = handlers.find((h) => h.name === 'refund')!;
    const cut = text.slice(refund.start, refund.end);
    expect(cut.startsWith('async (ctx) => {')).toBe(true);
    expect(cut.endsWith('}')).toBe(true);
    expect(cut).toContain('await confirmRefund(ctx)');
  });

  it('sorts sites by file, line, column', () => {
    const { root, paths } = project({
      'b.ts': `import { McpServer } from '@modelcontextprotocol/server';\nconst s = new McpServer({ name: 'b', version: '1' });\ns.registerTool('t', {}, async (ctx) => { const a = ${ELICIT}; const b = ${ELICIT}; return { content: [] }; });\n`,
      'a.ts': `import { McpServer } from '@modelcontextprotocol/server';\nconst s = new McpServer({ name: 'a', version: '1' });\ns.registerTool('t', {}, async (ctx) => {\n  const a = ${ELICIT};\n  return { content: [] };\n});\n`,
    });
    const { report } = analyze({ cwd: root, files: paths });
    expect(report.sites.map((s) => `${s.file}:${s.line}:${s.column}`)).toEqual(['a.ts:4:19', 'b.ts:3:58', 'b.ts:3:173']);
  });
});

describe('analyze: prefilter', () => {
  it('never parses a file that names neither the legacy vocabulary nor anything leading to a site', () => {
    const { root, paths } = project(helperProject);
    const parsed: string[] = [];
    analyze({ cwd: root, files: paths, onParse: (f) => parsed.push(f) });
    expect(parsed.sort()).toEqual([join(root, 'src/lib/confirm.ts'), join(root, 'src/server.ts')]);
  });

  it('parses a handler file only in pass 2, because it names an exported helper that asks', () => {
    const { root, paths } = project(helperProject);
    const order: string[] = [];
    analyze({ cwd: root, files: paths, onParse: (f) => order.push(f) });
    expect(order).toEqual([join(root, 'src/lib/confirm.ts'), join(root, 'src/server.ts')]);
  });

  it('counts markdown and other non-source files as scanned but never parses them', () => {
    const repo = resolve(import.meta.dirname, '../..');
    const markdown = resolve(repo, 'fixtures/sites/markdown-snippet.md');
    const parsed: string[] = [];
    const { report } = analyze({ cwd: repo, files: [markdown], onParse: (f) => parsed.push(f) });
    expect(parsed).toEqual([]);
    expect(report.files).toEqual({ scanned: 1, skipped: [] });
    expect(report.sites).toEqual([]);
  });
});

describe('analyze: handler index', () => {
  it('lists each dispatched tool of a low-level handler as its own handler entry with its own range', async () => {
    const repo = resolve(import.meta.dirname, '../..');
    const file = resolve(repo, 'fixtures/sites/low-level-dispatch.ts');
    const { report, handlers } = analyze({ cwd: repo, files: [file] });
    const { readFileSync } = await import('node:fs');
    const text = readFileSync(file, 'utf8');
    expect(handlers.map((h) => [h.kind, h.name, h.siteIndexes])).toEqual([
      ['tool', 'approve', [0]],
      ['tool', 'summarize', [1]],
      ['tool', 'archive', [2]],
      ['prompt', null, [3]],
      ['resource', null, [4]],
    ]);
    // every site lies inside the range of each handler that lists it
    for (const h of handlers) {
      for (const i of h.siteIndexes) {
        const site = report.sites[i];
        const offset = text.split('\n').slice(0, site.line - 1).join('\n').length + site.column;
        expect(offset).toBeGreaterThan(h.start);
        expect(offset).toBeLessThan(h.end);
      }
    }
    expect(text.slice(handlers[2].start, handlers[2].end)).toMatch(/^async function archive\(/);
  });
});

describe('analyze: helper chains across files', () => {
  it('finds a handler four files away through repeated pass-2 rounds, and lists the via chain in call order', () => {
    const depth = 4;
    const files: Record<string, string> = {
      'src/step0.ts': [
        `import type { ServerContext } from '@modelcontextprotocol/server';`,
        `export async function step0(ctx: ServerContext): Promise<string> {`,
        `  const a = ${ELICIT};`,
        `  return a.action;`,
        `}`,
      ].join('\n'),
    };
    for (let i = 1; i < depth; i++) {
      files[`src/step${i}.ts`] = [
        `import type { ServerContext } from '@modelcontextprotocol/server';`,
        `import { step${i - 1} } from './step${i - 1}.js';`,
        `export async function step${i}(ctx: ServerContext): Promise<string> {`,
        `  const r = await step${i - 1}(ctx);`,
        `  return r;`,
        `}`,
      ].join('\n');
    }
    files['src/server.ts'] = [
      `import { McpServer } from '@modelcontextprotocol/server';`,
      `import { step${depth - 1} } from './step${depth - 1}.js';`,
      `const server = new McpServer({ name: 'chain', version: '1' });`,
      `server.registerTool('deep', {}, async (ctx) => {`,
      `  const r = await step${depth - 1}(ctx);`,
      `  return { content: [{ type: 'text', text: r }] };`,
      `});`,
    ].join('\n');
    files['src/noise.ts'] = `export function step9(): number { return 9; }\n`;
    const { root, paths } = project(files);
    const parsed: string[] = [];
    const { report } = analyze({ cwd: root, files: paths, onParse: (f) => parsed.push(f) });
    expect(parsed).toHaveLength(depth + 1);
    expect(parsed).not.toContain(join(root, 'src/noise.ts'));
    expect(report.sites).toHaveLength(1);
    expect(report.sites[0]).toMatchObject({ portability: 'auto', handler: { kind: 'tool', name: 'deep', file: 'src/server.ts' } });
    expect(report.sites[0].via.map((v) => v.function)).toEqual(['step3', 'step2', 'step1', 'step0']);
  });
});

describe('analyze: dense call graphs', () => {
  it('terminates on a clique of mutually recursive helpers and still finds the tool', () => {
    const n = 14;
    const helpers = Array.from({ length: n }, (_, i) => {
      const calls = Array.from({ length: n }, (_, j) => (j === i ? '' : `  if (depth === ${j}) await h${j}(ctx, depth + 1);`)).join('\n');
      const ask = i === 0 ? `  const a = ${ELICIT};\n` : '';
      return `async function h${i}(ctx: ServerContext, depth: number): Promise<void> {\n${ask}${calls}\n}`;
    });
    const { root, paths } = project({
      'clique.ts': [
        `import { McpServer, type ServerContext } from '@modelcontextprotocol/server';`,
        ...helpers,
        `const s = new McpServer({ name: 'c', version: '1' });`,
        `s.registerTool('entry', {}, async (ctx) => {`,
        `  await h${n - 1}(ctx, 0);`,
        `  return { content: [] };`,
        `});`,
      ].join('\n'),
    });
    const { report } = analyze({ cwd: root, files: paths });
    expect(report.sites).toHaveLength(1);
    expect(report.sites[0].handler).toMatchObject({ kind: 'tool', name: 'entry' });
  });
});

describe('analyze: texts in memory and shared trees', () => {
  it('analyzes preloaded texts without reading the disk, and hands out every parsed tree once', () => {
    const root = tempDir('mrtr-analyzer-');
    const file = join(root, 'only-in-memory.ts');
    const text = `import { McpServer } from '@modelcontextprotocol/server';\nconst s = new McpServer({ name: 'm', version: '1' });\ns.registerTool('t', {}, async (ctx) => {\n  const a = ${ELICIT};\n  return { content: [] };\n});\n`;
    const trees: string[] = [];
    const { report } = analyze({ cwd: root, files: [file], texts: new Map([[file, text]]), onTree: (f, sf) => trees.push(`${f}:${sf.statements.length}`) });
    expect(report.files.skipped).toEqual([]);
    expect(report.sites.map((s) => `${s.file}:${s.line}:${s.column}:${s.portability}`)).toEqual(['only-in-memory.ts:4:19:auto']);
    expect(trees).toEqual([`${file}:3`]);
  });
});

describe('analyze: bad input', () => {
  it('lists a file with a syntax error as skipped with its first error, reports no site from it, and keeps the rest', () => {
    const { root, paths } = project({
      'broken.ts': `import { McpServer } from '@modelcontextprotocol/server';\nconst s = new McpServer({ name: 'x', version: '1' });\ns.registerTool('t', {}, async (ctx) => {\n  const a = ${ELICIT};\n  return { content: [ };\n});\n`,
      'fine.ts': `import { McpServer } from '@modelcontextprotocol/server';\nconst s = new McpServer({ name: 'y', version: '1' });\ns.registerTool('t', {}, async (ctx) => {\n  const a = ${ELICIT};\n  return { content: [] };\n});\n`,
    });
    const { report } = analyze({ cwd: root, files: paths });
    expect(report.files.scanned).toBe(2);
    expect(report.files.skipped).toHaveLength(1);
    expect(report.files.skipped[0].file).toBe('broken.ts');
    expect(report.files.skipped[0].reason).toMatch(/^parse-error: .+ \(5:\d+\)$/);
    expect(report.sites.map((s) => s.file)).toEqual(['fine.ts']);
  });

  it('lists a missing file as skipped with a read error', () => {
    const root = tempDir('mrtr-analyzer-');
    const { report } = analyze({ cwd: root, files: [resolve(root, 'gone.ts')] });
    expect(report.files).toEqual({ scanned: 1, skipped: [{ file: 'gone.ts', reason: 'read-error: ENOENT' }] });
  });
});

describe('analyze: notes on auto sites', () => {
  it('notes a capability fallback written as an early return before the ask', () => {
    const { root, paths } = project({
      'early.ts': [
        `import { McpServer } from '@modelcontextprotocol/server';`,
        `const s = new McpServer({ name: 'e', version: '1' });`,
        `s.registerTool('t', {}, async (ctx) => {`,
        `  if (!s.server.getClientCapabilities()?.elicitation) return { content: [{ type: 'text', text: 'default' }] };`,
        `  const a = ${ELICIT};`,
        `  return { content: [] };`,
        `});`,
        `s.registerTool('u', {}, async (ctx) => {`,
        `  if (!ctx) return { content: [] };`,
        `  const a = ${ELICIT};`,
        `  return { content: [] };`,
        `});`,
      ].join('\n'),
    });
    const { report } = analyze({ cwd: root, files: paths });
    expect(report.sites.map((s) => [s.handler?.name, s.portability, s.reasons])).toEqual([
      ['t', 'auto', ['capability-fallback']],
      ['u', 'auto', []],
    ]);
  });

  it('marks an ask under a client-capability check as auto with a capability-fallback note', () => {
    const file = resolve(import.meta.dirname, '../../fixtures/sites/guarded.ts');
    const { report } = analyze({ cwd: resolve(import.meta.dirname, '../..'), files: [file] });
    const capability = report.sites.find((s) => s.handler?.name === 'capabilities');
    expect(capability).toMatchObject({ portability: 'auto', reasons: ['capability-fallback'] });
    expect(report.sites.filter((s) => s.portability === 'guarded').every((s) => s.reasons.join() === 'era-guarded')).toBe(true);
  });
});

describe('analyze with plan.edits false (what analyze and check run)', () => {
  it('gives the same report and verdicts, without assembling the port\'s file plans', () => {
    const root = resolve(import.meta.dirname, '../../fixtures/projects/notes-v2');
    const files = ['src/server.ts', 'src/confirm.ts', 'src/store.ts', 'src/main.ts'].map((f) => join(root, f));
    const full = analyze({ cwd: root, files });
    const verdicts = analyze({ cwd: root, files, plan: { edits: false } });
    expect(full.plans.length).toBeGreaterThan(0);
    expect(verdicts.plans).toEqual([]);
    expect(verdicts.report).toEqual(full.report);
  });

  // without plans the builder records no edits (it skips the emitter): the verdicts must not move on any
  // shape the port handles, refuses or marks
  // (the port engine's inputs: the shapes the plan ports, refuses and marks; about 3 s of CPU for both runs)
  it('gives the same report on every resumable-handlers input', () => {
    const root = resolve(import.meta.dirname, '../../fixtures/transforms/resumable-handlers');
    const files = readdirSync(root)
      .filter((f) => /\.input\.[cm]?[jt]sx?$/.test(f))
      .map((f) => join(root, f));
    expect(files.length).toBeGreaterThan(20);
    const full = analyze({ cwd: root, files });
    const verdicts = analyze({ cwd: root, files, plan: { edits: false } });
    expect(full.plans.length).toBeGreaterThan(10);
    expect(full.report.summary.manual).toBeGreaterThan(0);
    expect(verdicts.report).toEqual(full.report);
  });
});
