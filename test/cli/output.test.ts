/**
 * Issue 10, cases 4 and 6: every report path is checked before the first write (exit 2, nothing
 * written), and a report that cannot be delivered (a closed pipe, a full disk) ends with exit 2 and
 * one line on stderr, never a stack trace. The faults are real: a pipe whose reader is gone, /dev/full.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, linkSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { snapshot } from '../port/helpers.js';
import { compiledScript } from '../compiled.js';
import { cli, copyProject, writeTree } from './helpers.js';

describe('--output-file is checked before anything is written', () => {
  it('port -o onto a scanned source: exit 2, no file touched', async () => {
    const dir = copyProject('notes-v2');
    const before = snapshot(dir);
    const r = await cli(dir, 'port', '-o', 'src/server.ts');
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'mrtr-port: --output-file src/server.ts: is a source file this run scans; the report would replace it\n' });
    expect(snapshot(dir)).toEqual(before);
  });

  it('port -o onto another name of a scanned source (a hard link): exit 2, no file touched', async () => {
    const dir = copyProject('notes-v2');
    linkSync(path.join(dir, 'src/server.ts'), path.join(dir, 'report.txt'));
    const before = snapshot(dir);
    const r = await cli(dir, 'port', '-o', 'report.txt');
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'mrtr-port: --output-file report.txt: is a source file this run scans; the report would replace it\n' });
    expect(snapshot(dir)).toEqual(before);
  });

  it('port -o where no file can be created: exit 2 before the sources or the helper are written', async () => {
    const dir = copyProject('notes-v2');
    const before = snapshot(dir);
    const r = await cli(dir, 'port', '-o', 'package.json/report.txt');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^mrtr-port: --output-file package\.json\/report\.txt: .*package\.json is not a folder\n$/);
    expect(snapshot(dir)).toEqual(before);
  });

  it('port -o onto a read-only file: exit 2, nothing written', async () => {
    const dir = copyProject('notes-v2');
    writeTree(dir, { 'report.txt': 'keep\n' });
    chmodSync(path.join(dir, 'report.txt'), 0o444);
    const before = snapshot(dir);
    const r = await cli(dir, 'port', '--output-file', 'report.txt');
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'mrtr-port: --output-file report.txt: is not writable\n' });
    expect(snapshot(dir)).toEqual(before);
  });

  it('analyze -o src/a.ts never overwrites a source, scanned or not', async () => {
    const dir = copyProject('notes-v2');
    writeTree(dir, { '.gitignore': 'src/generated.ts\n', 'src/generated.ts': 'export const g = 1;\n' });
    const before = snapshot(dir);
    expect(await cli(dir, 'analyze', '-o', 'src/confirm.ts')).toMatchObject({ code: 2, stderr: expect.stringContaining('is a source file this run scans') });
    expect(await cli(dir, 'check', '-o', 'src/generated.ts')).toMatchObject({ code: 2, stderr: expect.stringContaining('src/generated.ts: is a source file;') });
    expect(snapshot(dir)).toEqual(before);
  });

  it('a report file that is fine is written as before', async () => {
    const dir = copyProject('clean');
    const r = await cli(dir, 'port', '--dry-run', '-o', 'out/port.txt');
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(readFileSync(path.join(dir, 'out/port.txt'), 'utf8')).toMatch(/^dry run, nothing written: scanned/m);
  });
});

describe('a report that cannot be delivered (spawned)', () => {
  // the CLI compiled to JS once per run (test/global-setup.ts), started as a user starts the built one
  const argv = (...args: string[]) => [compiledScript('src/cli/main.ts'), ...args];

  it('stdout to a pipe whose reader is gone (EPIPE): exit 2, one line', async () => {
    const dir = copyProject('notes-v2');
    const child = spawn(process.execPath, argv('analyze'), { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    // the reader goes away before the report is written, as `| head -0` would
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('mrtr-port: cannot write the report to stdout: EPIPE (the reading end of the pipe was closed)\n');
    expect(code).toBe(2);
  });

  it.runIf(existsSync('/dev/full'))('stdout on a full disk (/dev/full), and --output-file /dev/full: exit 2, one line', () => {
    const dir = copyProject('notes-v2');
    const toStdout = spawnSync('sh', ['-c', `exec "$0" "$@" > /dev/full`, process.execPath, ...argv('port', '--dry-run')], { cwd: dir, encoding: 'utf8' });
    expect(toStdout.stderr).toBe('mrtr-port: cannot write the report to stdout: ENOSPC (no space left on the device)\n');
    expect(toStdout.status).toBe(2);
    const toFile = spawnSync(process.execPath, argv('check', '-o', '/dev/full'), { cwd: dir, encoding: 'utf8' });
    expect(toFile.stderr).toBe('mrtr-port: cannot write the report to /dev/full: ENOSPC (no space left on the device)\n');
    expect(toFile.status).toBe(2);
  });
});
