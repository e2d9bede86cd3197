/** The commander shell: arguments, formats, --output-file and exit codes, mostly in-process through main(). */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { CliIo } from '../../src/cli/io.js';
import type { JsonReport } from '../../src/index.js';
import { cli, copyProject, REPO_ROOT, tempDir, writeTree } from './helpers.js';

describe('mrtr-port (in-process)', () => {
  it('analyze prints the grouped text report and exits 0', async () => {
    const dir = copyProject('notes-v2');
    const r = await cli(dir, 'analyze');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^src\/confirm\.ts\n {2}8:\d+ +auto +elicitation elicitInput +tool "delete_note" via confirm\(\)/);
    expect(r.stdout).toContain('Scanned 4 files: 9 legacy sites (7 auto, 0 manual, 1 unportable, 1 guarded); 0 files skipped; 0 markers left.');
  });

  it('check exits 1 on findings and 0 on a clean project', async () => {
    expect((await cli(copyProject('notes-v1'), 'check', '.')).code).toBe(1);
    const clean = await cli(copyProject('clean'), 'check');
    expect(clean.code).toBe(0);
    expect(clean.stdout).toContain('check passed');
  });

  it('--format json prints the documented report shape', async () => {
    const r = await cli(copyProject('notes-v2'), 'check', '--format', 'json');
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as JsonReport;
    expect(Object.keys(report)).toEqual(['tool', 'version', 'files', 'sites', 'summary', 'markers']);
    expect(Object.keys(report.sites[0]).sort()).toEqual(['column', 'file', 'form', 'handler', 'handlers', 'kind', 'line', 'portability', 'reasons', 'sdk', 'via'].sort());
  });

  it('--format github prints annotations; -f sarif with --output-file writes the file and nothing to stdout', async () => {
    const dir = copyProject('notes-v2');
    const gh = await cli(dir, 'check', '--format=github');
    expect(gh.stdout.split('\n').filter((l) => l.startsWith('::error ')).length).toBe(8);
    expect(gh.stdout).toContain('::notice file=src/server.ts,line=156,');

    const r = await cli(dir, 'check', '-f', 'sarif', '--output-file', 'reports/mrtr.sarif');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const log = JSON.parse(readFileSync(path.join(dir, 'reports/mrtr.sarif'), 'utf8')) as { version: string; runs: Array<{ results: unknown[] }> };
    expect(log.version).toBe('2.1.0');
    expect(log.runs[0].results).toHaveLength(9);
  });

  it('--ignore is repeatable', async () => {
    const dir = copyProject('notes-v2');
    const r = await cli(dir, 'analyze', '--format', 'json', '--ignore', 'src/confirm.ts', '--ignore', 'src/server.ts');
    const report = JSON.parse(r.stdout) as JsonReport;
    expect(report.files.scanned).toBe(2);
    expect(report.sites).toEqual([]);
  });

  it('exits 2 with one line on stderr for a missing path, a path without sources, a bad format, an unknown option or command', async () => {
    const dir = copyProject('clean');
    writeTree(dir, { 'docs/guide.md': '# guide' });
    const missing = await cli(dir, 'check', 'src', 'nowhere');
    expect(missing).toEqual({ code: 2, stdout: '', stderr: 'mrtr-port: no such file or directory: nowhere\n' });
    const empty = await cli(dir, 'analyze', 'docs');
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/^mrtr-port: no source files .* in: docs/);
    const format = await cli(dir, 'check', '--format', 'xml');
    expect(format.code).toBe(2);
    expect(format.stderr).toContain("argument 'xml' is invalid");
    expect((await cli(dir, 'check', '--frobnicate')).code).toBe(2);
    expect((await cli(dir, 'lint')).code).toBe(2);
    expect((await cli(dir)).code).toBe(2);
  });

  it('--help and --version exit 0; help lists the exit codes', async () => {
    const help = await cli(tempDir(), 'check', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--format <format>');
    expect(help.stdout).toContain('Exit codes:');
    const version = await cli(tempDir(), '--version');
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('an unusable --output-file is exit 2 with one line, before the run', async () => {
    const dir = copyProject('clean');
    writeTree(dir, { 'out.txt/keep': '' });
    const r = await cli(dir, 'analyze', '--output-file', 'out.txt');
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'mrtr-port: --output-file out.txt: is a folder\n' });
  });

  it('an internal error exits 2 with a message and no stack, unless --verbose', async () => {
    const dir = copyProject('clean');
    // a stdout that throws stands in for a bug anywhere in the command
    const failing = (argv: string[]) => {
      let stderr = '';
      const io: CliIo = {
        cwd: dir,
        stdout: () => {
          throw new Error('boom in the reporter');
        },
        stderr: (t) => void (stderr += t),
        stderrIsTTY: false,
        exitCode: 0,
      };
      return main(argv, io).then((code) => ({ code, stderr }));
    };
    const quiet = await failing(['analyze']);
    expect(quiet.code).toBe(2);
    expect(quiet.stderr).toMatch(/^mrtr-port: internal error: boom in the reporter\n/);
    expect(quiet.stderr).not.toMatch(/\n\s+at /);
    const verbose = await failing(['analyze', '--verbose']);
    expect(verbose.code).toBe(2);
    expect(verbose.stderr).toMatch(/\n\s+at /);
  });

  it('--verbose prints timings on stderr, never on stdout', async () => {
    const r = await cli(copyProject('clean'), 'analyze', '--verbose', '--format', 'json');
    expect(r.stderr).toMatch(/^mrtr-port: 2 files; discover \d+ ms, analyze \d+ ms, markers \d+ ms\n$/);
    expect(() => JSON.parse(r.stdout)).not.toThrow();
  });
});

describe('mrtr-port (spawned, as a user runs it)', () => {
  // `--import tsx` resolves from the cwd, which is a temp copy here: name the loader by URL instead.
  const tsx = pathToFileURL(createRequire(path.join(REPO_ROOT, 'package.json')).resolve('tsx')).href;
  const run = (cwd: string, ...args: string[]) =>
    spawnSync(process.execPath, ['--import', tsx, path.join(REPO_ROOT, 'src/cli/main.ts'), ...args], { cwd, encoding: 'utf8' });

  it('runs main.ts directly: check on a copy exits 1 and writes the report file', () => {
    const dir = copyProject('notes-v2');
    const r = run(dir, 'check', '--format', 'json', '--output-file', 'report.json');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(existsSync(path.join(dir, 'report.json'))).toBe(true);
    expect((JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8')) as JsonReport).summary.sites).toBe(9);
  });

  it('exits 2 on a missing path, with the message on stderr', () => {
    const r = run(tempDir(), 'analyze', 'does-not-exist');
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('mrtr-port: no such file or directory: does-not-exist\n');
  });

  it('starts with a shebang', () => {
    expect(readFileSync(path.join(REPO_ROOT, 'src/cli/main.ts'), 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
  });
});

describe('progress', () => {
  const many = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`src/m${String(i).padStart(3, '0')}.ts`, `export const v${i} = ${i};\n`]));

  it('shows progress on stderr for a long run when stderr is a TTY, and clears it; never otherwise', async () => {
    const dir = tempDir();
    writeTree(dir, many(500));
    let stderr = '';
    let stdout = '';
    const io: CliIo = { cwd: dir, stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), stderrIsTTY: true, exitCode: 0 };
    expect(await main(['check'], io)).toBe(0);
    expect(stderr).toContain('mrtr-port: analyzing 500 files…');
    expect(stderr.endsWith('\r\x1b[K')).toBe(true);
    expect(stdout).toContain('Scanned 500 files');
    expect(stdout).not.toContain('\x1b');

    const piped = await cli(dir, 'check');
    expect(piped.stderr).toBe('');
  });

  it('stays quiet on a TTY for a short run', async () => {
    const dir = tempDir();
    writeTree(dir, many(3));
    let stderr = '';
    const io: CliIo = { cwd: dir, stdout: () => {}, stderr: (t) => void (stderr += t), stderrIsTTY: true, exitCode: 0 };
    expect(await main(['analyze'], io)).toBe(0);
    expect(stderr).toBe('');
  });
});
