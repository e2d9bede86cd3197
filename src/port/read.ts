/**
 * The read stage of `port`: each discovered file → its bytes, decoded text, encoding, identity and
 * fingerprint, or the reason it is skipped. Nothing later reads a source file again, except the
 * write stage's check that the file is still what was read here.
 *
 * A path the user named through a symlink is read (and later written) at its target, as long as the
 * target is inside the working directory; a file above the size limit is not read at all.
 */
import { closeSync, existsSync, fstatSync, openSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { PREFILTER_NAMES } from '../vocabulary.js';
import { decode, type Encoding } from './encoding.js';
import { fingerprintOf, type Fingerprint } from './fingerprint.js';

/** Default `--max-file-size`: hand-written server modules are far below it; bundles and generated files are not. */
export const DEFAULT_MAX_FILE_SIZE = 4 * 1024 * 1024;

/** A skipped file larger than this is not even searched for legacy names (it counts as holding some). */
const SCAN_LIMIT = 256 * 1024 * 1024;

export interface SourceText {
  /** The path as discovered (reported as `rel`). */
  abs: string;
  rel: string;
  /** The file that is read and written: `abs`, or the real file behind a symlink on its path. */
  target: string;
  bytes: Buffer;
  text: string;
  encoding: Encoding;
  fingerprint: Fingerprint;
  /** Hard links to the file (more than 1: it is edited in place, so every link sees the port). */
  nlink: number;
  /** `device:inode`: what makes two paths the same file. */
  identity: string;
  mode: number;
  uid: number;
  gid: number;
}

export type SourceRead =
  | { ok: true; file: SourceText }
  | {
      ok: false;
      abs: string;
      rel: string;
      reason: string;
      /** The bytes name a legacy request method: the file may hold a site that this run does not port. */
      mayHoldSites: boolean;
    };

export interface ReadOptions {
  /** The working directory; a symlink's target must be inside it. */
  cwd: string;
  /** Files above this many bytes are skipped (`too-large`). */
  maxFileSize?: number;
}

/**
 * Reads every file once. Two paths to the same file (a named symlink and its target, two hard links)
 * are one file: the first path is read, the others are skipped (`same-file`), so it is written once.
 */
export function readSources(files: readonly string[], options: ReadOptions): SourceRead[] {
  const boundary = realBoundary(options.cwd);
  const seen = new Map<string, string>();
  return files.map((abs) => {
    const read = readSource(abs, options, boundary);
    if (!read.ok) return read;
    const first = seen.get(read.file.identity);
    if (first === undefined) {
      seen.set(read.file.identity, read.file.rel);
      return read;
    }
    return { ok: false, abs, rel: read.file.rel, reason: `same-file: another name of ${first}, which is ported under that name`, mayHoldSites: false };
  });
}

/** Another text file the run may rewrite (package.json): read like a source; undefined when it does not exist. */
export function readTextFile(abs: string, cwd: string): SourceRead | undefined {
  if (!existsSync(abs)) return undefined;
  return readSource(abs, { cwd, maxFileSize: Number.MAX_SAFE_INTEGER }, realBoundary(cwd));
}

function readSource(abs: string, options: ReadOptions, boundary: string): SourceRead {
  const rel = relative(options.cwd, abs).split(sep).join('/');
  const skip = (reason: string, bytes?: Uint8Array | 'unsearched') => ({
    ok: false as const,
    abs,
    rel,
    reason,
    mayHoldSites: bytes === 'unsearched' || (bytes !== undefined && namesLegacyMethod(bytes)),
  });
  let target: string;
  try {
    target = realpathSync(abs);
  } catch (error) {
    return skip(`unreadable: ${messageOf(error)}`, 'unsearched');
  }
  // the path as it would be without links: differs when a symlink is on the way
  const unlinked = resolve(boundary, relative(options.cwd, abs));
  if (target !== unlinked && !isInside(target, boundary)) {
    // reading it is harmless (only writing is kept inside): does it hold something left unported?
    return skip(`symlink-outside: its target ${target} is outside the working directory; name the target itself to port it`, readOrUnsearched(target));
  }
  let fd: number;
  try {
    fd = openSync(target, 'r');
  } catch (error) {
    // what it holds is unknown: it counts as maybe holding a site
    return skip(`unreadable: ${messageOf(error)}`, 'unsearched');
  }
  try {
    const stats = fstatSync(fd, { bigint: true });
    const maxFileSize = options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE;
    if (stats.size > BigInt(maxFileSize)) {
      const reason = `too-large: ${formatSize(Number(stats.size))}, over the --max-file-size limit of ${formatSize(maxFileSize)}`;
      // searching bytes is linear (parsing is what the limit guards); past the scan limit assume the worst
      return skip(reason, stats.size > BigInt(SCAN_LIMIT) ? 'unsearched' : readFileSync(fd));
    }
    const bytes = readFileSync(fd);
    const decoded = decode(bytes);
    if (!decoded.ok) return skip(decoded.reason, bytes);
    return {
      ok: true,
      file: {
        abs,
        rel,
        target,
        bytes,
        text: decoded.text,
        encoding: decoded.encoding,
        fingerprint: fingerprintOf(stats, bytes),
        nlink: Number(stats.nlink),
        identity: `${stats.dev}:${stats.ino}`,
        mode: Number(stats.mode) & 0o7777,
        uid: Number(stats.uid),
        gid: Number(stats.gid),
      },
    };
  } catch (error) {
    return skip(`unreadable: ${messageOf(error)}`, 'unsearched');
  } finally {
    closeSync(fd);
  }
}

function readOrUnsearched(file: string): Buffer | 'unsearched' {
  try {
    return statSync(file).size > SCAN_LIMIT ? 'unsearched' : readFileSync(file);
  } catch {
    return 'unsearched';
  }
}

/** Do the bytes (an ASCII-compatible encoding, or UTF-16) name a legacy request method? */
export function namesLegacyMethod(bytes: Uint8Array): boolean {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return PREFILTER_NAMES.some(
    (name) => buffer.includes(name, 0, 'latin1') || buffer.includes(name, 0, 'utf16le') || buffer.includes(Buffer.from(name, 'utf16le').swap16()),
  );
}

function realBoundary(cwd: string): string {
  try {
    return realpathSync(cwd);
  } catch {
    return resolve(cwd);
  }
}

export function isInside(file: string, dir: string): boolean {
  return file === dir || file.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
