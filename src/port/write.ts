/**
 * The write stage of `port`: every file the run changes or creates (sources, helper files,
 * package.json) goes through one `Writer`, which refuses what must not be written and otherwise
 * replaces the file keeping its bytes' identity (write-atomic.ts):
 *
 * - `read-only: …` when the file has no write permission (unless `--force`);
 * - `changed-on-disk: …` when the file is no longer what the run read (checked again right before the
 *   swap), or, for a file the run creates, when one appeared meanwhile;
 * - `write failed: …` for any other error (ENOSPC, EACCES, EIO).
 *
 * A refused or failed write leaves the file byte-identical.
 */
import { accessSync, constants } from 'node:fs';
import { changeSince } from './fingerprint.js';
import { ChangedOnDiskError, replaceFile, type ReadState } from './write-atomic.js';

export interface PendingWrite {
  /** The file written (a named symlink's target, not the link). */
  target: string;
  bytes: Buffer;
  /** The file as the run read it, or `'absent'` for a new file. */
  expect: ReadState | 'absent';
}

export interface WriterOptions {
  /** Write read-only files too (keeping their mode). */
  force?: boolean;
  /** Replaces the swap itself (tests inject failures here); the checks still run first. */
  write?: (file: string, bytes: Buffer) => void;
  /** Called right before each swap, after the new bytes are on disk (tests change the file here). */
  beforeSwap?: (file: string) => void;
}

/** Why a write did not happen; `message` is what the report shows. */
export interface WriteFailure {
  kind: 'read-only' | 'changed-on-disk' | 'write-failed';
  message: string;
}

export class Writer {
  constructor(private readonly options: WriterOptions = {}) {}

  /** Writes one file; undefined when written, otherwise why not (the file is then as it was). */
  commit(pending: PendingWrite): WriteFailure | undefined {
    const { target, bytes, expect } = pending;
    if (expect !== 'absent' && !this.options.force && isReadOnly(target, expect.mode)) {
      return { kind: 'read-only', message: 'read-only: the file has no write permission; left as it is (--force writes it, keeping its mode)' };
    }
    try {
      if (this.options.write) {
        this.options.beforeSwap?.(target);
        const why = changeSince(target, expect === 'absent' ? 'absent' : expect.fingerprint);
        if (why !== undefined) throw new ChangedOnDiskError(target, why);
        this.options.write(target, bytes);
      } else {
        replaceFile(target, bytes, { expect, beforeSwap: this.options.beforeSwap });
      }
      return undefined;
    } catch (error) {
      if (error instanceof ChangedOnDiskError) return { kind: 'changed-on-disk', message: error.message };
      return { kind: 'write-failed', message: `write failed: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
}

/** No write bit at all, or (for a user other than root) no permission to write it. */
function isReadOnly(file: string, mode: number): boolean {
  if ((mode & 0o222) === 0) return true;
  if (process.getuid?.() === 0) return false;
  try {
    accessSync(file, constants.W_OK);
    return false;
  } catch {
    return true;
  }
}
