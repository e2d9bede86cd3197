/**
 * Replacing one file without losing a byte or its identity.
 *
 * Usually: the new bytes go to a temp file next to the target (same file system), which gets the
 * target's mode and owner, is flushed, and replaces the target in one rename; a reader, or a crash,
 * sees the old bytes or the new ones. Right before the rename the target is checked against what the
 * run read (`expect`); if somebody changed it meanwhile it is left alone (`ChangedOnDiskError`). A new
 * file (`expect: 'absent'`) is linked into place, which fails instead of replacing a file created
 * meanwhile.
 *
 * A file with several hard links, or whose owner this process cannot give to a new file, is written in
 * place instead (a rename would split the links or change the owner): first a backup of the original
 * bytes is made durable next to it, then the bytes are overwritten and flushed, then the backup goes.
 * A crash in between leaves the backup, and the next run restores the file from it (cleanup.ts).
 */
import { closeSync, fchownSync, fsyncSync, linkSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { backupPathFor, tempPathFor, trackDebris, untrackDebris, writeInPlace } from './cleanup.js';
import { changeSince, type Fingerprint } from './fingerprint.js';

/** Mode for files that do not exist yet (the helper file): the usual rw-r--r-- before umask. */
const NEW_FILE_MODE = 0o644;

/** What the file was when it was read: its bytes (for the in-place backup) and identity. */
export interface ReadState {
  bytes: Uint8Array;
  fingerprint: Fingerprint;
  mode: number;
  uid: number;
  gid: number;
  nlink: number;
}

export interface ReplaceOptions {
  /** The file as it was read, or `'absent'` for a file this run creates. */
  expect: ReadState | 'absent';
  /** Called once the new bytes are on disk, right before the last check and the swap (tests change the file here). */
  beforeSwap?: (target: string) => void;
}

export class ChangedOnDiskError extends Error {
  constructor(
    readonly file: string,
    readonly why: string,
  ) {
    super(`changed-on-disk: ${why}; left as it is (run again to port the new content)`);
    this.name = 'ChangedOnDiskError';
  }
}

export function replaceFile(target: string, bytes: Uint8Array, options: ReplaceOptions): void {
  const { expect } = options;
  if (expect !== 'absent' && mustWriteInPlace(expect)) return replaceInPlace(target, bytes, expect, options);
  const temp = tempPathFor(target);
  trackDebris(temp);
  try {
    // `wx`: never follow or clobber something already at the temp name
    const fd = openSync(temp, 'wx', expect === 'absent' ? NEW_FILE_MODE : expect.mode);
    try {
      if (expect !== 'absent' && ownerDiffers(expect)) fchownSync(fd, expect.uid, expect.gid);
      writeAll(fd, bytes);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    options.beforeSwap?.(target);
    if (expect === 'absent') {
      try {
        linkSync(temp, target);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new ChangedOnDiskError(target, 'created by someone else during the run');
        throw error;
      }
      unlinkSync(temp);
    } else {
      assertUnchanged(target, expect.fingerprint);
      renameSync(temp, target);
    }
    fsyncDirectory(dirname(target));
  } catch (error) {
    // renamed, linked-and-removed, or never created: then there is nothing to remove
    removeQuietly(temp);
    throw error;
  } finally {
    untrackDebris(temp);
  }
}

function replaceInPlace(target: string, bytes: Uint8Array, expect: ReadState, options: ReplaceOptions): void {
  assertUnchanged(target, expect.fingerprint);
  // the backup itself appears atomically: written under a temp name, then renamed
  const backup = backupPathFor(target, bytes);
  const temp = tempPathFor(target);
  trackDebris(temp);
  trackDebris(backup);
  let overwriting = false;
  try {
    const fd = openSync(temp, 'wx', 0o600);
    try {
      writeAll(fd, expect.bytes);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, backup);
    fsyncDirectory(dirname(target));
    options.beforeSwap?.(target);
    assertUnchanged(target, expect.fingerprint);
    overwriting = true;
    writeInPlace(target, bytes);
  } catch (error) {
    removeQuietly(temp);
    if (overwriting) {
      // half written (ENOSPC, EIO): put the original bytes back; keep the backup if even that fails
      try {
        writeInPlace(target, expect.bytes);
      } catch (restoreError) {
        untrackDebris(backup);
        throw new Error(`${messageOf(error)}; the original bytes are kept in ${backup} (restoring them failed: ${messageOf(restoreError)})`);
      }
    }
    removeQuietly(backup);
    untrackDebris(backup);
    throw error;
  } finally {
    untrackDebris(temp);
  }
  // a backup left here by a failed unlink is swept by the next run (the target holds the new bytes)
  removeQuietly(backup);
  untrackDebris(backup);
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // not there
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A rename would split hard links, or hand the file to this process's user. */
function mustWriteInPlace(state: ReadState): boolean {
  return state.nlink > 1 || (ownerDiffers(state) && !canChown(state));
}

function ownerDiffers(state: ReadState): boolean {
  return process.getuid !== undefined && (state.uid !== process.getuid() || state.gid !== process.getgid!());
}

/** Root may give a file to anyone; others only to themselves and their own groups. */
function canChown(state: ReadState): boolean {
  if (process.getuid === undefined) return false;
  if (process.getuid() === 0) return true;
  return state.uid === process.getuid() && (process.getgroups?.() ?? []).includes(state.gid);
}

function assertUnchanged(target: string, fingerprint: Fingerprint): void {
  const why = changeSince(target, fingerprint);
  if (why !== undefined) throw new ChangedOnDiskError(target, why);
}

function writeAll(fd: number, bytes: Uint8Array): void {
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
}

/** Makes the rename itself durable (a crash right after it keeps the new name). */
function fsyncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // some file systems refuse to sync a directory; the rename is still atomic
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
