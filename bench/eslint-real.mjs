#!/usr/bin/env node
// The ESLint plugin on real servers: `configs.strict` (which holds every `configs.recommended` rule)
// with @typescript-eslint/parser and no type information, over the legacy and the ported tree of each
// corpus repository that `npm run corpus -- --keep` left on disk. Prints per rule the findings on each
// side and a sample of each; compares `no-legacy-server-requests` on the legacy trees with the labels
// (recall, look-alikes reported, reports where nothing is labelled) and `no-unresolved-port-marker` on the
// ported trees with the port report's marker counts. Findings are to be read and judged by a person:
// this script only lines them up. Not part of CI (the trees are fetched snapshots).
//
// Usage: node bench/eslint-real.mjs [--scratch <dir>] [--repo <part>]... [--samples <n>] [--rule <name>]... [--json <file>]
//   --scratch  where the corpus run kept its trees (default: $MRTR_CORPUS_SCRATCH or /tmp/mrtr-corpus)
//   --repo     only the labelled repositories whose name contains this (repeatable)
//   --samples  findings shown per rule and side (default 5); --rule prints every finding of that rule
//   --json     every finding, per repository and side, for reading
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { transpileTree } from './lib/compile.mjs';
import { listSourceFiles } from './lib/corpus.mjs';
import { loadManifest } from './corpus/lib/manifest.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const LINE_SLACK = 1;
// Bundles and generated blobs are not code a person reads in an editor; they are counted, not linted.
const MAX_BYTES = 1_000_000;
const USAGE = 'usage: node bench/eslint-real.mjs [--scratch <dir>] [--repo <part>]... [--samples <n>] [--rule <name>]... [--json <file>]';

const opts = parseArgs(process.argv.slice(2));
const { ESLint } = await import('eslint');
const tsParser = await import('@typescript-eslint/parser');
const plugin = await loadPlugin();
const recommended = new Set(Object.keys(plugin.configs.recommended.rules).map((r) => r.replace(/^mrtr\//, '')));
const ruleNames = Object.keys(plugin.rules).sort();

const repos = loadManifest(join(here, 'corpus', 'labels')).filter(
  (r) => opts.repos.length === 0 || opts.repos.some((p) => r.tree.toLowerCase().includes(p.toLowerCase())),
);
const results = [];
const absent = [];
for (const repo of repos) {
  const base = join(opts.scratch, repo.tree.replace('/', '+'));
  if (!existsSync(join(base, 'orig')) || !existsSync(join(base, 'port'))) {
    absent.push(repo.tree);
    continue;
  }
  process.stderr.write(`${repo.tree}: linting\n`);
  const legacy = await lintTree(join(base, 'orig'));
  const ported = await lintTree(join(base, 'port'));
  const portReport = readJson(join(base, 'reports', 'port.json'));
  results.push({ repo, legacy, ported, recall: scoreLabels(repo, legacy), markers: compareMarkers(portReport, ported) });
}

print();
if (opts.json) {
  const sides = (side) => { const { linted, ...rest } = side; return rest; };
  writeFileSync(opts.json, JSON.stringify(results.map(({ repo, legacy, ported, ...r }) => ({ repo: repo.tree, legacy: sides(legacy), ported: sides(ported), ...r })), null, 1));
  console.log(`\nevery finding: ${opts.json}`);
}

function parseArgs(argv) {
  const o = { scratch: process.env.MRTR_CORPUS_SCRATCH ?? '/tmp/mrtr-corpus', repos: [], samples: 5, rules: [], json: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value\n${USAGE}`);
      return v;
    };
    if (a === '--scratch') o.scratch = value();
    else if (a === '--repo') o.repos.push(value());
    else if (a === '--samples') o.samples = Number(value());
    else if (a === '--rule') o.rules.push(value());
    else if (a === '--json') o.json = value();
    else throw new Error(`unknown argument ${a}\n${USAGE}`);
  }
  if (!Number.isInteger(o.samples) || o.samples < 0) throw new Error(`--samples must be a whole number\n${USAGE}`);
  return o;
}

/** The plugin compiled to plain JS (as bench/eslint.bench.mjs does), so no TS loader is needed. */
async function loadPlugin() {
  const out = join(here, '.work', 'eslint-real', 'dist');
  const sources = [...listSourceFiles(join(root, 'rules')), ...listSourceFiles(join(root, 'src'))].filter((f) => /\.(ts|cjs)$/.test(f));
  transpileTree(root, sources, out);
  return (await import(pathToFileURL(join(out, 'rules', 'plugin.js')).href)).default;
}

/**
 * Lints every source file of a tree that `configs.strict` applies to (test files are left out by the
 * config itself). A rule that throws on a file is caught per file and reported as a crash.
 */
async function lintTree(dir) {
  const config = [
    // The trees' own `eslint-disable` comments name rules this run does not load: not findings.
    { linterOptions: { reportUnusedDisableDirectives: 'off' } },
    // JSX is on for every JavaScript and TSX file, as a React-using project would configure it.
    { files: ['**/*.{ts,mts,cts}'], languageOptions: { parser: tsParser } },
    { files: ['**/*.{tsx,js,jsx,mjs,cjs}'], languageOptions: { parser: tsParser, parserOptions: { ecmaFeatures: { jsx: true } } } },
    plugin.configs.strict,
  ];
  const eslint = new ESLint({ cwd: dir, overrideConfigFile: true, overrideConfig: config, ignore: false });
  const all = listSourceFiles(dir);
  const large = all.filter((f) => statSync(f).size > MAX_BYTES).map((f) => relative(dir, f));
  const files = [];
  for (const f of all) {
    if (statSync(f).size > MAX_BYTES) continue;
    const rules = (await eslint.calculateConfigForFile(f))?.rules ?? {};
    if (Object.keys(rules).some((r) => r.startsWith('mrtr/'))) files.push(f);
  }
  const findings = [];
  const parseErrors = [];
  const crashes = [];
  let lines = 0;
  for (const file of files) {
    const rel = relative(dir, file);
    const text = readFileSync(file, 'utf8');
    lines += text.split('\n').length;
    let result;
    try {
      [result] = await eslint.lintFiles([file]);
    } catch (e) {
      crashes.push({ file: rel, error: String(e.message).split('\n').slice(0, 3).join(' ') });
      continue;
    }
    const source = text.split('\n');
    for (const m of result.messages) {
      if (m.fatal) parseErrors.push({ file: rel, line: m.line, message: m.message });
      // The trees' own `eslint-disable` comments name plugins this run does not load ("definition not found").
      else if (m.ruleId === null || !m.ruleId.startsWith('mrtr/')) continue;
      else findings.push({ rule: m.ruleId.replace(/^mrtr\//, ''), file: rel, line: m.line, message: m.message, code: (source[m.line - 1] ?? '').trim().slice(0, 160) });
    }
  }
  return { files: files.length, linted: files.map((f) => relative(dir, f)), lines, large, findings, parseErrors, crashes };
}

/** `no-legacy-server-requests` on the legacy tree against the labels of the files the config lints. */
function scoreLabels(repo, legacy) {
  const reported = legacy.findings.filter((f) => f.rule === 'no-legacy-server-requests');
  const used = new Set();
  const near = (f, l) => f.file === l.path && Math.abs(f.line - l.line) <= LINE_SLACK;
  const claim = (l) => {
    let i = reported.findIndex((f, k) => !used.has(k) && f.file === l.path && f.line === l.line);
    if (i < 0) i = reported.findIndex((f, k) => !used.has(k) && near(f, l));
    if (i >= 0) used.add(i);
    return i >= 0;
  };
  // Test files are out of `configs.strict`; a guarded arm is correct as written (the rule skips it).
  const sites = repo.sites.filter((s) => !s.test && s.verdict !== 'not-a-site' && s.verdict !== 'guarded');
  const guarded = repo.sites.filter((s) => !s.test && s.verdict === 'guarded');
  const lookAlikes = repo.sites.filter((s) => !s.test && s.verdict === 'not-a-site');
  const missed = sites.filter((s) => !claim(s)).map(labelText);
  const guardedReported = guarded.filter((s) => claim(s)).map(labelText);
  const lookAlikesReported = lookAlikes.filter((s) => claim(s)).map(labelText);
  const unlabelled = reported.filter((_, i) => !used.has(i));
  return { sites: sites.length, found: sites.length - missed.length, missed, guarded: guarded.length, guardedReported, lookAlikes: lookAlikes.length, lookAlikesReported, unlabelled };
}

function labelText(s) {
  return `${s.id} ${s.path}:${s.line} (${s.verdict}${s.form ? `, ${s.form}` : ''})`;
}

/** Markers the rule reports per linted file against the markers the port report says it wrote there (test files are not linted). */
function compareMarkers(portReport, ported) {
  const linted = new Set(ported.linted);
  const reportedBy = new Map();
  for (const f of ported.findings.filter((x) => x.rule === 'no-unresolved-port-marker')) reportedBy.set(f.file, (reportedBy.get(f.file) ?? 0) + 1);
  const written = new Map();
  for (const f of portReport?.files ?? []) {
    const n = (f.markers ?? 0) + (f.codemodMarkers ?? 0);
    if (n > 0 && linted.has(f.file)) written.set(f.file, n);
  }
  const mismatches = [];
  for (const file of new Set([...reportedBy.keys(), ...written.keys()])) {
    const r = reportedBy.get(file) ?? 0;
    const w = written.get(file) ?? 0;
    if (r !== w) mismatches.push({ file, reported: r, written: w });
  }
  const sum = (m) => [...m.values()].reduce((a, b) => a + b, 0);
  return { written: sum(written), reported: sum(reportedBy), mismatches, noReport: portReport === null };
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

function print() {
  const sum = (f) => results.reduce((n, r) => n + f(r), 0);
  console.log(`ESLint ${ESLint.version}, @typescript-eslint/parser (no type information), mrtr configs.strict (recommended rules marked R)`);
  console.log(`repositories linted: ${results.length}${absent.length ? `; no kept trees for ${absent.length} (run \`npm run corpus -- --keep\`): ${absent.join(', ')}` : ''}`);
  for (const side of ['legacy', 'ported']) {
    console.log(
      `${side}: ${sum((r) => r[side].files)} files, ${sum((r) => r[side].lines)} lines; over ${MAX_BYTES / 1e6} MB, not linted: ${sum((r) => r[side].large.length)}; ` +
        `parse errors: ${sum((r) => r[side].parseErrors.length)}; rule crashes: ${sum((r) => r[side].crashes.length)}`,
    );
  }

  console.log('\nfindings per rule');
  const rows = [['rule', 'config', 'legacy', 'ported']];
  for (const rule of ruleNames) {
    const count = (side) => sum((r) => r[side].findings.filter((f) => f.rule === rule).length);
    rows.push([rule, recommended.has(rule) ? 'R' : 'strict', String(count('legacy')), String(count('ported'))]);
  }
  console.log(table(rows));

  const found = sum((r) => r.recall.found);
  const sites = sum((r) => r.recall.sites);
  console.log(`\nno-legacy-server-requests on legacy trees: labelled sites found ${found}/${sites}; look-alikes reported ${sum((r) => r.recall.lookAlikesReported.length)}/${sum((r) => r.recall.lookAlikes)}; guarded arms reported ${sum((r) => r.recall.guardedReported.length)}/${sum((r) => r.recall.guarded)}; reports where nothing is labelled ${sum((r) => r.recall.unlabelled.length)}`);
  for (const r of results) {
    const { missed, lookAlikesReported, guardedReported, unlabelled } = r.recall;
    for (const m of missed) console.log(`  missed     ${r.repo.tree} ${m}`);
    for (const m of lookAlikesReported) console.log(`  look-alike ${r.repo.tree} ${m}`);
    for (const m of guardedReported) console.log(`  guarded    ${r.repo.tree} ${m}`);
    for (const u of unlabelled) console.log(`  unlabelled ${r.repo.tree} ${u.file}:${u.line}  ${u.code}`);
  }

  console.log(`\nno-unresolved-port-marker on ported trees: reported ${sum((r) => r.markers.reported)}, written by port ${sum((r) => r.markers.written)}`);
  for (const r of results) {
    if (r.markers.noReport) console.log(`  ${r.repo.tree}: no port report`);
    for (const m of r.markers.mismatches) console.log(`  ${r.repo.tree} ${m.file}: rule ${m.reported}, port report ${m.written}`);
  }

  for (const side of ['legacy', 'ported']) {
    const problems = results.flatMap((r) => [...r[side].parseErrors.map((p) => ({ ...p, kind: 'parse' })), ...r[side].crashes.map((c) => ({ ...c, kind: 'crash' }))].map((p) => ({ repo: r.repo.tree, ...p })));
    if (problems.length === 0) continue;
    console.log(`\n${side}: files ESLint could not lint`);
    for (const p of problems) console.log(`  ${p.kind} ${p.repo} ${p.file}${p.line ? `:${p.line}` : ''}  ${(p.message ?? p.error).slice(0, 200)}`);
  }

  for (const rule of ruleNames) {
    for (const side of ['legacy', 'ported']) {
      const all = results.flatMap((r) => r[side].findings.filter((f) => f.rule === rule).map((f) => ({ repo: r.repo.tree, ...f })));
      if (all.length === 0) continue;
      const shown = opts.rules.includes(rule) ? all : spread(all, opts.samples);
      console.log(`\n${rule} on ${side} trees: ${all.length} (${shown.length} shown)`);
      for (const f of shown) console.log(`  ${f.repo} ${f.file}:${f.line}\n      ${f.code}\n      → ${f.message.slice(0, 220)}`);
    }
  }
}

/** Up to n findings, one repository at a time, so the sample is not all from the noisiest tree. */
function spread(findings, n) {
  const byRepo = new Map();
  for (const f of findings) byRepo.set(f.repo, [...(byRepo.get(f.repo) ?? []), f]);
  const out = [];
  for (let k = 0; out.length < n && k < findings.length; k++) {
    for (const list of byRepo.values()) if (list[k] && out.length < n) out.push(list[k]);
  }
  return out;
}

function table(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ')).join('\n');
}
