/**
 * `port` end to end with the real analyzer, transforms and runtime template, on temp-dir copies of the
 * example projects (fixtures/projects/notes-v2: SDK v2 push style; notes-v1: SDK v1).
 */
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findMarkers } from '../../src/port/markers.js';
import { formatPortText } from '../../src/port/format.js';
import { portExitCode, runPort } from '../../src/port/index.js';
import { continuationTemplate } from '../../src/runtime/template.js';
import { copyFixture, removeDir, repoRoot, snapshot } from './helpers.js';
import { typeCheckProject } from '../perf/shared-source-files.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) removeDir(dir);
  dir = undefined;
});
const read = (rel: string) => readFileSync(join(dir!, rel), 'utf8');

/**
 * What `tsc --noEmit -p dir` reports, with the repo's TypeScript and packages (linked in as node_modules),
 * in this process: the programs share their lib and package files (test/perf/shared-source-files.ts).
 */
function typeCheck(project: string): { status: number | null; output: string } {
  symlinkSync(join(repoRoot, 'node_modules'), join(project, 'node_modules'), 'dir');
  const errors = typeCheckProject(project);
  return { status: errors.length === 0 ? 0 : 2, output: errors.join('\n') };
}

describe('port on an SDK v2 project (notes-v2)', () => {
  it('ports it: helpers (continuation and flow runtime) written once and byte-identical, .js imports, a marker per manual site, type-checks, re-run changes nothing', async () => {
    dir = copyFixture('projects', 'notes-v2');
    const result = await runPort({ cwd: dir, paths: ['.'] });

    // the flow imports the continuation and the claim store; the claim store imports the continuation
    expect(result.helpers).toEqual([
      { file: 'src/mrtr-claims.ts', status: 'written', importedBy: ['src/mrtr-flow.ts'] },
      { file: 'src/mrtr-continuation.ts', status: 'written', importedBy: ['src/mrtr-claims.ts', 'src/mrtr-flow.ts', 'src/server.ts'] },
      { file: 'src/mrtr-flow.ts', status: 'written', importedBy: ['src/confirm.ts', 'src/server.ts'] },
    ]);
    expect(read('src/mrtr-continuation.ts')).toBe(continuationTemplate());
    expect(read('src/mrtr-flow.ts')).toBe(readFileSync(join(repoRoot, 'src/runtime/mrtr-flow.ts'), 'utf8'));
    expect(read('src/mrtr-claims.ts')).toBe(readFileSync(join(repoRoot, 'src/runtime/mrtr-claims.ts'), 'utf8'));
    expect(read('src/server.ts')).toContain(`from './mrtr-flow.js';`);
    expect(read('src/server.ts')).toContain("resumable('rename', async ({ id }) => {");
    expect(read('src/confirm.ts')).toContain('await elicit({');

    // every manual/unportable site of the analysis has a todo marker in its file, and the count adds up
    const markerCount = (rel: string) => findMarkers(read(rel)).filter((m) => !m.acknowledged).length;
    expect(result.summary.markers).toBe(markerCount('src/server.ts') + markerCount('src/confirm.ts'));
    expect(findMarkers(read('src/server.ts')).map((m) => m.reason)).toEqual(expect.arrayContaining(['roots-retired', 'notification-handler']));
    expect(result.summary).toMatchObject({ failed: 0, skipped: 0, changed: 2 });
    expect(portExitCode(result)).toBe(1);

    const before = snapshot(dir);
    const again = await runPort({ cwd: dir, paths: ['.'] });
    expect(again.summary.changed).toBe(0);
    expect(again.summary.markers).toBe(result.summary.markers);
    expect(snapshot(dir)).toEqual(before);

    const tsc = typeCheck(dir);
    expect(tsc.output).toBe('');
    expect(tsc.status).toBe(0);
  }, 120_000);

  it('--dry-run writes nothing and reports the same changes as diffs', async () => {
    dir = copyFixture('projects', 'notes-v2');
    const before = snapshot(dir);
    const result = await runPort({ cwd: dir, paths: ['.'], dryRun: true });
    expect(snapshot(dir)).toEqual(before);
    expect(result.helpers.map((h) => [h.file, h.status])).toEqual([['src/mrtr-claims.ts', 'would-write'], ['src/mrtr-continuation.ts', 'would-write'], ['src/mrtr-flow.ts', 'would-write']]);
    const text = formatPortText(result);
    expect(text).toContain('--- /dev/null\n+++ b/src/mrtr-continuation.ts');
    expect(text).toContain('--- a/src/server.ts\n+++ b/src/server.ts');
    expect(text).toMatch(/dry run, nothing written: scanned 4, would change 2,/);
  }, 60_000);
});

describe('framing with the real transforms', () => {
  // (a BOM followed by a shebang is not tested here: the analyzer currently reports such a file as a parse error)
  it.each([
    ['a shebang', '#!/usr/bin/env node\r\n'],
    ['a byte-order mark', '\uFEFF'],
  ])('keeps CRLF and %s on a ported file', async (_what, prefix) => {
    dir = copyFixture('projects', 'notes-v2');
    const original = read('src/server.ts');
    writeFileSync(join(dir, 'src/server.ts'), prefix + original.replace(/\n/g, '\r\n'));
    const result = await runPort({ cwd: dir, paths: ['src/server.ts'] });
    expect(result.files.find((f) => f.file === 'src/server.ts')?.status).toBe('changed');
    const out = read('src/server.ts');
    expect(out.startsWith(prefix)).toBe(true);
    expect(out).not.toMatch(/[^\r]\n/);
    expect(out).toContain('resumable(');
  }, 60_000);
});

describe('--roots', () => {
  it('config (default) retires listRoots() to configuration; ask ports it to a round (await listRoots())', async () => {
    dir = copyFixture('projects', 'notes-v2');
    const byConfig = await runPort({ cwd: dir, paths: ['.'], dryRun: true });
    const asked = await runPort({ cwd: dir, paths: ['.'], dryRun: true, roots: 'ask' });
    const serverDiff = (r: typeof asked) => r.files.find((f) => f.file === 'src/server.ts')!.diff!;
    expect(serverDiff(byConfig)).toContain('+      const { roots } = rootsFromConfig();');
    expect(serverDiff(asked)).toContain('+      const { roots } = await listRoots();');
    expect(asked.options.roots).toBe('ask');
  }, 60_000);
});

describe('--codec sdk', () => {
  it("writes the SDK-codec helper (byte-identical to the runtime's) and imports it", async () => {
    dir = copyFixture('projects', 'notes-v2');
    const result = await runPort({ cwd: dir, paths: ['.'], codec: 'sdk' });
    expect(result.helpers.map((h) => [h.file, h.status])).toEqual([['src/mrtr-claims.ts', 'written'], ['src/mrtr-continuation-sdk.ts', 'written'], ['src/mrtr-flow.ts', 'written']]);
    expect(read('src/mrtr-continuation-sdk.ts')).toBe(readFileSync(join(repoRoot, 'src/runtime/mrtr-continuation-sdk.ts'), 'utf8'));
    // the flow runtime seals through the SDK-codec continuation file
    expect(read('src/mrtr-flow.ts')).toContain(`from './mrtr-continuation-sdk.js';`);
    expect(read('src/mrtr-flow.ts')).not.toContain(`from './mrtr-continuation.js';`);
    expect(read('src/server.ts')).toContain(`from './mrtr-continuation-sdk.js';`);
    const tsc = typeCheck(dir);
    expect(tsc.output).toBe('');
    expect(tsc.status).toBe(0);
  }, 120_000);
});

describe('port on an SDK v1 project (notes-v1)', () => {
  it('migrates with the official codemod, then ports; package.json moves to v2; the result type-checks', async () => {
    dir = copyFixture('projects', 'notes-v1');
    const result = await runPort({ cwd: dir, paths: ['.'] });
    expect(result.summary).toMatchObject({ failed: 0, v1Migrated: 3 });
    for (const f of ['src/server.ts', 'src/admin.ts', 'src/main.ts']) expect(read(f)).not.toContain('@modelcontextprotocol/sdk');
    expect(read('src/server.ts')).toContain('registerTool(');
    expect(read('src/server.ts')).toContain('resumable(');
    expect(read('src/mrtr-continuation.ts')).toBe(continuationTemplate());
    const pkg = JSON.parse(read('package.json'));
    expect(pkg.dependencies['@modelcontextprotocol/sdk']).toBeUndefined();
    expect(pkg.dependencies['@modelcontextprotocol/server']).toBe('^2.4.0');
    expect(result.manifests).toEqual([expect.objectContaining({ file: 'package.json', status: 'written', removed: ['@modelcontextprotocol/sdk'] })]);

    const before = snapshot(dir);
    expect((await runPort({ cwd: dir, paths: ['.'] })).summary.changed).toBe(0);
    expect(snapshot(dir)).toEqual(before);

    const tsc = typeCheck(dir);
    expect(tsc.output).toBe('');
    expect(tsc.status).toBe(0);
  }, 120_000);

  it('ported in part (one file named), keeps SDK v1 in package.json for the files it did not scan', async () => {
    dir = copyFixture('projects', 'notes-v1');
    const result = await runPort({ cwd: dir, paths: ['src/server.ts'] });
    expect(result.summary).toMatchObject({ failed: 0, v1Migrated: 1 });
    expect(read('src/admin.ts')).toContain('@modelcontextprotocol/sdk');
    const pkg = JSON.parse(read('package.json'));
    expect(pkg.dependencies['@modelcontextprotocol/sdk']).toBeDefined();
    expect(pkg.dependencies['@modelcontextprotocol/server']).toBe('^2.4.0');
    const [manifest] = result.manifests;
    expect(manifest.removed).toEqual([]);
    expect(manifest.kept).toEqual([
      { name: '@modelcontextprotocol/sdk', reason: 'still imported by files this run did not port (src/admin.ts, src/main.ts); port them too, then remove it' },
    ]);
  }, 120_000);

  it('--skip-v1 leaves every v1 file alone, one report line each', async () => {
    dir = copyFixture('projects', 'notes-v1');
    const before = snapshot(dir);
    const result = await runPort({ cwd: dir, paths: ['.'], skipV1: true });
    expect(snapshot(dir)).toEqual(before);
    const lines = formatPortText(result).split('\n').filter((l) => l.includes('skipped: sdk-v1'));
    expect(lines).toEqual([
      'src/admin.ts: skipped: sdk-v1: left alone (--skip-v1)',
      'src/main.ts: skipped: sdk-v1: left alone (--skip-v1)',
      'src/server.ts: skipped: sdk-v1: left alone (--skip-v1)',
    ]);
    // the skipped files still hold legacy requests: not clean
    expect(result.files.filter((f) => f.mayHoldSites).map((f) => f.file)).toEqual(['src/admin.ts', 'src/server.ts']);
    expect(portExitCode(result)).toBe(1);
  }, 60_000);
});
