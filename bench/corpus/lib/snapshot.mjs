// Finds a repository's fetched snapshot (a bare git dir under /work/.mirror/owner+name/) and
// extracts the labelled commit into a scratch folder with `git archive`: no work tree, no network.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export const MIRROR_ROOT = process.env.MRTR_CORPUS_MIRRORS ?? '/work/.mirror';

/** The git dir of the snapshot, or null with why it is missing. */
export function findSnapshot(repo) {
  const base = join(MIRROR_ROOT, repo.replace('/', '+'), 'repo');
  for (const dir of [join(base, '.git'), base]) {
    if (existsSync(join(dir, 'HEAD')) && existsSync(join(dir, 'objects'))) return { gitDir: dir };
  }
  return { gitDir: null, why: `no snapshot at ${base} (bring it with the search tool's fetch, github:${repo})` };
}

export function hasCommit(gitDir, commit) {
  try {
    execFileSync('git', ['--git-dir', gitDir, 'cat-file', '-e', `${commit}^{commit}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

// Root files a tree needs to be a package (the port places its helper by the nearest package.json;
// `--typecheck` installs and compiles), kept even when `include` narrows the tree to a few folders.
const ROOT_FILES = ['package.json', 'package-lock.json', 'tsconfig.json', '.gitignore'];

function existsAt(gitDir, commit, path) {
  try {
    execFileSync('git', ['--git-dir', gitDir, 'cat-file', '-e', `${commit}:${path}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Extracts `commit` (only `include` paths, plus the root package files, when given) into `dest`, emptied first. */
export function extract(gitDir, commit, include, dest) {
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(dest, { recursive: true });
  const paths = include.length ? [...include, ...ROOT_FILES.filter((f) => !include.includes(f) && existsAt(gitDir, commit, f))] : [];
  const archive = execFileSync('git', ['--git-dir', gitDir, 'archive', '--format=tar', commit, '--', ...paths], {
    maxBuffer: 1 << 30,
  });
  execFileSync('tar', ['-x', '-C', dest], { input: archive, maxBuffer: 1 << 30 });
}

export function copyTree(from, to) {
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true, verbatimSymlinks: true });
}
