// `--verify`: checks each label against its snapshot without running anything: the file exists at
// the commit and the labelled line (or one of the nine after it, for a call split over lines) names
// what the label says is there. Catches a shifted line or a typo in a path before a run is scored on it.
import { execFileSync } from 'node:child_process';
import { findSnapshot, hasCommit } from './snapshot.mjs';

// What the labelled line must mention, by form; `alias` (a call through a variable) and look-alikes
// are checked for the file only.
const EXPECT = {
  elicitInput: /elicitInput/,
  createMessage: /createMessage/,
  requestSampling: /requestSampling/,
  listRoots: /listRoots/,
  send: /\bsend\s*\(/,
  sendRequest: /sendRequest/,
  request: /\brequest\s*\(/,
  'url-elicitation-error': /UrlElicitationRequiredError/,
};

/** Lines from the labelled one in which the method must be named (the labelled line and the next nine). */
const CALL_SPAN = 10;

function fileAt(gitDir, commit, path) {
  try {
    return execFileSync('git', ['--git-dir', gitDir, 'show', `${commit}:${path}`], { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return null;
  }
}

/** Problems found in `repo`'s labels: [{ id, problem }]; null when the snapshot is absent. */
export function verifyRepo(repo) {
  const { gitDir } = findSnapshot(repo.name);
  if (!gitDir || !hasCommit(gitDir, repo.commit)) return null;
  const problems = [];
  const cache = new Map();
  for (const site of repo.sites) {
    if (!cache.has(site.path)) cache.set(site.path, fileAt(gitDir, repo.commit, site.path));
    const text = cache.get(site.path);
    if (text === null) {
      problems.push({ id: site.id, problem: `${site.path} is not in commit ${repo.commit.slice(0, 12)}` });
      continue;
    }
    const lines = text.split('\n');
    if (site.line > lines.length) {
      problems.push({ id: site.id, problem: `${site.path} has ${lines.length} lines, label says ${site.line}` });
      continue;
    }
    if (repo.include.length && !repo.include.some((p) => site.path === p || site.path.startsWith(`${p.replace(/\/$/, '')}/`))) {
      problems.push({ id: site.id, problem: `${site.path} is outside the repository's include list` });
    }
    const want = site.verdict === 'not-a-site' ? null : EXPECT[site.form];
    // a call is labelled where it starts, as analyze reports it; its callee may name the method a few
    // lines down when the receiver spans lines (`await (\n  this.server as { … }\n).request(`)
    const here = lines.slice(site.line - 1, site.line - 1 + CALL_SPAN).join('\n');
    if (want && !want.test(here)) problems.push({ id: site.id, problem: `${site.path}:${site.line} does not mention ${site.form}: ${lines[site.line - 1].trim().slice(0, 80)}` });
  }
  return problems;
}
