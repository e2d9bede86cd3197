/**
 * Issue 10, case 5: debris. Temp files and in-place backups carry a recognisable name next to their
 * target; the next run removes those of dead processes, restores a file an in-place write left half
 * written, and sweeps stale analysis mirrors of earlier versions.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backupPathFor, isDebrisName, sweepDebris, sweepStaleAnalysisMirrors, tempPathFor } from '../../src/port/cleanup.js';
import { formatPortText } from '../../src/port/format.js';
import { runPort } from '../../src/port/index.js';
import { fakeDependencies } from './fakes.js';
import { removeDir } from './helpers.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mrtr-port-cleanup-'));
});
afterEach(() => removeDir(dir));

/** The pid of a process that has ended (a child run to completion). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

/** A debris name as another process (`pid`) would have made it. */
function asProcess(path: string, pid: number): string {
  return join(dirname(path), basename(path).replace(`.mrtr-port-${process.pid}-`, `.mrtr-port-${pid}-`));
}

describe('debris names', () => {
  it('sit next to the target, hidden, naming mrtr-port and the process', () => {
    const temp = tempPathFor('/repo/src/a.ts');
    expect(dirname(temp)).toBe('/repo/src');
    expect(basename(temp)).toMatch(new RegExp(`^\\.a\\.ts\\.mrtr-port-${process.pid}-[0-9a-f]{8}\\.tmp$`));
    expect(basename(backupPathFor('/repo/src/a.ts', Buffer.from('new')))).toMatch(new RegExp(`^\\.a\\.ts\\.mrtr-port-${process.pid}-[0-9a-f]{16}\\.orig$`));
    expect(isDebrisName(basename(temp))).toBe(true);
    expect(isDebrisName('.a.ts.tmp')).toBe(false);
  });
});

describe('sweepDebris', () => {
  it('removes the temp files of dead processes only, and nothing else', () => {
    const dead = deadPid();
    const target = join(dir, 'a.ts');
    writeFileSync(target, 'source');
    const stale = asProcess(tempPathFor(target), dead);
    const live = asProcess(tempPathFor(target), process.ppid);
    writeFileSync(stale, 'half');
    writeFileSync(live, 'in use');
    writeFileSync(join(dir, 'notes.tmp'), 'mine');
    const result = sweepDebris([dir]);
    expect(result).toEqual({ removed: [stale], restored: [] });
    expect(readdirSync(dir).sort()).toEqual([basename(live), 'a.ts', 'notes.tmp'].sort());
  });

  it('restores a file an interrupted in-place write left half written, from its backup', () => {
    const target = join(dir, 'a.ts');
    const original = Buffer.from('the original bytes of a.ts\n');
    const ported = Buffer.from('the ported bytes, longer than the original\n');
    writeFileSync(target, ported.subarray(0, 10)); // stopped half way
    writeFileSync(asProcess(backupPathFor(target, ported), deadPid()), original);
    expect(sweepDebris([dir]).restored).toEqual([target]);
    expect(readFileSync(target).equals(original)).toBe(true);
    expect(readdirSync(dir)).toEqual(['a.ts']);
  });

  it('keeps a target that holds the complete new bytes, or still the original ones', () => {
    const target = join(dir, 'a.ts');
    const original = Buffer.from('original\n');
    const ported = Buffer.from('ported\n');
    for (const onDisk of [ported, original]) {
      writeFileSync(target, onDisk);
      writeFileSync(asProcess(backupPathFor(target, ported), deadPid()), original);
      expect(sweepDebris([dir]).restored).toEqual([]);
      expect(readFileSync(target).equals(onDisk)).toBe(true);
      expect(readdirSync(dir)).toEqual(['a.ts']);
    }
  });

  it('runs before a port reads anything, and the report says what it cleaned', async () => {
    mkdirSync(join(dir, 'src'));
    const target = join(dir, 'src/a.ts');
    const original = 'export const a = 1;\n';
    writeFileSync(target, 'export const a = 2;\n'.slice(0, 7));
    writeFileSync(asProcess(backupPathFor(target, Buffer.from('whatever')), deadPid()), original);
    const temp = asProcess(tempPathFor(join(dir, 'src/b.ts')), deadPid());
    writeFileSync(temp, 'half');
    const result = await runPort({ cwd: dir, paths: ['.'], dependencies: fakeDependencies() });
    expect(result.recovered).toEqual({ removed: expect.arrayContaining([`src/${basename(temp)}`]), restored: ['src/a.ts'] });
    expect(formatPortText(result)).toMatch(/^src\/a\.ts: restored to its original bytes \(an earlier run was interrupted while writing it\)\nremoved 2 files left by an interrupted earlier run\n/);
    expect(readFileSync(target, 'utf8')).toBe(original);
    expect(readdirSync(join(dir, 'src'))).toEqual(['a.ts']);
  });

  it('a dry run restores nothing, and does not show a half-written file as the source', async () => {
    mkdirSync(join(dir, 'src'));
    const target = join(dir, 'src/a.ts');
    writeFileSync(target, 'export const a');
    const backup = asProcess(backupPathFor(target, Buffer.from('whatever')), deadPid());
    writeFileSync(backup, 'export const a = 1;\n');
    const result = await runPort({ cwd: dir, paths: ['.'], dryRun: true, dependencies: fakeDependencies() });
    expect(result.files).toEqual([expect.objectContaining({ file: 'src/a.ts', status: 'skipped', reason: expect.stringMatching(/^interrupted-write: /) })]);
    expect(readdirSync(join(dir, 'src')).sort()).toEqual([basename(backup), 'a.ts'].sort());
    expect(result.recovered).toBeUndefined();
  });
});

describe('sweepStaleAnalysisMirrors', () => {
  it('removes mirrors older than ten minutes, keeps recent ones and everything else', () => {
    const old = join(dir, 'mrtr-port-analysis-AbC123');
    const fresh = join(dir, 'mrtr-port-analysis-XyZ789');
    for (const d of [old, fresh]) mkdirSync(join(d, 'src'), { recursive: true });
    writeFileSync(join(old, 'src/copy.ts'), 'a copy of the user sources');
    mkdirSync(join(dir, 'mrtr-port-test-keep'));
    const now = Date.now();
    utimesSync(old, new Date(now - 11 * 60_000), new Date(now - 11 * 60_000));
    expect(sweepStaleAnalysisMirrors(now, dir)).toEqual([old]);
    expect(readdirSync(dir).sort()).toEqual(['mrtr-port-analysis-XyZ789', 'mrtr-port-test-keep']);
  });
});
