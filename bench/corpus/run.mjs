#!/usr/bin/env node
// `npm run corpus`: scores this checkout's analyze and port on the labelled corpus of real MCP
// servers (bench/corpus/labels/*.json) whose snapshots are present under /work/.mirror/.
// Not part of CI: the snapshots are fetched, not shipped. See docs/corpus.md.
//
//   npm run corpus [-- --repo <owner/name|part>]... [--dev | --all] [--json] [--out <file>] [--keep] [--verify] [--typecheck]
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from './lib/cli-run.mjs';
import { loadManifest, ManifestError } from './lib/manifest.mjs';
import { scoreRepo } from './lib/score.mjs';
import { copyTree, extract, findSnapshot, hasCommit } from './lib/snapshot.mjs';
import { typecheckRepo } from './lib/typecheck.mjs';
import { verifyRepo } from './lib/verify-labels.mjs';
import { formatDisagreements, formatTable, formatTypecheck, total } from './lib/table.mjs';

const LABELS = fileURLToPath(new URL('./labels/', import.meta.url));
const SCRATCH = process.env.MRTR_CORPUS_SCRATCH ?? '/tmp/mrtr-corpus';
const USAGE = 'usage: npm run corpus -- [--repo <owner/name|part>]... [--dev | --all | --held-out] [--json] [--out <file>] [--keep] [--verify] [--typecheck]';

function parseArgs(argv) {
  const opts = { repos: [], dev: false, all: false, heldOut: false, json: false, out: null, keep: false, verify: false, typecheck: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--repo') {
      if (!argv[i + 1]) throw new ManifestError(`--repo needs a name\n${USAGE}`);
      opts.repos.push(argv[++i]);
    } else if (a === '--out') {
      if (!argv[i + 1]) throw new ManifestError(`--out needs a file\n${USAGE}`);
      opts.out = argv[++i];
    } else if (a === '--dev') opts.dev = true;
    else if (a === '--all') opts.all = true;
    else if (a === '--held-out') opts.heldOut = true;
    else if (a === '--json') opts.json = true;
    else if (a === '--keep') opts.keep = true;
    else if (a === '--verify') opts.verify = true;
    else if (a === '--typecheck') opts.typecheck = true;
    else if (a === '-h' || a === '--help') {
      console.log(USAGE);
      process.exit(0);
    } else throw new ManifestError(`unknown argument ${a}\n${USAGE}`);
  }
  return opts;
}

function selectRepos(repos, opts) {
  if (opts.repos.length) {
    const picked = repos.filter((r) => opts.repos.some((q) => r.tree === q || r.tree.toLowerCase().includes(q.toLowerCase())));
    if (picked.length === 0) throw new ManifestError(`no labelled repository matches ${opts.repos.join(', ')}`);
    return picked;
  }
  if (opts.heldOut) return repos.filter((r) => r.heldOut);
  return repos.filter((r) => opts.all || r.dev === opts.dev);
}

/** Takes `<base>.lock` for this process; the pid of a live run that holds it, else undefined. */
function lockScratch(base) {
  const lock = `${base}.lock`;
  mkdirSync(SCRATCH, { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      return undefined;
    } catch {
      const pid = Number(readFileSync(lock, 'utf8'));
      if (pid && pid !== process.pid && alive(pid)) return pid;
      rmSync(lock, { force: true }); // left by a run that died
    }
  }
  return undefined;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/** Extract, analyze, port, port again (dry run): what scoreRepo needs, or why it could not run. */
function runRepo(repo, note, opts) {
  const slug = repo.tree.replace(/[^\w.@-]+/g, '+');
  const base = join(SCRATCH, slug);
  const origDir = join(base, 'orig');
  const portDir = join(base, 'port');
  const snap = findSnapshot(repo.name);
  if (!snap.gitDir) return { skip: snap.why };
  if (!hasCommit(snap.gitDir, repo.commit)) return { skip: `labelled commit ${repo.commit.slice(0, 12)} is not in the snapshot` };
  // two runs in one scratch folder port each other's files (the port then refuses them: changed-on-disk)
  const holder = lockScratch(base);
  if (holder) return { skip: `another corpus run (pid ${holder}) is using ${base}` };
  note(`${repo.tree}: extracting ${repo.commit.slice(0, 12)}`);
  try {
    extract(snap.gitDir, repo.commit, repo.include, origDir);
  } catch (e) {
    // A snapshot can lack large files (they are not fetched): say which, and go on with the others.
    rmSync(`${base}.lock`, { force: true });
    return { skip: `could not extract ${repo.commit.slice(0, 12)}${repo.include.length ? ` (${repo.include.join(', ')})` : ''}: ${String(e.stderr ?? e.message).trim().split('\n')[0]}` };
  }
  copyTree(origDir, portDir);
  mkdirSync(join(base, 'reports'), { recursive: true });
  const run = { origDir, portDir, base };
  note(`${repo.tree}: analyze`);
  run.analyze = runCli(['analyze', '.'], origDir, join(base, 'reports', 'analyze.json'));
  if (!run.analyze.json) run.failure = `analyze exited ${run.analyze.code}${run.analyze.error ? `: ${run.analyze.error}` : ''} ${run.analyze.stderr}`;
  note(`${repo.tree}: port`);
  run.port = runCli(['port', '.'], portDir, join(base, 'reports', 'port.json'));
  if (!run.port.json || run.port.code === 2) run.failure = `${run.failure ? `${run.failure}; ` : ''}port exited ${run.port.code}${run.port.error ? `: ${run.port.error}` : ''} ${run.port.stderr}`;
  note(`${repo.tree}: port again (dry run)`);
  run.rerun = runCli(['port', '--dry-run', '.'], portDir, join(base, 'reports', 'rerun.json'));
  if (opts.typecheck) run.typecheck = typecheckRepo(origDir, portDir, (m) => note(`${repo.tree}: ${m}`));
  return { run };
}

/** `--verify`: every label checked against its snapshot; exit 1 when one is wrong. */
function verifyAll(repos) {
  let bad = 0;
  for (const repo of repos) {
    const problems = verifyRepo(repo);
    if (problems === null) {
      console.log(`${repo.tree}: skipped (no snapshot with commit ${repo.commit.slice(0, 12)})`);
      continue;
    }
    bad += problems.length;
    console.log(`${repo.tree}: ${repo.sites.length} labels, ${problems.length ? `${problems.length} wrong` : 'all found'}`);
    for (const p of problems) console.log(`  ${p.id}: ${p.problem}`);
  }
  if (bad) process.exitCode = 1;
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const repos = selectRepos(loadManifest(LABELS), opts);
  const note = (m) => process.stderr.write(`${m}\n`);
  if (opts.verify) return verifyAll(repos);
  const scores = [];
  const skipped = [];
  for (const repo of repos) {
    const { run, skip } = runRepo(repo, note, opts);
    if (skip) {
      skipped.push({ repo: repo.tree, why: skip });
      note(`${repo.tree}: skipped: ${skip}`);
      continue;
    }
    scores.push({ ...scoreRepo(repo, run), author: repo.author, commit: repo.commit, heldOut: repo.heldOut, typecheck: run.typecheck ?? null });
    if (!opts.keep) rmSync(run.base, { recursive: true, force: true });
    rmSync(`${run.base}.lock`, { force: true });
  }
  const corpus = scores.filter((s) => !s.dev);
  const dev = scores.filter((s) => s.dev);
  // The held-out repositories are part of the corpus; their own total shows how the tool does on
  // servers nobody tuned it on.
  const heldOut = corpus.filter((s) => s.heldOut);
  const totals = { corpus: total(corpus, `total corpus (${corpus.length} repos)`), heldOut: total(heldOut, `total held out (${heldOut.length} repos)`), dev: total(dev, `total dev (${dev.length} trees)`) };
  const machine = JSON.stringify({ tool: 'mrtr-port-corpus', version: 1, scores, totals, skipped }, null, 2);
  if (opts.out) writeFileSync(opts.out, `${machine}\n`);
  if (opts.json) {
    console.log(machine);
    return;
  }
  const rows = [...corpus, ...(corpus.length ? [null, totals.corpus] : []), ...(heldOut.length ? [totals.heldOut] : []), ...(dev.length ? [null, ...dev, null, totals.dev] : [])];
  console.log(formatTable(rows));
  for (const s of skipped) console.log(`skipped ${s.repo}: ${s.why}`);
  if (opts.typecheck) console.log(`\nType check and start (--typecheck):\n${scores.map(formatTypecheck).join('\n')}`);
  const details = scores.map(formatDisagreements).filter(Boolean);
  if (details.length) console.log(`\nDisagreements (label vs analyze vs port):\n${details.join('\n')}`);
}

try {
  main();
} catch (e) {
  if (e instanceof ManifestError) {
    console.error(`corpus: ${e.message}`);
    process.exit(2);
  }
  throw e;
}
