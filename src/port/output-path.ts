/**
 * Checks a report path (`-o/--output-file`) before anything is written: it must be writable, and it
 * must not be one of the files the run scans (the report would replace a source), nor any other
 * existing source file. Shared by `port` (inside the run, after discovery) and `analyze`/`check`.
 */
import { accessSync, constants, lstatSync, realpathSync, statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { isSourceFile } from './discover.js';

/** Why the report cannot go to `file` (relative to `cwd`), or undefined when it can. */
export function reportPathProblem(cwd: string, file: string, scanned: readonly string[]): string | undefined {
  const target = resolve(cwd, file);
  const named = `--output-file ${file}`;
  const info = entryAt(target);
  if (info) {
    const real = realOf(target);
    const stats = statSync(real, { throwIfNoEntry: false });
    if (stats?.isDirectory()) return `${named}: is a folder`;
    if (stats && scanned.some((source) => realOf(source) === real || sameFile(source, stats))) return `${named}: is a source file this run scans; the report would replace it`;
    if (stats?.isFile() && isSourceFile(real)) return `${named}: is a source file; the report would replace it`;
    if (stats?.isFile() && !writable(real, stats.mode)) return `${named}: is not writable`;
    return undefined;
  }
  // a new file: the nearest existing folder above it must let us create what is missing
  let dir = dirname(target);
  while (!entryAt(dir)) dir = dirname(dir);
  const parent = statSync(dir, { throwIfNoEntry: false });
  if (!parent?.isDirectory()) return `${named}: ${dir} is not a folder`;
  if (!writable(dir, parent.mode, constants.W_OK | constants.X_OK)) return `${named}: cannot create files in ${dir}`;
  return undefined;
}

/** What is at `path`, or undefined when nothing is (a file on the way counts as nothing: ENOTDIR). */
function entryAt(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

function writable(path: string, mode: number, access = constants.W_OK): boolean {
  // root may write anything, but a file without any write bit is read-only by intent
  if (process.getuid?.() === 0 && (mode & 0o222) === 0 && statSync(path).isFile()) return false;
  try {
    accessSync(path, access);
    return true;
  } catch {
    return false;
  }
}

/** `source` is the file `stats` describes under another name (a hard link, which realpath cannot see). */
function sameFile(source: string, stats: Stats): boolean {
  const other = statSync(source, { throwIfNoEntry: false });
  return other !== undefined && other.ino === stats.ino && other.dev === stats.dev;
}

function realOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
