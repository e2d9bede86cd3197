/**
 * Issue 10, case 3: a ported file keeps its identity. A symlink named on the command line is followed
 * (its target is ported, the link stays a link) when the target is inside the working directory; hard
 * links stay one file; mode and owner are kept; a read-only file is reported, not rewritten, unless
 * --force. Stand-in analyzer and transform (fakes.ts); real files.
 */
import { chmodSync, chownSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { portExitCode, runPort, type RunPortOptions } from '../../src/port/index.js';
import { fakeDependencies } from './fakes.js';
import { removeDir } from './helpers.js';

let dir: string;
let outside: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mrtr-port-identity-'));
  outside = mkdtempSync(join(tmpdir(), 'mrtr-port-outside-'));
});
afterEach(() => {
  removeDir(dir);
  removeDir(outside);
});

function put(rel: string, text: string, root = dir): string {
  const file = join(root, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}
const textOf = (file: string) => readFileSync(file, 'utf8');

const TOOL = `export async function handler(ctx: any) {\n  return ctx.mcpReq.elicitInput({ message: 'ok?' });\n}\n`;
const isPorted = (text: string) => text.includes('askPorted({') && !text.includes('ctx.mcpReq.elicitInput(');
const isRoot = process.getuid?.() === 0;

const port = (paths: string[], extra: Partial<RunPortOptions> = {}) => runPort({ cwd: dir, paths, dependencies: fakeDependencies(), ...extra });

describe('symlinks named on the command line', () => {
  it('are followed: the target inside the working directory is ported, the link stays a link', async () => {
    const target = put('src/real.ts', TOOL);
    symlinkSync('real.ts', join(dir, 'src/link.ts'));
    const result = await port(['src/link.ts']);
    expect(result.files.map((f) => [f.file, f.status])).toEqual([['src/link.ts', 'changed']]);
    expect(lstatSync(join(dir, 'src/link.ts')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(dir, 'src/link.ts'))).toBe('real.ts');
    expect(isPorted(textOf(target))).toBe(true);
  });

  it('are not followed out of the working directory: skipped with the reason, the target untouched, exit 1', async () => {
    const target = put('theirs.ts', TOOL, outside);
    symlinkSync(target, join(dir, 'link.ts'));
    const result = await port(['link.ts']);
    expect(result.files[0]).toMatchObject({ file: 'link.ts', status: 'skipped', reason: expect.stringMatching(/^symlink-outside: its target .* is outside the working directory/) });
    expect(textOf(target)).toBe(TOOL);
    expect(portExitCode(result)).toBe(1);
  });
});

describe('hard links, mode and owner', () => {
  it('a hard-linked file stays one file: every name sees the port', async () => {
    const a = put('src/a.ts', TOOL);
    const b = join(dir, 'elsewhere.ts');
    linkSync(a, b);
    const { ino } = statSync(a);
    await port(['src']);
    expect(isPorted(textOf(b))).toBe(true);
    expect(statSync(a)).toMatchObject({ ino, nlink: 2 });
    expect(statSync(b).ino).toBe(ino);
  });

  it('keeps the mode bits (executable, setgid)', async () => {
    const a = put('bin/cli.ts', '#!/usr/bin/env node\n' + TOOL);
    chmodSync(a, 0o2755);
    await port(['bin']);
    expect(statSync(a).mode & 0o7777).toBe(0o2755);
    expect(isPorted(textOf(a))).toBe(true);
  });

  it.runIf(isRoot)('keeps the owner of a file that belongs to another user', async () => {
    const a = put('src/a.ts', TOOL);
    chownSync(a, 4321, 4322);
    await port(['src']);
    expect(statSync(a)).toMatchObject({ uid: 4321, gid: 4322 });
    expect(isPorted(textOf(a))).toBe(true);
  });
});

describe('read-only files', () => {
  it('are reported as failed: read-only and left as they are; the others are ported', async () => {
    const locked = put('src/locked.ts', TOOL);
    const open = put('src/open.ts', TOOL);
    chmodSync(locked, 0o444);
    const result = await port(['src']);
    expect(result.files.find((f) => f.file === 'src/locked.ts')).toMatchObject({ status: 'failed', error: expect.stringMatching(/^read-only: /) });
    expect(textOf(locked)).toBe(TOOL);
    expect(isPorted(textOf(open))).toBe(true);
    expect(portExitCode(result)).toBe(1);
  });

  it('are written with --force, and stay read-only', async () => {
    const locked = put('src/locked.ts', TOOL);
    chmodSync(locked, 0o444);
    const result = await port(['src'], { force: true });
    expect(result.files[0]).toMatchObject({ status: 'changed' });
    expect(isPorted(textOf(locked))).toBe(true);
    expect(statSync(locked).mode & 0o777).toBe(0o444);
  });
});
