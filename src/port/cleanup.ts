/**
 * Debris: the files a write leaves next to its target while it is under way (a temp file, and for an
 * in-place write the backup of the original bytes). They carry a recognisable name,
 * `.<name>.mrtr-port-<pid>-<tag>.tmp|.orig`, are removed when the run ends or is stopped by SIGINT or
 * SIGTERM, and are swept by the next run when the process that made them is gone (SIGKILL, power
 * loss): a temp file is deleted; a backup means an in-place write may have stopped half way, so the
 * target is restored from it unless it already holds the complete new bytes.
 */
import { closeSync, fsyncSync, openSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeSync, ftruncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { sha256 } from './fingerprint.js';

const DEBRIS_RE = /^\.(.+)\.mrtr-port-(\d+)-([0-9a-f]+)\.(tmp|orig)$/;

/** Analysis mirrors of earlier versions (a copy of the sources in the temp dir); none is made any more. */
const MIRROR_PREFIX = 'mrtr-port-analysis-';
/** A mirror older than this is left over from a run that did not finish (a run made one for seconds). */
const MIRROR_STALE_MS = 10 * 60 * 1000;

/** Characters of the new bytes' SHA-256 kept in a backup's name: enough to tell "write completed". */
const HASH_TAG_LENGTH = 16;

export function tempPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.mrtr-port-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
}

/** The backup of `target`'s original bytes while `newBytes` are written into it in place. */
export function backupPathFor(target: string, newBytes: Uint8Array): string {
  return join(dirname(target), `.${basename(target)}.mrtr-port-${process.pid}-${sha256(newBytes).slice(0, HASH_TAG_LENGTH)}.orig`);
}

export function isDebrisName(name: string): boolean {
  return DEBRIS_RE.test(name);
}

/** Files of this process that exist only while a write is under way; removed on a signal. */
const inFlight = new Set<string>();

export function trackDebris(file: string): void {
  inFlight.add(file);
}

export function untrackDebris(file: string): void {
  inFlight.delete(file);
}

function removeInFlight(): void {
  for (const file of inFlight) {
    // a backup is only removed once its write completed (untracked then); one still tracked is kept for the sweep
    if (file.endsWith('.orig')) continue;
    try {
      unlinkSync(file);
    } catch {
      // already gone
    }
  }
  inFlight.clear();
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Runs `body` with handlers that, on SIGINT/SIGTERM/SIGHUP, remove this run's temp files and then end
 * the process as the signal would have. Each write is synchronous and the write stage yields between
 * two files (`betweenFiles`), so a signal is handled there: never inside a file, never ignored.
 */
export async function withSignalCleanup<T>(body: () => Promise<T>): Promise<T> {
  const handlers = SIGNALS.map((signal) => {
    const handler = () => {
      removeInFlight();
      for (const [s, h] of handlers) process.removeListener(s, h);
      // nobody else listens: die of the signal (the shell sees 130/143); otherwise leave the decision to them
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    };
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  try {
    return await body();
  } finally {
    for (const [s, h] of handlers) process.removeListener(s, h);
    removeInFlight();
  }
}

/** Lets a pending SIGINT/SIGTERM run its handler before the next file is written. */
export function betweenFiles(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export interface SweepResult {
  /** Temp files of an earlier, interrupted run that were deleted. */
  removed: string[];
  /** Files an interrupted in-place write may have left half written, put back to their original bytes. */
  restored: string[];
}

/** A file an interrupted run left (its process is gone). */
export interface Debris {
  path: string;
  kind: 'tmp' | 'orig';
  /** The file it was written for. */
  target: string;
  /** For a backup: the start of the new bytes' SHA-256. */
  newHashTag: string;
}

/** The debris of processes that are gone, in these folders. */
export function findDebris(dirs: Iterable<string>): Debris[] {
  const found: Debris[] = [];
  for (const dir of dirs) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      const m = DEBRIS_RE.exec(name);
      if (!m || processAlive(Number(m[2]))) continue;
      found.push({ path: join(dir, name), kind: m[4] as Debris['kind'], target: join(dir, m[1]), newHashTag: m[3] });
    }
  }
  return found;
}

/** Sweeps the debris of interrupted runs (whose process is gone) from these folders. */
export function sweepDebris(dirs: Iterable<string>): SweepResult {
  const result: SweepResult = { removed: [], restored: [] };
  for (const debris of findDebris(dirs)) {
    try {
      if (debris.kind === 'orig' && restoreFromBackup(debris.target, debris.path, debris.newHashTag)) result.restored.push(debris.target);
      unlinkSync(debris.path);
      result.removed.push(debris.path);
    } catch {
      // not ours to decide (unreadable, a folder of that name): leave it
    }
  }
  return result;
}

/** Restores `target` from `backup` unless it holds the original or the complete new bytes. True when restored. */
function restoreFromBackup(target: string, backup: string, newHashTag: string): boolean {
  const original = readFileSync(backup);
  let current: Buffer;
  try {
    current = readFileSync(target);
  } catch {
    return false; // the target is gone: nothing to repair
  }
  const currentHash = sha256(current);
  if (currentHash === sha256(original) || currentHash.startsWith(newHashTag)) return false;
  writeInPlace(target, original);
  return true;
}

/** Overwrites `file`'s bytes without replacing the file (same inode: links, owner, mode kept). */
export function writeInPlace(file: string, bytes: Uint8Array): void {
  const fd = openSync(file, 'r+');
  try {
    let done = 0;
    while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done, done);
    ftruncateSync(fd, bytes.length);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Removes analysis mirrors (copies of the sources) that earlier versions left in the temp directory. */
export function sweepStaleAnalysisMirrors(now = Date.now(), dir = tmpdir()): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    if (!name.startsWith(MIRROR_PREFIX)) continue;
    const path = join(dir, name);
    try {
      const stats = statSync(path);
      if (!stats.isDirectory() || now - stats.mtimeMs < MIRROR_STALE_MS) continue;
      rmSync(path, { recursive: true, force: true });
      removed.push(path);
    } catch {
      // another user's, or gone meanwhile
    }
  }
  return removed;
}

function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
