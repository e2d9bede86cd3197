#!/usr/bin/env node
/**
 * port.bench: `port --dry-run` next to `analyze` alone, on the same repo, in paired rounds.
 *
 * Corpora (bench/.work/port/corpus-*, rebuilt each run), (a) and (a') without the MCP SDK's own files: real JS/TS sources listed with bench/lib's
 * `listSourceFiles` from this repo's node_modules (no `.d.ts`, nothing over 300 kB), spread over every
 * package, a few thousand files with no MCP sites; `dist`/`build` folder names are renamed on copy so
 * file discovery (which skips build output) sees them. Plus bench/lib's `generateMcpCorpus` with 20
 * files: SDK v2 tool modules with legacy asks (auto, through a helper, in a loop, low-level roots).
 *
 * Both sides run compiled to plain JS (bench/lib `transpileTree`), each round in fresh child processes
 * (bench/lib `pairedRounds`, alternating order): `analyze` = discover + analyze; `port` = the whole
 * `runPort({ dryRun: true })` (discover, read, analyze, transform the files with sites, re-parse,
 * diffs). `work` = time inside the child after its modules are loaded; `cpu` = the child's CPU time
 * (user + system, all threads) over the same span, which the machine's load disturbs far less than
 * wall time; `wall` = spawn to exit. The port child also times its analyze and transform stages
 * (wrapped dependencies), so the share of the per-file transforms is visible. Modules the runner loads
 * lazily are loaded before the clock when this corpus needs them (the v1 migration: ts-morph and the
 * codemod, only when a file imports SDK v1), so `wall` still shows what a run of that corpus loads.
 * Goal: port --dry-run ≤ 1.5× analyze (only files with sites are re-printed), median of paired rounds.
 *
 * Usage: npm run bench -- port   (or: node bench/port.bench.mjs); rounds: BENCH_ROUNDS (default 7).
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compileRunner } from './lib/compile.mjs';
import { loadTimedRunner } from './lib/timed-runner.mjs';
import { generateMcpCorpus, listSourceFiles } from './lib/corpus.mjs';
import { median, pairedRounds, ratio, table } from './lib/paired.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const work = join(here, '.work', 'port');
const GOAL = 1.5;
const REAL_FILES = 3000;
const GENERATED_FILES = 20;

if (process.argv[2] === '--child') {
  await child(process.argv[3], process.argv[4], process.argv[5], process.argv[6] === '--v1');
} else {
  await parent(Number(process.env.BENCH_ROUNDS ?? 7));
}

/** One measurement in its own process: prints { workMs, maxRssBytes, ... } as one JSON line. */
async function child(mode, dist, cwd, hasV1) {
  const load = (rel) => import(pathToFileURL(join(dist, rel)).href);
  if (mode === 'analyze') {
    const [{ discoverFiles }, { analyze }] = await Promise.all([load('src/port/discover.js'), load('src/analyzer/index.js')]);
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const { files } = await discoverFiles({ cwd, paths: ['.'] });
    const { report } = await analyze({ cwd, files });
    const workMs = performance.now() - t0;
    print({ workMs, cpuMs: cpuMsSince(c0), files: files.length, sites: report.sites.length });
  } else {
    // the runner loads its stages lazily: load the ones this corpus needs before the clock starts, as the
    // analyze side does (ts-morph and the codemod load only when some file imports SDK v1)
    const { runPort, dependencies, stageMs } = await loadTimedRunner(dist);
    if (hasV1) await load('src/port/v1-migration.js');
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const result = await runPort({ cwd, paths: ['.'], dryRun: true, dependencies });
    const workMs = performance.now() - t0;
    print({
      workMs,
      cpuMs: cpuMsSince(c0),
      analyzeMs: stageMs.analyze,
      transformMs: stageMs.transform,
      files: result.summary.scanned,
      changed: result.summary.changed,
      failed: result.summary.failed,
      markers: result.summary.markers,
    });
  }
}

function cpuMsSince(start) {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
}

function print(data) {
  console.log(JSON.stringify({ ...data, maxRssBytes: process.resourceUsage().maxRSS * 1024 }));
}

async function parent(rounds) {
  const dist = compile();
  const { isV1Source } = await import(pathToFileURL(join(dist, 'src/port/v1-detect.js')).href);
  const corpora = [
    { name: '(a) real + MCP SDK sources', dir: join(work, 'corpus-a'), withSdk: true },
    // without the SDK's own files (its bundled examples hold legacy calls): only the generated files have sites
    { name: "(a') real, no MCP SDK", dir: join(work, 'corpus-a2'), withSdk: false },
  ];
  const rows = [
    ['corpus', 'files', 'MB', 'sites', 'changed', 'analyze work s', 'port work s', 'work ratio (min–max)', 'cpu ratio (min–max)', 'wall ratio', 'work ratio without the transform calls', 'port: analyze / transform / rest s', 'RSS MiB a / p', 'goal (work; cpu)'],
  ];
  const loads = [];
  for (const c of corpora) {
    const size = buildCorpus(c.dir, c.withSdk);
    const v1 = size.paths.some((f) => isV1Source(readFileSync(f, 'utf8'))) ? ['--v1'] : [];
    loads.push(loadavg()[0]);
    const r = pairedRounds(
      [
        { name: 'analyze', argv: [fileURLToPath(import.meta.url), '--child', 'analyze', dist, c.dir] },
        { name: 'port', argv: [fileURLToPath(import.meta.url), '--child', 'port', dist, c.dir, ...v1] },
      ],
      rounds,
    );
    loads.push(loadavg()[0]);
    const workRatio = ratio(r.port, r.analyze, 'workMs');
    const cpuRatio = ratio(r.port, r.analyze, 'cpuMs');
    const wallRatio = ratio(r.port, r.analyze, 'wallMs');
    const range = (x) => `${x.median.toFixed(2)} (${x.min.toFixed(2)}–${x.max.toFixed(2)})`;
    const sec = (xs, field) => (median(xs.map((x) => x[field])) / 1000).toFixed(2);
    const s = (xs) => sec(xs, 'workMs');
    const rest = r.port.map((x) => ({ restMs: x.workMs - x.analyzeMs - x.transformMs }));
    // what the runner itself adds, with the per-file transforms (another stage's cost) taken out
    const withoutTransforms = ratio(r.port.map((x) => ({ workMs: x.workMs - x.transformMs })), r.analyze, 'workMs');
    const mib = (xs) => (median(xs.map((x) => x.maxRssBytes)) / 2 ** 20).toFixed(0);
    const last = r.port[r.port.length - 1];
    rows.push([
      c.name,
      r.analyze[0].files,
      (size.bytes / 1e6).toFixed(1),
      r.analyze[0].sites,
      `${last.changed} (${last.failed} failed)`,
      s(r.analyze),
      s(r.port),
      range(workRatio),
      range(cpuRatio),
      wallRatio.median.toFixed(2),
      range(withoutTransforms),
      `${sec(r.port, 'analyzeMs')} / ${sec(r.port, 'transformMs')} / ${sec(rest, 'restMs')}`,
      `${mib(r.analyze)} / ${mib(r.port)}`,
      `≤ ${GOAL}: ${workRatio.median <= GOAL ? 'met' : 'MISSED'}; ${cpuRatio.median <= GOAL ? 'met' : 'MISSED'}`,
    ]);
  }
  console.log(
    `port --dry-run vs analyze, ${rounds} paired rounds, median; node ${process.version}; ${GENERATED_FILES} generated MCP files in each corpus; 1-min load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`,
  );
  console.log(table(rows));
  console.log(
    'work = time inside the child after its modules are loaded; cpu = its CPU time over that span; wall = spawn to exit; RSS = maxRSS of each child.',
  );
}

function compile() {
  return compileRunner(root, join(work, 'dist'));
}

function buildCorpus(dir, withSdk) {
  rmSync(dir, { recursive: true, force: true });
  const nodeModules = join(root, 'node_modules');
  const all = listSourceFiles(nodeModules, { maxBytes: 300_000, skipNestedNodeModules: false }).filter(
    (f) => !f.endsWith('.min.js') && (withSdk || !relative(nodeModules, f).split(sep).includes('@modelcontextprotocol')),
  );
  // spread the pick over every package instead of the first ones alphabetically
  const step = Math.max(1, Math.floor(all.length / REAL_FILES));
  const picked = all.filter((_, i) => i % step === 0).slice(0, REAL_FILES);
  let bytes = 0;
  const paths = [];
  for (const file of picked) {
    const rel = relative(nodeModules, file)
      .split(sep)
      .map((seg) => (['node_modules', 'dist', 'build', 'out', 'coverage'].includes(seg) ? `${seg}-src` : seg))
      .join('/');
    const to = join(dir, 'vendor', rel);
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(file, to);
    paths.push(to);
    bytes += statSync(file).size;
  }
  const generated = generateMcpCorpus(join(dir, 'server'), GENERATED_FILES);
  for (const f of generated) bytes += statSync(f).size;
  return { files: picked.length + generated.length, real: picked.length, generated: generated.length, bytes, paths: [...paths, ...generated] };
}
