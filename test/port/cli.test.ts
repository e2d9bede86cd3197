/** `mrtr-port port` through the CLI: exit codes, text and JSON output (two real spawns, the rest in-process). */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { CliIo } from '../../src/cli/io.js';
import type { PortResult } from '../../src/port/index.js';
import { compiledScript } from '../compiled.js';
import { copyFixture, removeDir, snapshot } from './helpers.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) removeDir(dir);
  dir = undefined;
});

function bufferIo(cwd: string): CliIo & { out: string; err: string } {
  const io = {
    cwd,
    out: '',
    err: '',
    stdout: (t: string) => void (io.out += t),
    stderr: (t: string) => void (io.err += t),
    stderrIsTTY: false,
    exitCode: 0,
  };
  return io;
}

function spawnCli(cwd: string, ...args: string[]) {
  // the CLI compiled to JS once per run (test/global-setup.ts), started as a user starts the built one
  return spawnSync(process.execPath, [compiledScript('src/cli/main.ts'), 'port', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
}

describe('mrtr-port port (spawned)', () => {
  it('--dry-run prints the diff and the summary, writes nothing, exits 1 for the markers it would leave', () => {
    dir = copyFixture('projects', 'notes-v2');
    const before = snapshot(dir);
    const r = spawnCli(dir, '--dry-run');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('+++ b/src/server.ts');
    expect(r.stdout).toMatch(/markers left [1-9]/);
    expect(snapshot(dir)).toEqual(before);
  }, 60_000);

  it('exits 2 with one line on stderr for a missing path', () => {
    dir = copyFixture('projects', 'notes-v2');
    const r = spawnCli(dir, 'no/such/dir');
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('mrtr-port: path not found: no/such/dir\n');
    expect(r.stdout).toBe('');
  }, 60_000);
});

describe('mrtr-port port (in-process)', () => {
  it('--format json gives the documented object', async () => {
    dir = copyFixture('projects', 'notes-v1');
    const io = bufferIo(dir);
    const code = await main(['port', '--dry-run', '--format', 'json'], io);
    const result = JSON.parse(io.out) as PortResult;
    expect(code).toBe(1);
    expect(Object.keys(result)).toEqual(['tool', 'command', 'version', 'dryRun', 'options', 'files', 'helpers', 'manifests', 'summary', 'nextSteps']);
    expect(result).toMatchObject({ tool: 'mrtr-port', command: 'port', version: 1, dryRun: true, options: { codec: 'aead', roots: 'config', claims: 'memory', skipV1: false } });
    expect(result.nextSteps.map((step) => step.id)).toEqual(['apply', 'install', 'state-keys', 'claims', 'host-2026', 'markers']);
    expect(Object.keys(result.summary)).toEqual(['scanned', 'changed', 'unchanged', 'skipped', 'skippedBy', 'failed', 'v1Migrated', 'sites', 'markers', 'codemodMarkers']);
    expect(result.files.every((f) => typeof f.file === 'string' && ['changed', 'unchanged', 'skipped', 'failed'].includes(f.status))).toBe(true);
    expect(result.files.find((f) => f.file === 'src/server.ts')).toMatchObject({ status: 'changed', v1Migrated: true, diff: expect.stringContaining('--- a/src/server.ts') });
  }, 60_000);

  it('--output-file writes the report there instead of stdout', async () => {
    dir = copyFixture('projects', 'notes-v2');
    const io = bufferIo(dir);
    expect(await main(['port', '--dry-run', '--format', 'json', '--output-file', 'reports/port.json'], io)).toBe(1);
    expect(io.out).toBe('');
    const result = JSON.parse(readFileSync(join(dir, 'reports/port.json'), 'utf8')) as PortResult;
    expect(result.summary.changed).toBe(2);
  }, 60_000);

  it('exits 0 on a project with nothing to port', async () => {
    dir = copyFixture('projects', 'clean');
    const before = snapshot(dir);
    const io = bufferIo(dir);
    expect(await main(['port'], io)).toBe(0);
    expect(io.out).toMatch(/changed 0, .*failed 0, markers left 0/);
    expect(snapshot(dir)).toEqual(before);
  }, 60_000);

  it('exits 2 on a bad flag value and on a path without sources', async () => {
    dir = copyFixture('projects', 'clean');
    const io = bufferIo(dir);
    expect(await main(['port', '--codec', 'rot13'], io)).toBe(2);
    expect(io.err).toContain("argument 'rot13' is invalid");
    mkdirSync(join(dir, 'notes'));
    writeFileSync(join(dir, 'notes', 'todo.md'), '# not code\n');
    const io2 = bufferIo(dir);
    expect(await main(['port', 'notes'], io2)).toBe(2);
    expect(io2.err).toBe('mrtr-port: no source files in: notes\n');
  }, 60_000);
});
