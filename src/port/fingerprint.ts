/**
 * What a file was when the run read it, so the run can tell, right before replacing it, whether
 * somebody changed it in between (an editor, a formatter, a `git checkout`): size and modification
 * time first (cheap), then a SHA-256 of the bytes (an edit within the same size and second).
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync, type BigIntStats } from 'node:fs';

export interface Fingerprint {
  size: number;
  /** Nanoseconds, as a decimal string (bigint does not survive JSON). */
  mtimeNs: string;
  sha256: string;
}

export function fingerprintOf(stats: BigIntStats, bytes: Uint8Array): Fingerprint {
  return { size: Number(stats.size), mtimeNs: stats.mtimeNs.toString(), sha256: sha256(bytes) };
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Why `file` is no longer what `expected` describes (undefined when it still is). `'absent'`: the
 * file must not exist (a helper the run creates).
 */
export function changeSince(file: string, expected: Fingerprint | 'absent'): string | undefined {
  let stats: BigIntStats;
  try {
    stats = statSync(file, { bigint: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return expected === 'absent' ? undefined : 'deleted since it was read';
  }
  if (expected === 'absent') return 'created by someone else during the run';
  if (Number(stats.size) !== expected.size) return `size changed since it was read (${expected.size} → ${stats.size} bytes)`;
  if (stats.mtimeNs.toString() !== expected.mtimeNs) return 'modified since it was read (modification time changed)';
  if (sha256(readFileSync(file)) !== expected.sha256) return 'modified since it was read (content changed)';
  return undefined;
}
