#!/usr/bin/env node
// Bench: ESLint with the plugin's `configs.recommended` against the same ESLint run with no plugin rules
// (same parser, same files), in paired child-process rounds; prints the added time. Goal: < 10% added.
// Corpus (generated from disk, no network): real package sources copied from node_modules (TS and JS,
// all parsed by @typescript-eslint/parser) plus a generated MCP server repo whose files hold legacy
// calls, so the MRTR rules have something to find. Rounds: BENCH_ROUNDS (default 7).
// Usage: npm run bench -- eslint   (or: node bench/eslint.bench.mjs)
import { readFileSync, readdirSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { transpileTree } from './lib/compile.mjs';
import { copyRealCorpus, generateMcpCorpus } from './lib/corpus.mjs';
import { median, pairedRounds, ratio, table } from './lib/paired.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const work = join(here, '.work', 'eslint');
const corpusDir = join(here, '.work', 'eslint-corpus');
const FILES_GLOB = '**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}';
const GOAL_ADDED = 0.1;

if (process.argv[2] === '--child') await child(process.argv[3], process.argv[4], process.argv[5], process.argv[6]);
else await main();

async function main() {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
  const realPackages = ['@typescript-eslint', 'zod', '@modelcontextprotocol', 'eslint', 'ajv', '@babel', 'jscodeshift', 'diff', 'ast-types', 'recast'];
  const real = copyRealCorpus(join(root, 'node_modules'), realPackages, join(corpusDir, 'real'), { maxBytes: 100_000 });
  const generated = generateMcpCorpus(join(corpusDir, 'mcp'), 500);
  const files = [...real, ...generated];
  mkdirSync(work, { recursive: true });
  const list = join(work, 'files.list');
  writeFileSync(list, files.join('\n') + '\n');

  // The plugin compiled to plain JS, so the child times the rules rather than a TS loader.
  const sources = [...tsFilesUnder(join(root, 'rules')), ...tsFilesUnder(join(root, 'src'))];
  transpileTree(root, sources, join(work, 'dist'));
  const plugin = join(work, 'dist', 'rules', 'plugin.js');

  const self = fileURLToPath(import.meta.url);
  const r = pairedRounds(
    [
      { name: 'base', argv: [self, '--child', 'base', list, plugin, corpusDir] },
      { name: 'plugin', argv: [self, '--child', 'plugin', list, plugin, corpusDir] },
    ],
    rounds,
  );
  const wall = ratio(r.plugin, r.base, 'wallMs');
  const lint = ratio(r.plugin, r.base, 'workMs');
  const cpu = ratio(r.plugin, r.base, 'cpuMs');
  const mb = files.reduce((n, f) => n + statSync(f).size, 0) / 1e6;
  const count = (re) => files.filter((f) => re.test(f)).length;
  const secs = (xs, field) => (median(xs.map((x) => x[field])) / 1000).toFixed(2);
  const pct = (x) => `${((x - 1) * 100).toFixed(1)}%`;
  const last = r.plugin[r.plugin.length - 1];

  console.log(`ESLint ${last.eslint} + @typescript-eslint/parser: configs.recommended vs no plugin rules, ${rounds} paired rounds; node ${process.version}`);
  console.log(`corpus: ${files.length} files (${count(/\.(ts|mts|cts|tsx)$/)} TS, ${count(/\.(js|mjs|cjs|jsx)$/)} JS), ${mb.toFixed(1)} MB: ${real.length} real package sources + ${generated.length} generated MCP server files`);
  console.log(
    table([
      ['run', 'wall s (median)', 'lint s (median)', 'lint CPU s (median)', 'problems', 'parse errors'],
      ['base (no plugin rules)', secs(r.base, 'wallMs'), secs(r.base, 'workMs'), secs(r.base, 'cpuMs'), r.base.at(-1).problems, r.base.at(-1).fatal],
      ['configs.recommended', secs(r.plugin, 'wallMs'), secs(r.plugin, 'workMs'), secs(r.plugin, 'cpuMs'), last.problems, last.fatal],
    ]),
  );
  console.log(`added time, median of per-round ratios (min – max): wall ${pct(wall.median)} (${pct(wall.min)} – ${pct(wall.max)}), lint only ${pct(lint.median)} (${pct(lint.min)} – ${pct(lint.max)}), lint CPU ${pct(cpu.median)} (${pct(cpu.min)} – ${pct(cpu.max)})`);
  console.log('wall = child spawn to exit (Node start-up, imports, plugin load included); lint = eslint.lintFiles() only; CPU = user+system of the child during lintFiles().');
  console.log(`reports by rule: ${JSON.stringify(last.byRule)}`);
  const ok = wall.median - 1 < GOAL_ADDED;
  console.log(`goal: < ${GOAL_ADDED * 100}% added wall time: ${ok ? 'met' : 'MISSED'}`);
  process.exit(ok ? 0 : 1);
}

/** One timed ESLint run in this process; prints one JSON line for pairedRounds. */
async function child(mode, list, pluginPath, cwd) {
  const { ESLint } = await import('eslint');
  const tsParser = await import('@typescript-eslint/parser');
  const files = readFileSync(list, 'utf8').split('\n').filter(Boolean);
  const config = [{ files: [FILES_GLOB], languageOptions: { parser: tsParser, sourceType: 'module' } }];
  if (mode === 'plugin') {
    const { default: plugin } = await import(pathToFileURL(pluginPath).href);
    config.push(plugin.configs.recommended);
  }
  const eslint = new ESLint({ cwd, overrideConfigFile: true, overrideConfig: config, ignore: false });
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const results = await eslint.lintFiles(files);
  const workMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const byRule = {};
  let problems = 0;
  let fatal = 0;
  for (const result of results) {
    for (const m of result.messages) {
      // A parse error, or a file ESLint refused (no rule id): the run would not be measuring linting.
      if (m.fatal || m.ruleId === null) fatal++;
      else {
        problems++;
        byRule[m.ruleId] = (byRule[m.ruleId] ?? 0) + 1;
      }
    }
  }
  console.log(JSON.stringify({ workMs, cpuMs, maxRssBytes: process.resourceUsage().maxRSS * 1024, problems, fatal, byRule, eslint: ESLint.version }));
}

function tsFilesUnder(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.ts')) out.push(join(entry.parentPath ?? entry.path, entry.name));
  }
  return out;
}
