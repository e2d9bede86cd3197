#!/usr/bin/env node
// Bench: `analyze` against the bare TypeScript parse of the same files (the floor F of
// perf-baselines.md), in paired child-process rounds, on
//   (a) real package sources copied from node_modules (thousands of files, few MCP sites);
//   (b) a generated MCP repo where every file holds handlers with legacy calls.
// (a') is (a) without the MCP SDK's own bundles, for an app repo with no MCP code at all.
// Goals: (a) analyze wall ≤ 0.3× F, (b) ≤ 2× F; peak RSS reported. Rounds: BENCH_ROUNDS (default 5).
// Usage: npm run bench -- analyze   (or: node bench/analyze.bench.mjs)
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transpileTree } from './lib/compile.mjs';
import { copyRealCorpus, generateMcpCorpus } from './lib/corpus.mjs';
import { median, pairedRounds, ratio, table } from './lib/paired.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const work = join(here, '.work', 'analyze');
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);

const REAL_PACKAGES = ['@typescript-eslint', 'zod', '@modelcontextprotocol', 'eslint', 'ts-morph', 'ajv'];
const GENERATED_FILES = 1000;

// the analyzer (with its plan/ folder), compiled to plain JS so the child times the code, not a TS loader
const srcFiles = [join(root, 'src/vocabulary.ts'), join(root, 'src/port/encoding.ts'), join(root, 'src/typescript.cjs'), ...readdirSync(join(root, 'src/analyzer'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).map((f) => join(root, 'src/analyzer', f))];
transpileTree(root, srcFiles, join(work, 'dist'));
const entry = join(work, 'dist/src/analyzer/index.js');

const corpora = [
  { name: '(a) real packages', dir: join(work, 'real'), make: (dir) => copyRealCorpus(join(root, 'node_modules'), REAL_PACKAGES, dir), goal: 0.3 },
  // the same without the MCP SDK's own bundles (which define the vocabulary): an app repo with no MCP code
  { name: "(a') real, no MCP SDK", dir: join(work, 'real-no-sdk'), make: (dir) => copyRealCorpus(join(root, 'node_modules'), REAL_PACKAGES.filter((p) => p !== '@modelcontextprotocol'), dir), goal: 0.3 },
  { name: '(b) generated MCP', dir: join(work, 'generated'), make: (dir) => generateMcpCorpus(dir, GENERATED_FILES), goal: 2 },
];

const rows = [['corpus', 'files', 'MB', 'F wall s', 'analyze wall s', 'wall ×F (min–max)', 'work ×F', 'goal', 'RSS F / analyze MiB', 'parsed', 'sites']];
const summary = [];
for (const c of corpora) {
  mkdirSync(c.dir, { recursive: true });
  const files = c.make(c.dir);
  const list = join(work, `${c.dir.split('/').pop()}.list`);
  writeFileSync(list, files.join('\n') + '\n');
  const mb = files.reduce((n, f) => n + statSync(f).size, 0) / 1e6;
  const r = pairedRounds(
    [
      { name: 'parse', argv: [join(here, 'lib/parse-floor.mjs'), list] },
      { name: 'analyze', argv: [join(here, 'lib/analyze-child.mjs'), entry, list, c.dir] },
    ],
    rounds,
  );
  const wall = ratio(r.analyze, r.parse, 'wallMs');
  const workRatio = ratio(r.analyze, r.parse, 'workMs');
  const mib = (xs) => (median(xs.map((x) => x.maxRssBytes)) / 2 ** 20).toFixed(0);
  const last = r.analyze[r.analyze.length - 1];
  const ok = wall.median <= c.goal;
  rows.push([
    c.name,
    files.length,
    mb.toFixed(1),
    (median(r.parse.map((x) => x.wallMs)) / 1000).toFixed(2),
    (median(r.analyze.map((x) => x.wallMs)) / 1000).toFixed(2),
    `${wall.median.toFixed(2)} (${wall.min.toFixed(2)}–${wall.max.toFixed(2)})`,
    workRatio.median.toFixed(2),
    `≤ ${c.goal} ${ok ? 'met' : 'MISSED'}`,
    `${mib(r.parse)} / ${mib(r.analyze)}`,
    last.parsed,
    last.sites,
  ]);
  summary.push({ corpus: c.name, ok });
}
console.log(`analyze vs bare TS parse (F), ${rounds} paired rounds, median; node ${process.version}`);
console.log(table(rows));
console.log('wall = child process spawn to exit (Node start-up and module load included, as F in perf-baselines.md);');
console.log('work = time inside the child after imports. RSS = process.resourceUsage().maxRSS of each child.');
if (!existsSync(entry)) process.exit(1);
