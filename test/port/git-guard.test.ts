/**
 * Issue 10, case 7: port stops before writing (exit 2, the list of files) while a file it would
 * rewrite has uncommitted git changes, unless --force or --dry-run; outside git there is no guard.
 * Through the CLI in-process, on a real git repository in a temp dir.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { uncommittedFiles } from '../../src/port/git-guard.js';
import { runPort } from '../../src/port/index.js';
import { fakeDependencies } from './fakes.js';
import { removeDir, snapshot } from './helpers.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mrtr-port-git-'));
});
afterEach(() => removeDir(dir));

const TOOL = `export async function handler(ctx: any) {\n  return ctx.mcpReq.elicitInput({ message: 'ok?' });\n}\n`;

function put(rel: string, text: string): void {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  writeFileSync(join(dir, rel), text);
}

function git(...args: string[]): void {
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-c', 'init.defaultBranch=main', ...args], { cwd: dir, stdio: 'ignore' });
}

/** A committed repo: package.json, two tool files and a README. */
function repo(): void {
  put('package.json', '{ "name": "p" }\n');
  put('src/a.ts', TOOL);
  put('src/b.ts', TOOL);
  put('README.md', '# p\n');
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'init');
}

const port = (extra: { dryRun?: boolean; force?: boolean; paths?: string[] } = {}) =>
  runPort({ cwd: dir, paths: extra.paths ?? ['.'], dependencies: fakeDependencies(), ...extra });

describe('the dirty-tree guard', () => {
  it('stops before writing anything, listing modified, staged and untracked files port would rewrite', async () => {
    repo();
    put('src/a.ts', TOOL + '// work in progress\n');
    put('src/c.ts', TOOL);
    put('package.json', '{ "name": "p", "version": "2.0.0" }\n');
    git('add', 'package.json');
    const before = snapshot(dir);
    await expect(port()).rejects.toThrow(/^uncommitted changes in 3 files port would rewrite \(commit or stash them first.*\):\n {2}package\.json\n {2}src\/a\.ts\n {2}src\/c\.ts$/s);
    expect(snapshot(dir)).toEqual(before);
  });

  it('ignores changes in files port would not rewrite', async () => {
    repo();
    put('README.md', '# p, edited\n');
    const result = await port();
    expect(result.summary.changed).toBe(2);
  });

  it('lets --dry-run and --force through', async () => {
    repo();
    put('src/a.ts', TOOL + '// wip\n');
    const dry = await port({ dryRun: true });
    expect(dry.files.find((f) => f.file === 'src/a.ts')!.diff).toContain('+++ b/src/a.ts');
    const forced = await port({ force: true });
    expect(forced.summary.changed).toBe(2);
    expect(readFileSync(join(dir, 'src/a.ts'), 'utf8')).toContain('askPorted(');
  });

  it('a clean work tree ports; a named sub-folder is checked with paths relative to the working directory', async () => {
    repo();
    expect((await port({ paths: ['src'] })).summary.changed).toBe(2);
    // both are ported now (uncommitted); a.ts is put back as committed
    put('src/a.ts', TOOL);
    expect(uncommittedFiles(join(dir, 'src'), [join(dir, 'src/a.ts'), join(dir, 'src/b.ts')])).toEqual(['b.ts']);
  });

  it.runIf(process.getuid?.() === 0)('a repository git refuses to read stops the run: it fails closed', async () => {
    repo();
    // git will not read a repository another user owns ("dubious ownership")
    execFileSync('chown', ['-R', '65534:65534', dir]);
    const before = snapshot(dir);
    await expect(port({ paths: ['src'] })).rejects.toThrow(/^git cannot read the repository around .*dubious ownership.*\(--force skips this check\)$/);
    expect(snapshot(dir)).toEqual(before);
    expect((await port({ paths: ['src'], force: true })).summary.changed).toBe(2);
  });

  it('outside a git work tree there is no guard', async () => {
    put('src/a.ts', TOOL);
    expect(uncommittedFiles(dir, [join(dir, 'src/a.ts')])).toBeUndefined();
    expect((await port()).summary.changed).toBe(1);
  });
});
