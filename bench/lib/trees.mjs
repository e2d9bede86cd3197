// Real trees for the benches, from repository snapshots on this machine (the `fetch` tool's mirrors,
// /work/.mirror/<owner>+<name>/repo, or the folder MRTR_BENCH_MIRRORS names): a folder of the snapshot's
// HEAD, exported with `git archive` into `dest`. Nothing is fetched; a missing snapshot returns null and
// the bench falls back to a tree it builds from node_modules or generates.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export const MIRRORS = process.env.MRTR_BENCH_MIRRORS ?? '/work/.mirror';

/** Exports `subdir` ('' for all) of `owner/name`'s snapshot into `dest`; returns { dir, commit } or null. */
export function snapshotTree(repo, subdir, dest) {
  const gitDir = join(MIRRORS, repo.replace('/', '+'), 'repo');
  if (!existsSync(gitDir)) return null;
  const git = (...args) => execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 });
  const commit = git('rev-parse', 'HEAD').trim();
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(dest, { recursive: true });
  const archive = execFileSync('git', ['--git-dir', gitDir, 'archive', '--format=tar', 'HEAD', ...(subdir ? [subdir] : [])], { maxBuffer: 1024 * 1024 * 1024 });
  execFileSync('tar', ['-x', '-C', dest, ...(subdir ? [`--strip-components=${subdir.split('/').length}`] : [])], { input: archive });
  return { dir: dest, commit, source: `${repo}@${commit.slice(0, 12)}${subdir ? `:${subdir}` : ''}` };
}
