/**
 * Atomic file write: the new text goes to a temp file in the same directory (same file system, so the
 * rename is atomic), gets the old file's mode, is flushed, and then replaces the file in one rename.
 * A reader, or a crash, sees either the old bytes or the new ones, never half a file.
 */
import { closeSync, fsyncSync, openSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/** Mode for files that do not exist yet (the helper file): the usual rw-r--r-- before umask. */
const NEW_FILE_MODE = 0o644;

export function writeFileAtomic(file: string, text: string): void {
  let mode = NEW_FILE_MODE;
  try {
    mode = statSync(file).mode & 0o7777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  // `wx`: never follow or clobber something already at the temp name
  const fd = openSync(temp, 'wx', mode);
  try {
    try {
      writeSync(fd, text, null, 'utf8');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // already renamed or never created: nothing to clean up
    }
    throw error;
  }
}
