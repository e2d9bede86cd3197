#!/usr/bin/env node
/**
 * cli.bench: the `mrtr-port` command as a user runs it (start-up included), against what it must beat,
 * in paired child-process rounds (bench/lib `pairedRounds`, alternating order), medians of per-round
 * ratios. The CLI is compiled to plain JS first (bench/lib `compileTool`, the published dist's layout).
 *
 *   start-up    `mrtr-port --version` vs `node -e 0`                                       goal ≤ 2×
 *   big repo    `mrtr-port analyze .` vs the bare parse F of the same files (parse-floor.mjs) goal ≤ 0.3×
 *               and the official codemod's own pass over the same repo (`mcp-codemod v1-to-v2 --dry-run`)
 *               goal: analyze ≥ 15× faster
 *   dense repo  `mrtr-port analyze .` vs F, every file holds handlers with legacy calls       goal ≤ 2×
 *   v1 tree     `mrtr-port port --dry-run .` (v1 migration + MRTR port) vs the official codemod alone
 *                                                                                          goal ≤ 1.2×
 *   v2 tree     `mrtr-port port --dry-run .` vs `mrtr-port analyze .`                        goal ≤ 1.5×
 *
 * Peak RSS of every process (bench/corpus/rss-probe.mjs preloaded). Trees (bench/lib/trees.mjs):
 * big = typescript-eslint's snapshot (or any folder named by MRTR_BENCH_BIG_REPO), else real package
 * sources copied from node_modules; v1 = modelcontextprotocol/servers src/everything, else a generated
 * 30-file v1 server; v2 = modelcontextprotocol/typescript-sdk examples/, else 20 generated v2 files;
 * dense = 1,000 generated v2 files. The report names the tree each row used.
 *
 * Usage: npm run bench -- cli   (or: node bench/cli.bench.mjs); rounds: BENCH_ROUNDS (default 5); only some
 * sections: BENCH_SECTIONS=dense,v2 (start-up, big, dense, v1, v2).
 */
import { cpSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compileTool } from './lib/compile.mjs';
import { copyRealCorpus, generateMcpCorpus, generateV1McpCorpus } from './lib/corpus.mjs';
import { median, pairedRounds, ratio, table } from './lib/paired.mjs';
import { snapshotTree } from './lib/trees.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const work = join(here, '.work', 'cli');
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const CODEMOD = join(root, 'node_modules/@modelcontextprotocol/codemod/dist/cli.mjs');

mkdirSync(work, { recursive: true });
const { dist, cli } = compileTool(root, join(work, 'dist'));
const { discoverFiles } = await import(pathToFileURL(join(dist, 'src/port/discover.js')).href);

const trees = {
  big: bigTree(),
  dense: { dir: join(work, 'dense'), source: 'generated: 1,000 v2 tool modules', make: (d) => generateMcpCorpus(d, 1000) },
  v1: realOr('modelcontextprotocol/servers', 'src/everything', 'v1', 'generated: 30-file v1 server', (d) => generateV1McpCorpus(d, 30)),
  v2: realOr('modelcontextprotocol/typescript-sdk', 'examples', 'v2', 'generated: 20 v2 tool modules', (d) => generateMcpCorpus(d, 20)),
};

const node0 = { name: 'node -e 0', argv: ['-e', '0'], plain: true };
const cliCmd = (name, dir, ...args) => ({ name, argv: [cli, ...args], cwd: dir, plain: true, exitCodes: [0, 1] });
// the target comes before the extras: `--ignore <patterns...>` takes every argument after it (with `.` last,
// the codemod stopped at once with a usage error, exit 1). It exits 0 when it ran, changes or not.
const codemodCmd = (name, dir, ...extra) => ({ name, argv: [CODEMOD, 'v1-to-v2', '--dry-run', '.', ...extra], cwd: dir, plain: true });
const floorCmd = (dir, list) => ({ name: 'bare parse F', argv: [join(here, 'lib/parse-floor.mjs'), list], cwd: dir });

const sections = [
  { title: 'start-up', tree: null, commands: () => [node0, cliCmd('--version', work, '--version')], pairs: [['--version', 'node -e 0', 2, 'le']] },
  {
    title: 'big repo',
    tree: trees.big,
    commands: (t, list) => [floorCmd(t.dir, list), cliCmd('analyze', t.dir, 'analyze', '.'), codemodCmd('official codemod', t.dir, ...(t.codemodArgs ?? []))],
    pairs: [['analyze', 'bare parse F', 0.3, 'le'], ['official codemod', 'analyze', 15, 'ge']],
  },
  { title: 'dense repo', tree: trees.dense, commands: (t, list) => [floorCmd(t.dir, list), cliCmd('analyze', t.dir, 'analyze', '.')], pairs: [['analyze', 'bare parse F', 2, 'le']] },
  { title: 'v1 tree', tree: trees.v1, commands: (t) => [cliCmd('port --dry-run', t.dir, 'port', '--dry-run', '.'), codemodCmd('official codemod', t.dir)], pairs: [['port --dry-run', 'official codemod', 1.2, 'le']] },
  { title: 'v2 tree', tree: trees.v2, commands: (t) => [cliCmd('port --dry-run', t.dir, 'port', '--dry-run', '.'), cliCmd('analyze', t.dir, 'analyze', '.')], pairs: [['port --dry-run', 'analyze', 1.5, 'le']] },
];

// BENCH_SECTIONS names sections by the first word of their title (start-up, big, dense, v1, v2)
const wantedSections = process.env.BENCH_SECTIONS ? process.env.BENCH_SECTIONS.split(',').map((w) => w.trim()) : undefined;
const unknownSections = (wantedSections ?? []).filter((w) => !sections.some((s) => s.title.split(' ')[0] === w));
if (unknownSections.length) throw new Error(`BENCH_SECTIONS: no section ${unknownSections.join(', ')} (start-up, big, dense, v1, v2)`);

const rows = [['section', 'tree', 'files', 'MB', 'command', 'wall s (median)', 'peak RSS MiB', 'ratio', 'per-round ratio: median (min–max)', 'goal']];
const loads = [loadavg()[0]];
let missed = 0;
for (const s of sections.filter((s) => !wantedSections || wantedSections.includes(s.title.split(' ')[0]))) {
  let files = [];
  let list;
  if (s.tree) {
    s.tree.make(s.tree.dir);
    ({ files } = await discoverFiles({ cwd: s.tree.dir, paths: ['.'] }));
    list = join(work, `${s.title.replace(/\W+/g, '-')}.list`);
    writeFileSync(list, files.join('\n') + '\n');
  }
  const commands = s.commands(s.tree, list);
  const r = pairedRounds(commands, rounds);
  loads.push(loadavg()[0]);
  const mb = files.reduce((n, f) => n + statSync(f).size, 0) / 1e6;
  for (const c of commands) {
    const xs = r[c.name];
    const pair = s.pairs.find(([a]) => a === c.name);
    let cells = ['', '', ''];
    if (pair) {
      const [a, b, goal, how] = pair;
      const x = ratio(r[a], r[b], 'wallMs');
      const ok = how === 'le' ? x.median <= goal : x.median >= goal;
      if (!ok) missed++;
      cells = [`${a} / ${b}`, `${x.median.toFixed(2)} (${x.min.toFixed(2)}–${x.max.toFixed(2)})`, `${how === 'le' ? '≤' : '≥'} ${goal}: ${ok ? 'met' : 'MISSED'}`];
    }
    rows.push([
      c === commands[0] ? s.title : '',
      c === commands[0] ? (s.tree?.source ?? '—') : '',
      c === commands[0] ? (s.tree ? files.length : '') : '',
      c === commands[0] ? (s.tree ? mb.toFixed(1) : '') : '',
      c.name,
      (median(xs.map((x) => x.wallMs)) / 1000).toFixed(2),
      (median(xs.map((x) => x.maxRssBytes)) / 2 ** 20).toFixed(0),
      ...cells,
    ]);
  }
}
console.log(`mrtr-port CLI, ${rounds} paired rounds (alternating order), medians; node ${process.version}; 1-min load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`);
console.log(table(rows));
console.log('wall = spawn to exit (Node start-up and module loading included); ratio = per-round wall ratio, median over rounds; RSS = peak of that process.');
if (missed) console.log(`${missed} goal(s) missed`);

/** typescript-eslint (the held-out check's repo) when its snapshot is here, else real package sources. */
function bigTree() {
  // the codemod stops with an error on typescript-eslint's deliberately invalid fixtures
  const codemodArgs = ['--ignore', '**/fixtures/**'];
  const named = process.env.MRTR_BENCH_BIG_REPO;
  if (named) return { dir: join(work, 'big'), source: named, make: (d) => copyTree(named, d), codemodArgs };
  const fallback = (d) => copyRealCorpus(join(root, 'node_modules'), ['@typescript-eslint', 'zod', 'eslint', 'ts-morph', 'ajv'], d);
  const tree = realOr('typescript-eslint/typescript-eslint', '', 'big', 'fallback: real package sources from node_modules', fallback);
  tree.codemodArgs = codemodArgs;
  return tree;
}

/** A folder of a repository snapshot, or the generated/copied fallback when the snapshot is absent. */
function realOr(repo, subdir, name, fallback, generate) {
  const tree = {
    dir: join(work, name),
    source: `${repo}:${subdir}`,
    make: (d) => {
      const got = snapshotTree(repo, subdir, d);
      if (got) tree.source = got.source;
      else {
        generate(d);
        tree.source = fallback;
      }
    },
  };
  return tree;
}

function copyTree(from, to) {
  if (!existsSync(from)) throw new Error(`MRTR_BENCH_BIG_REPO: no such folder ${from}`);
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true, filter: (src) => !src.includes('/node_modules/') && !src.endsWith('/.git') });
}
