/**
 * The dirty-tree guard: `port` rewrites files in place, and `git checkout` is how a user undoes it. A
 * file with uncommitted changes (modified, staged, or untracked) cannot be undone that way without
 * losing those changes, so the run stops before writing while any file it may rewrite has some,
 * unless `--force` (or `--dry-run`, which writes nothing). Outside a git work tree, or without git,
 * there is no guard.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/**
 * The files among `candidates` (absolute) with uncommitted changes, relative to `cwd` and sorted;
 * undefined when `cwd` is not inside a git work tree (or git is not installed). Throws when there is
 * a repository but git cannot read it (e.g. "dubious ownership"): then nobody knows whether the files
 * are safe to rewrite.
 */
export function uncommittedFiles(cwd: string, candidates: readonly string[]): string[] | undefined {
  const found = git(cwd, ['rev-parse', '--show-toplevel']);
  if (!found.ok) {
    if (found.notInstalled || !insideRepository(cwd)) return undefined;
    throw new Error(`git cannot read the repository around ${cwd} (${found.error}): cannot tell whether the files to rewrite have uncommitted changes (--force skips this check)`);
  }
  const top = found.stdout.trim();
  const wanted = new Set(candidates.map(realOf).filter((file) => isInside(top, file)));
  if (wanted.size === 0) return [];
  // the whole work tree in one call (one pathspec per file could exceed the argument limit), then filtered
  const status = git(top, ['status', '--porcelain=v1', '-z', '--untracked-files=all']);
  if (!status.ok) throw new Error(`git status failed in ${top} (${status.error}): cannot tell whether the files to rewrite have uncommitted changes (--force skips this check)`);
  const dirty = new Set<string>();
  const fields = status.stdout.split('\0');
  for (let i = 0; i < fields.length; i++) {
    const entry = fields[i];
    if (entry.length < 4) continue;
    const code = entry.slice(0, 2);
    const file = resolve(top, entry.slice(3));
    if (wanted.has(file)) dirty.add(relative(realOf(cwd), file).split(sep).join('/'));
    // a rename or copy is followed by its source path
    if (code.includes('R') || code.includes('C')) i++;
  }
  return [...dirty].sort();
}

/** git reports real paths; a path through a symlink would never match one. */
function realOf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return resolve(file);
  }
}

function isInside(dir: string, file: string): boolean {
  const rel = relative(dir, file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/** A `.git` (folder, or file for worktrees) at or above `dir`. */
function insideRepository(dir: string): boolean {
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return true;
    if (dirname(d) === d) return false;
  }
}

type GitRun = { ok: true; stdout: string } | { ok: false; notInstalled: boolean; error: string };

/** git's stdout, or why it failed (the first line git wrote on stderr). */
function git(cwd: string, args: readonly string[]): GitRun {
  try {
    const stdout = execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 });
    return { ok: true, stdout };
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { stderr?: string };
    return { ok: false, notInstalled: e.code === 'ENOENT', error: (e.stderr ?? '').trim().split('\n')[0] || e.message };
  }
}
