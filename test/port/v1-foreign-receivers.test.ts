// The v1 migration keeps calls of the repository's own objects (a logger's `tool()`) as written: the
// official codemod renames them as if they were McpServer's (fastmail-mcp-server: 96 TS2339 errors).
import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runPort } from '../../src/port/index.js';
import { foreignReceiverCalls } from '../../src/port/v1-foreign-receivers.js';
import { shieldNames, unshieldNames } from '../../src/port/v1-kept-calls.js';
import { countCodemodMarkers, migrateV1Source } from '../../src/port/v1-migration.js';
import { typeCheck } from '../transforms/typecheck.js';
import { copyFixture, removeDir, repoRoot } from './helpers.js';

const fixture = join(repoRoot, 'fixtures/port/v1-own-logger');
const SOURCES = ['src/audit.ts', 'src/logger.ts', 'src/report.ts', 'src/server.ts'];
const NODE_MODULES = join(repoRoot, 'node_modules');

describe('port on a v1 server with its own logger and audit trail (fixtures/port/v1-own-logger)', () => {
  let dir: string;
  afterEach(() => removeDir(dir));

  it('migrates the server and keeps every call of the logger and the audit trail as written; the output type-checks', async () => {
    dir = copyFixture('port', 'v1-own-logger');
    const result = await runPort({ cwd: dir, paths: ['.'] });
    const read = (rel: string) => readFileSync(join(dir, rel), 'utf8');
    expect(read('src/server.ts')).toBe(readFileSync(join(fixture + '.expected', 'src/server.ts'), 'utf8'));
    for (const rel of ['src/audit.ts', 'src/logger.ts', 'src/report.ts']) expect(read(rel), rel).toBe(readFileSync(join(fixture, rel), 'utf8'));
    expect(result.files.filter((f) => f.status === 'changed').map((f) => f.file)).toEqual(['src/server.ts']);
    expect(result.summary).toMatchObject({ failed: 0 });
    expect(SOURCES.map((rel) => countCodemodMarkers(read(rel)))).toEqual([0, 0, 0, 0]);
    // no call left counts as v1 API: the SDK v1 dependency goes
    const manifest = JSON.parse(read('package.json')) as { dependencies: Record<string, string> };
    expect(manifest.dependencies['@modelcontextprotocol/sdk']).toBeUndefined();
    expect(manifest.dependencies['@modelcontextprotocol/server']).toBe('^2.4.0');
    // a second run changes nothing
    const again = await runPort({ cwd: dir, paths: ['.'], dryRun: true });
    expect(again.files.filter((f) => f.status !== 'unchanged')).toEqual([]);
    // the packages the output imports, as `npm install` would provide them
    symlinkSync(NODE_MODULES, join(dir, 'node_modules'), 'dir');
    expect(typeCheck(SOURCES.map((rel) => join(dir, rel)), undefined, { unused: true })).toEqual([]);
  }, 240_000);

  it('starts from inputs that type-check against SDK v1', () => {
    expect(typeCheck(SOURCES.map((rel) => join(fixture, rel)), undefined, { unused: true })).toEqual([]);
  }, 120_000);
});

/** The calls `foreignReceiverCalls` keeps in `files['main.ts']`, as `receiver.method`. */
function kept(files: Record<string, string>): string[] {
  const abs = (rel: string) => join('/p/src', rel);
  const texts = new Map(Object.entries(files).map(([rel, text]) => [abs(rel), text]));
  const found = foreignReceiverCalls({ cwd: '/p', files: [...texts.keys()], texts, targets: [abs('main.ts')] });
  return (found.get(abs('main.ts')) ?? []).map((c) => `${c.receiver}.${c.method}`);
}

const V1 = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\n`;

describe('foreignReceiverCalls: what proves a receiver is the repository’s own object', () => {
  it('an object literal or an instance of a class that declares the method, followed through consts, imports, re-exports, fields and factories', () => {
    const files = {
      'log.ts': `export const log = { tool(a: string, b: string) {}, prompt: (a: string, b: string) => a + b };\n`,
      'index.ts': `export { log as logger } from './log.js';\nexport * from './trail.js';\n`,
      'trail.ts': [
        `export class Trail { tool(n: string, f: () => void) {} static resource(n: string, u: string, f: () => void) {} }`,
        `export function openTrail(): Trail { if (Math.random() > 2) return new Trail(); return new Trail(); }`,
        `export default { registerTool(n: string, c: object, f: () => void) {} };`,
        ``,
      ].join('\n'),
      'main.ts': [
        V1,
        `import { logger } from './index.js';`,
        `import { Trail, openTrail } from './index.js';`,
        `import registry from './trail.js';`,
        `const local = { resource(a: string, b: string, c: () => void) {} };`,
        `logger.tool('x', 'invoked');`,
        `logger.prompt('p', 'shown');`,
        `local.resource('r', 'file:///r', () => {});`,
        `new Trail().tool('t', () => {});`,
        `openTrail().tool('t', () => {});`,
        `Trail.resource('r', 'file:///r', () => {});`,
        `registry.registerTool('t', {}, () => {});`,
        `class Jobs { private readonly trail = new Trail(); private other: Trail; constructor() { this.other = openTrail(); }`,
        `  run() { this.trail.tool('a', () => {}); this.other.tool('b', () => {}); } }`,
        ``,
      ].join('\n'),
    };
    expect(kept(files)).toEqual([
      'logger.tool',
      'logger.prompt',
      'local.resource',
      'new Trail().tool',
      'openTrail().tool',
      'Trail.resource',
      'registry.registerTool',
      'this.trail.tool',
      'this.other.tool',
    ]);
  });

  it('keeps nothing it cannot prove: parameters, a package’s export, a let, a spread, a class that extends, a server', () => {
    const files = {
      'base.ts': `export class Base { tool(n: string, f: () => void) {} }\nexport class Derived extends Base {}\nexport class Own extends Base { tool(n: string, f: () => void) {} }\n`,
      'main.ts': [
        V1,
        `import { logger } from 'some-logger';`,
        `import { Derived, Own } from './base.js';`,
        `const server = new McpServer({ name: 's', version: '1' });`,
        `const spread = { ...logger };`,
        `let changing = { tool(a: string, b: () => void) {} };`,
        `export function wire(registry: { tool: (...a: unknown[]) => void }, untyped: any) {`,
        `  registry.tool('t', () => {});`,
        `  untyped.tool('t', () => {});`,
        `}`,
        `logger.tool('t', () => {});`,
        `spread.tool('t', () => {});`,
        `changing.tool('t', () => {});`,
        `new Derived().tool('t', () => {});`,
        `new Own().tool('t', () => {});`,
        `server.tool('t', () => ({ content: [] }));`,
        `class S { server = { tool() {} }; go() { this.server.tool('t', () => {}); } }`,
        ``,
      ].join('\n'),
    };
    expect(kept(files)).toEqual([]);
  });

  it('follows CommonJS: require of module.exports, of exports.name, destructured', () => {
    const texts = new Map([
      ['/p/src/log.js', `const log = { tool(a, b) {}, prompt(a, b) {} };\nmodule.exports = log;\n`],
      ['/p/src/trail.js', `class Trail { tool(n, f) {} }\nexports.trail = new Trail();\nexports.other = 1;\n`],
      ['/p/src/mixed.js', `module.exports = { audit: { resource(a, b, c) {} } };\n`],
      [
        '/p/src/main.js',
        [
          `const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');`,
          `const log = require('./log.js');`,
          `const { trail } = require('./trail');`,
          `const { audit } = require('./mixed.js');`,
          `const { missing } = require('./nowhere.js');`,
          `log.tool('x', 'invoked');`,
          `trail.tool('t', (extra) => extra);`,
          `audit.resource('r', 'file:///r', () => {});`,
          `missing.tool('t', () => {});`,
          `const server = new McpServer({ name: 's', version: '1' });`,
          `server.tool('t', async () => ({ content: [] }));`,
          ``,
        ].join('\n'),
      ],
    ]);
    const found = foreignReceiverCalls({ cwd: '/p', files: [...texts.keys()], texts, targets: ['/p/src/main.js'] }).get('/p/src/main.js') ?? [];
    expect(found.map((c) => `${c.receiver}.${c.method}`)).toEqual(['log.tool', 'trail.tool', 'audit.resource']);
    const source = texts.get('/p/src/main.js')!;
    const r = migrateV1Source({ source, path: '/p/src/main.js', projectType: 'server', keep: found.flatMap((c) => c.names) });
    const lines = r.source.split('\n');
    expect(lines[0]).toBe(`const { McpServer } = require("@modelcontextprotocol/server");`);
    // the codemod's import merge leaves a blank line below the requires; the rest is the input's, but for the
    // server's call and the undecided `missing` (a module not in the set): both are the codemod's
    const input = source.split('\n');
    expect(lines.filter((l) => l !== '').slice(1)).toEqual([
      ...input.slice(1, 8),
      `missing.registerTool('t', {}, () => {});`,
      input[9],
      `server.registerTool('t', {}, async () => ({ content: [] }));`,
    ]);
  });

  it('parses no file without a candidate call', () => {
    const texts = new Map([['/p/a.ts', `${V1}server.tool('t', () => ({ content: [] }));\nthis.mcp.registerTool('x', {}, () => ({ content: [] }));\n`]]);
    expect(foreignReceiverCalls({ cwd: '/p', files: ['/p/a.ts'], texts, targets: ['/p/a.ts'] })).toEqual(new Map());
  });
});

describe('migrateV1Source with calls to keep', () => {
  const source = [
    `#!/usr/bin/env node`,
    `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';`,
    `import { z } from 'zod';`,
    `const log = { tool(name: string, f: (v: string, extra: { user: string }) => string) { return f(name, { user: 'u' }); } };`,
    `const server = new McpServer({ name: 's', version: '1' });`,
    `server.tool('a', { q: z.string() }, async ({ q }, extra) => {`,
    `  log.tool('a', (v, extra) => v + extra.user);`,
    `  return { content: [{ type: 'text', text: q + String(extra.signal.aborted) }] };`,
    `});`,
    ``,
  ].join('\n');
  const texts = new Map([['/p/a.ts', source]]);
  const calls = foreignReceiverCalls({ cwd: '/p', files: ['/p/a.ts'], texts, targets: ['/p/a.ts'] }).get('/p/a.ts') ?? [];

  it('leaves a kept call, its arguments and its callback as written, and migrates the rest as the codemod does', () => {
    const plain = migrateV1Source({ source, path: '/p/a.ts', projectType: 'server' });
    expect(plain.source).toContain(`log.registerTool('a', {}, (v, ctx) => v + ctx.user);`);
    // the method, and the two names of its callback's own `extra` (the handler's rename reaches into it)
    expect(calls.map((c) => [c.receiver, c.method, c.names.length])).toEqual([['log', 'tool', 3]]);
    const r = migrateV1Source({ source, path: '/p/a.ts', projectType: 'server', keep: calls.flatMap((c) => c.names) });
    expect(r.kept).toBe(3);
    const lines = r.source.split('\n');
    expect(lines[0]).toBe('#!/usr/bin/env node');
    expect(lines[5]).toBe(`server.registerTool('a', { inputSchema: z.object({ q: z.string() }) }, async ({ q }, ctx) => {`);
    expect(lines[6]).toBe(`  log.tool('a', (v, extra) => v + extra.user);`);
    // a line the codemod rewrote gets its own indentation back too (v1-indentation.ts)
    expect(lines[7]).toBe(`  return { content: [{ type: 'text', text: q + String(ctx.mcpReq.signal.aborted) }] };`);
    expect(r.source).not.toContain('mrtrPortKept');
  });

  it('returns a file whose only rewrite was a kept call byte-identical', () => {
    const own = `import { McpServer } from '@modelcontextprotocol/server';\nexport type S = McpServer;\nexport const log = { tool(a: string, b: string) {} };\nlog.tool('a', 'b');\n`;
    expect(migrateV1Source({ source: own, path: '/p/a.ts', projectType: 'server' }).source).toContain(`log.registerTool('a', {}, 'b');`);
    const r = migrateV1Source({ source: own, path: '/p/a.ts', projectType: 'server', keep: [own.lastIndexOf('tool(')] });
    expect(r).toMatchObject({ source: own, changed: false, kept: 1 });
  });
});

describe('shieldNames', () => {
  it('shields whole names only, and undoes it exactly', () => {
    const text = `a.tool(1); b ?.\n  prompt(2, (extra) => extra); tool(3);`;
    const offsets = [text.indexOf('tool'), text.indexOf('prompt'), text.indexOf('extra'), text.lastIndexOf('extra'), text.indexOf('ool'), 1];
    const s = shieldNames(text, offsets);
    expect(s.count).toBe(4);
    expect(s.text).toBe(`a.tool$mrtrPortKept(1); b ?.\n  prompt$mrtrPortKept(2, (extra$mrtrPortKept) => extra$mrtrPortKept); tool(3);`);
    expect(unshieldNames(s.text)).toBe(text);
  });

  it('shields nothing in a text that already holds its suffix', () => {
    const text = `a.tool$mrtrPortKept(1); a.tool(2);`;
    expect(shieldNames(text, [text.lastIndexOf('tool')])).toEqual({ text, count: 0 });
  });
});
