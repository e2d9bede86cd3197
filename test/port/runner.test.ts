/**
 * The runner's own guarantees, with a stand-in analyzer and transform (test/port/fakes.ts): helper file
 * placement and writing, import paths, markers, dry-run, per-file rollback, framing, v1 migration, exit codes.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LONG_RUN_FILES, portExitCode, PortUsageError, runPort, type RunPortOptions } from '../../src/port/index.js';
import { FAKE_TEMPLATE, fakeDependencies } from './fakes.js';
import { removeDir, snapshot } from './helpers.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mrtr-port-runner-'));
});
afterEach(() => removeDir(dir));

function write(rel: string, text: string): void {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  writeFileSync(join(dir, rel), text);
}
const read = (rel: string) => readFileSync(join(dir, rel), 'utf8');

const TOOL = [
  `import { helper } from './util.js';`,
  `export async function handler(ctx: any) {`,
  `  const answer = await ctx.mcpReq.elicitInput({ message: 'ok?' });`,
  `  return helper(answer);`,
  `}`,
  ``,
].join('\n');
const LOOP = [
  `export async function many(ctx: any) {`,
  `  for (const q of ['a', 'b']) {`,
  `    await ctx.mcpReq.elicitInput({ message: q }); // manual`,
  `  }`,
  `}`,
  ``,
].join('\n');

function project(): void {
  write('package.json', '{ "name": "p", "type": "module" }');
  write('tsconfig.json', '{ "compilerOptions": { "module": "NodeNext" } }');
  write('src/tool.ts', TOOL);
  write('src/loop.ts', LOOP);
  write('src/util.ts', 'export const helper = (x: unknown) => x;\n');
}

const port = (extra: Partial<RunPortOptions> = {}) =>
  runPort({ cwd: dir, paths: ['.'], dependencies: fakeDependencies(), ...extra });

describe('runPort (stand-in analyzer and transform)', () => {
  it('ports, writes the helper once next to the sources, imports it with the project suffix, leaves markers', async () => {
    project();
    const result = await port();
    expect(result.summary).toMatchObject({ scanned: 3, changed: 2, unchanged: 1, skipped: 0, failed: 0, sites: 2, markers: 1 });
    expect(read('src/mrtr-continuation.ts')).toBe(FAKE_TEMPLATE);
    expect(result.helpers).toEqual([{ file: 'src/mrtr-continuation.ts', status: 'written', importedBy: ['src/tool.ts'] }]);
    expect(read('src/tool.ts')).toContain(`import { askPorted } from './mrtr-continuation.js';`);
    expect(read('src/loop.ts').split('\n')[2]).toBe('    /* @mrtr-port-todo(in-loop): restructure by hand */');
    expect(result.files.map((f) => [f.file, f.status, f.markers])).toEqual([
      ['src/loop.ts', 'changed', 1],
      ['src/tool.ts', 'changed', 0],
    ]);
    expect(read('src/util.ts')).toBe('export const helper = (x: unknown) => x;\n');
    expect(portExitCode(result)).toBe(1);
  });

  it('changes nothing when run on its own output', async () => {
    project();
    await port();
    const before = snapshot(dir);
    const again = await port();
    expect(snapshot(dir)).toEqual(before);
    expect(again.summary.changed).toBe(0);
    expect(again.helpers).toEqual([]);
    expect(again.summary.markers).toBe(1);
  });

  it('reuses the helper a previous run wrote when a later file in another folder is ported', async () => {
    project();
    await port();
    write('src/tools/late.ts', TOOL);
    const result = await port();
    expect(result.helpers).toEqual([{ file: 'src/mrtr-continuation.ts', status: 'identical', importedBy: ['src/tools/late.ts'] }]);
    expect(read('src/tools/late.ts')).toContain(`from '../mrtr-continuation.js';`);
    expect(existsSync(join(dir, 'src/tools/mrtr-continuation.ts'))).toBe(false);
  });

  it('writes the helper for a file that imports it although none of its sites was auto', async () => {
    write('package.json', '{ "name": "p" }');
    write('src/loop.ts', LOOP);
    const deps = fakeDependencies();
    const result = await port({
      dependencies: {
        ...deps,
        transform: (input) => `import { rootsFromConfig } from '${input.options.continuationImport}';\n` + deps.transform(input),
      },
    });
    expect(result.helpers).toEqual([{ file: 'src/mrtr-continuation.ts', status: 'written', importedBy: ['src/loop.ts'] }]);
    expect(read('src/loop.ts').split('\n')[0]).toBe(`import { rootsFromConfig } from './mrtr-continuation';`);
  });

  it('exits 0 when everything was ported and no marker is left', async () => {
    project();
    write('src/loop.ts', 'export const nothing = 1;\n');
    const result = await port();
    expect(result.summary.markers).toBe(0);
    expect(portExitCode(result)).toBe(0);
  });

  it('uses no suffix without NodeNext and without suffixed relative imports', async () => {
    project();
    write('tsconfig.json', '{ "compilerOptions": { "module": "ESNext", "moduleResolution": "Bundler" } }');
    write('src/tool.ts', TOOL.replace(`'./util.js'`, `'./util'`));
    await port();
    expect(read('src/tool.ts')).toContain(`from './mrtr-continuation';`);
  });

  it('--dry-run writes nothing, diffs every change and shows the helper as a new file', async () => {
    project();
    const before = snapshot(dir);
    const result = await port({ dryRun: true });
    expect(snapshot(dir)).toEqual(before);
    const tool = result.files.find((f) => f.file === 'src/tool.ts')!;
    expect(tool.status).toBe('changed');
    expect(tool.diff).toContain('--- a/src/tool.ts\n+++ b/src/tool.ts\n');
    expect(tool.diff).toContain(`+import { askPorted } from './mrtr-continuation.js';`);
    expect(result.helpers[0]).toMatchObject({ file: 'src/mrtr-continuation.ts', status: 'would-write' });
    expect(result.helpers[0].diff).toContain('--- /dev/null\n+++ b/src/mrtr-continuation.ts');
    expect(result.summary.markers).toBe(1);
  });

  it('a transform that throws leaves that file byte-identical, reports it, and ports the rest', async () => {
    project();
    const deps = fakeDependencies();
    const result = await port({
      dependencies: {
        ...deps,
        transform: (input) => {
          if (input.path.endsWith('loop.ts')) throw new Error('boom in loop');
          return deps.transform(input);
        },
      },
    });
    expect(read('src/loop.ts')).toBe(LOOP);
    const loop = result.files.find((f) => f.file === 'src/loop.ts')!;
    expect(loop).toMatchObject({ status: 'failed', error: 'transform failed: boom in loop' });
    expect(read('src/tool.ts')).toContain('askPorted(');
    expect(result.summary.failed).toBe(1);
    expect(portExitCode(result)).toBe(1);
  });

  it('output that does not re-parse is rolled back and reported with the syntax error', async () => {
    project();
    const deps = fakeDependencies();
    const result = await port({
      dependencies: { ...deps, transform: (input) => deps.transform(input).replace('return helper(answer);', 'return helper(answer;') },
    });
    expect(read('src/tool.ts')).toBe(TOOL);
    expect(result.files.find((f) => f.file === 'src/tool.ts')!.error).toMatch(/^output does not parse: .*\(5:\d+\)$/);
    // its package needs no helper now that its only importer failed
    expect(existsSync(join(dir, 'src/mrtr-continuation.ts'))).toBe(false);
  });

  it('a failed write is reported and leaves the file as it was; the other files are still written', async () => {
    project();
    const result = await port({
      write: (file, text) => {
        if (file.endsWith('loop.ts')) throw new Error('EACCES: permission denied');
        writeFileSync(file, text);
      },
    });
    expect(read('src/loop.ts')).toBe(LOOP);
    expect(result.files.find((f) => f.file === 'src/loop.ts')).toMatchObject({ status: 'failed', error: 'write failed: EACCES: permission denied' });
    expect(read('src/tool.ts')).toContain('askPorted(');
  });

  it('when the helper cannot be written, the files importing it are left as they were', async () => {
    project();
    const result = await port({
      write: (file, text) => {
        if (file.endsWith('mrtr-continuation.ts')) throw new Error('ENOSPC: no space left on device');
        writeFileSync(file, text);
      },
    });
    expect(read('src/tool.ts')).toBe(TOOL);
    expect(result.helpers[0]).toMatchObject({ status: 'failed', error: 'ENOSPC: no space left on device' });
    expect(result.files.find((f) => f.file === 'src/tool.ts')!.error).toContain('helper file src/mrtr-continuation.ts could not be written');
    // the file that does not need the helper is still ported
    expect(read('src/loop.ts')).toContain('@mrtr-port-todo(in-loop)');
  });

  it('never overwrites an existing helper that differs; reports it', async () => {
    project();
    write('src/mrtr-continuation.ts', '// my own edits\n');
    const result = await port();
    expect(read('src/mrtr-continuation.ts')).toBe('// my own edits\n');
    expect(result.helpers[0]).toMatchObject({ file: 'src/mrtr-continuation.ts', status: 'differs' });
  });

  it('keeps CRLF, BOM and shebang even when the transform drops them', async () => {
    project();
    const crlf = '\uFEFF#!/usr/bin/env node\r\n' + TOOL.replace(/\n/g, '\r\n');
    write('src/tool.ts', crlf);
    const deps = fakeDependencies();
    await port({
      dependencies: {
        ...deps,
        transform: (input) => deps.transform(input).replace(/^\uFEFF/, '').replace(/^#![^\n]*\n/, '').replace(/\r\n/g, '\n'),
      },
    });
    const out = read('src/tool.ts');
    expect(out.startsWith('\uFEFF#!/usr/bin/env node\r\n')).toBe(true);
    expect(out).not.toMatch(/[^\r]\n/);
    expect(out).toContain('askPorted(');
  });

  it('skips files the analyzer could not parse, with the reason', async () => {
    project();
    write('src/broken.ts', 'SYNTAX ERROR ctx.mcpReq.elicitInput(\n');
    const result = await port();
    expect(result.files.find((f) => f.file === 'src/broken.ts')).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/^parse-error: /) });
    expect(result.summary.skippedBy).toEqual({ 'parse-error': 1 });
    expect(read('src/broken.ts')).toBe('SYNTAX ERROR ctx.mcpReq.elicitInput(\n');
  });

  it('reports progress on long runs only', async () => {
    project();
    const quiet: string[] = [];
    await port({ dryRun: true, onProgress: (m) => quiet.push(m) });
    expect(quiet).toEqual([]);
    for (let i = 0; i < LONG_RUN_FILES; i++) write(`src/gen/f${i}.ts`, `export const v${i} = ${i};\n`);
    const told: string[] = [];
    await port({ dryRun: true, onProgress: (m) => told.push(m) });
    expect(told).toEqual([`reading ${LONG_RUN_FILES + 3} files…`, `analyzing ${LONG_RUN_FILES + 3} files…`, 'porting 2 files with sites…']);
  });

  it('hands the analyzer the texts it read, so no file is read twice', async () => {
    project();
    const deps = fakeDependencies();
    let given: ReadonlyMap<string, string> | undefined;
    await port({
      dryRun: true,
      dependencies: {
        ...deps,
        analyze: (o) => {
          given = o.texts;
          return deps.analyze(o);
        },
      },
    });
    expect(given && [...given.keys()].map((abs) => abs.slice(dir.length + 1).split('\\').join('/')).sort()).toEqual(['src/loop.ts', 'src/tool.ts', 'src/util.ts']);
    expect(given?.get(join(dir, 'src/tool.ts'))).toBe(TOOL);
  });

  it('rejects a missing path and a path without sources before touching anything', async () => {
    project();
    await expect(port({ paths: ['nope'] })).rejects.toThrow(PortUsageError);
    mkdirSync(join(dir, 'docs'));
    write('docs/readme.md', '# hi');
    await expect(port({ paths: ['docs'] })).rejects.toThrow(/no source files in: docs/);
  });
});

describe('runPort on SDK v1 sources (real codemod, stand-in analyzer and transform)', () => {
  const V1 = [
    `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';`,
    `import { z } from 'zod';`,
    `export const server = new McpServer({ name: 'x', version: '1' });`,
    `server.tool('t', { a: z.string() }, async ({ a }, extra) => {`,
    `  return { content: [{ type: 'text', text: a + extra.requestId }] };`,
    `});`,
    ``,
  ].join('\n');

  it('migrates v1 files to v2 by default, analyzing the migrated text', async () => {
    write('package.json', '{ "name": "v1", "dependencies": { "@modelcontextprotocol/sdk": "1.32.2" } }');
    write('src/server.ts', V1);
    write('src/plain.ts', 'export const plain = 1;\n');
    const seen: string[] = [];
    const deps = fakeDependencies();
    const result = await port({
      dependencies: {
        ...deps,
        analyze: (o) => {
          // in memory: the migrated texts are never written anywhere before the run's write stage
          seen.push(...o.files.map((f) => o.texts!.get(f)!));
          return deps.analyze(o);
        },
      },
    });
    expect(seen.some((t) => t.includes(`server.registerTool('t'`))).toBe(true);
    expect(read('src/server.ts')).toContain(`from "@modelcontextprotocol/server"`);
    expect(read('src/server.ts')).toContain('ctx.mcpReq.id');
    expect(read('src/plain.ts')).toBe('export const plain = 1;\n');
    expect(result.files).toEqual([expect.objectContaining({ file: 'src/server.ts', status: 'changed', v1Migrated: true })]);
    expect(result.summary.v1Migrated).toBe(1);
  });

  it('a file the codemod throws on is left byte-identical and reported; the others are migrated', async () => {
    write('package.json', '{ "name": "v1" }');
    write('src/server.ts', V1);
    // a module specifier that is not a string literal makes the codemod's import transform throw
    const bad = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nimport x from 42;\n`;
    write('src/bad.ts', bad);
    const result = await port();
    expect(read('src/bad.ts')).toBe(bad);
    expect(result.files.find((f) => f.file === 'src/bad.ts')).toMatchObject({
      status: 'failed',
      error: 'v1 migration failed: Expected the module specifier to be a string literal.',
    });
    expect(read('src/server.ts')).toContain('registerTool(');
    expect(portExitCode(result)).toBe(1);
  });

  it('--skip-v1 leaves v1 files alone with one report line each', async () => {
    write('package.json', '{ "name": "v1" }');
    write('src/server.ts', V1);
    write('src/other.ts', V1);
    const result = await port({ skipV1: true });
    expect(read('src/server.ts')).toBe(V1);
    expect(result.files.map((f) => [f.file, f.status, f.reason])).toEqual([
      ['src/other.ts', 'skipped', 'sdk-v1: left alone (--skip-v1)'],
      ['src/server.ts', 'skipped', 'sdk-v1: left alone (--skip-v1)'],
    ]);
    expect(result.summary.skippedBy).toEqual({ 'sdk-v1': 2 });
  });
});
