#!/usr/bin/env node
/**
 * port.bench: `port --dry-run` next to `analyze` alone, on the same repo, in paired rounds.
 *
 * Corpus (bench/.work/port-corpus, rebuilt when missing): real JS/TS sources copied from this repo's
 * node_modules (no `.d.ts`, nothing over 300 kB), a few thousand files with no MCP sites, plus 20
 * generated SDK v2 servers with legacy requests (elicitation, sampling, roots, one in a loop).
 *
 * Each round runs both, in alternating order, each in a fresh `node --import tsx` child that times
 * its own work (discover + analyze, or the whole dry-run port) after its modules are loaded; the
 * parent also records the child's wall time. Reported: per-round times, the median per-round ratio.
 * Goal: port --dry-run ≤ 1.5× analyze (only files with sites are re-printed).
 *
 * Usage: node bench/port.bench.mjs [--rounds N] [--files N]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, copyFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..');
const GOAL = 1.5;

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};

if (args[0] === '--child') {
  await child(args[1], args[2]);
} else {
  await parent(flag('--rounds', 5), flag('--files', 3000));
}

async function child(mode, cwd) {
  const started = performance.now();
  if (mode === 'analyze') {
    const { discoverFiles } = await import(pathToFileURL(join(repo, 'src/port/discover.ts')).href);
    const { analyze } = await import(pathToFileURL(join(repo, 'src/analyzer/index.ts')).href);
    const loaded = performance.now();
    const { files } = await discoverFiles({ cwd, paths: ['.'] });
    const { report } = await analyze({ cwd, files });
    const ms = performance.now() - loaded;
    print({ ms, loadMs: loaded - started, files: files.length, sites: report.sites.length });
  } else {
    const { runPort } = await import(pathToFileURL(join(repo, 'src/port/index.ts')).href);
    // the runner loads its stages lazily: load them before the clock starts, like the analyze child
    const { loadDefaultDependencies } = await import(pathToFileURL(join(repo, 'src/port/dependencies.ts')).href);
    const dependencies = await loadDefaultDependencies();
    const loaded = performance.now();
    const result = await runPort({ cwd, paths: ['.'], dryRun: true, dependencies });
    const ms = performance.now() - loaded;
    print({ ms, loadMs: loaded - started, files: result.summary.scanned, changed: result.summary.changed, failed: result.summary.failed });
  }
}

function print(data) {
  process.stdout.write(JSON.stringify({ ...data, rssMiB: Math.round(process.memoryUsage().rss / 2 ** 20) }) + '\n');
}

async function parent(rounds, wanted) {
  const corpus = join(repo, 'bench/.work/port-corpus');
  const size = buildCorpus(corpus, wanted);
  console.log(`corpus: ${size.files} files (${size.real} real from node_modules, ${size.generated} generated MCP servers), ${(size.bytes / 2 ** 20).toFixed(1)} MB`);
  const tsx = pathToFileURL(join(repo, 'node_modules/tsx/dist/loader.mjs')).href;
  const run = (mode) => {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, ['--import', tsx, fileURLToPath(import.meta.url), '--child', mode, corpus], { encoding: 'utf8', maxBuffer: 1 << 26 });
    const wall = performance.now() - t0;
    if (r.status !== 0) throw new Error(`${mode} child failed (${r.status}): ${r.stderr}`);
    return { ...JSON.parse(r.stdout.trim().split('\n').pop()), wall };
  };
  const rows = [];
  for (let i = 0; i < rounds; i++) {
    const order = i % 2 === 0 ? ['analyze', 'port'] : ['port', 'analyze'];
    const got = {};
    for (const mode of order) got[mode] = run(mode);
    rows.push({ round: i + 1, analyze: got.analyze, port: got.port, ratio: got.port.ms / got.analyze.ms, wallRatio: got.port.wall / got.analyze.wall });
  }
  console.log('round | analyze ms (wall) | port --dry-run ms (wall) | ratio (wall ratio) | RSS MiB analyze/port');
  for (const r of rows) {
    console.log(
      `${String(r.round).padStart(5)} | ${fmt(r.analyze.ms)} (${fmt(r.analyze.wall)}) | ${fmt(r.port.ms)} (${fmt(r.port.wall)}) | ` +
        `${r.ratio.toFixed(2)} (${r.wallRatio.toFixed(2)}) | ${r.analyze.rssMiB}/${r.port.rssMiB}`,
    );
  }
  const last = rows.at(-1);
  console.log(`sites found: ${last.analyze.sites}; files the port would change: ${last.port.changed}; failed: ${last.port.failed}`);
  const ratio = median(rows.map((r) => r.ratio));
  const wallRatio = median(rows.map((r) => r.wallRatio));
  console.log(`median ratio port --dry-run / analyze: ${ratio.toFixed(2)} (in-process work), ${wallRatio.toFixed(2)} (process wall)`);
  console.log(`goal ≤ ${GOAL}×: ${ratio <= GOAL ? 'met' : 'MISSED'}`);
}

function fmt(ms) {
  return ms.toFixed(0).padStart(6);
}
function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Builds the corpus once (kept in bench/.work, git-ignored); a stamp file records what was built. */
function buildCorpus(root, wanted) {
  const stamp = join(root, '.corpus.json');
  if (existsSync(stamp)) {
    const s = JSON.parse(readFileSync(stamp, 'utf8'));
    if (s.wanted === wanted && s.version === 1) return s;
    rmSync(root, { recursive: true, force: true });
  }
  const sources = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.isFile() && /\.(?:[cm]?ts|[cm]?js)$/.test(entry.name) && !/\.d\.[cm]?ts$/.test(entry.name) && !entry.name.endsWith('.min.js')) {
        const size = statSync(p).size;
        if (size > 0 && size <= 300_000) sources.push(p);
      }
    }
  };
  walk(join(repo, 'node_modules'));
  sources.sort();
  // spread the pick over every package instead of taking the first ones alphabetically
  const step = Math.max(1, Math.floor(sources.length / wanted));
  const picked = sources.filter((_, i) => i % step === 0).slice(0, wanted);
  let bytes = 0;
  for (const src of picked) {
    // node_modules/ would be skipped by discovery: keep the path below it
    const target = join(root, 'vendor', relative(join(repo, 'node_modules'), src).split(sep).join('/').replace(/node_modules\//g, 'nm/'));
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(src, target);
    bytes += statSync(src).size;
  }
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'port-corpus', private: true, type: 'module' }, null, 2) + '\n');
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }, null, 2) + '\n');
  const GENERATED = 20;
  mkdirSync(join(root, 'servers'), { recursive: true });
  for (let i = 0; i < GENERATED; i++) {
    const text = legacyServer(i);
    writeFileSync(join(root, 'servers', `server-${i}.ts`), text, { flag: 'w' });
    bytes += Buffer.byteLength(text);
  }
  const s = { version: 1, wanted, files: picked.length + GENERATED, real: picked.length, generated: GENERATED, bytes };
  writeFileSync(stamp, JSON.stringify(s));
  return s;
}

function legacyServer(i) {
  return `import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';

export function createServer${i}(): McpServer {
  const server = new McpServer({ name: 'bench-${i}', version: '1.0.0' });
  const items = new Map<string, string>();

  server.registerTool('delete_${i}', { description: 'Delete an item', inputSchema: z.object({ id: z.string() }) }, async ({ id }, ctx) => {
    const answer = await ctx.mcpReq.elicitInput({
      message: \`Delete \${id}?\`,
      requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
    });
    if (answer.action !== 'accept' || answer.content?.confirm !== true) return { content: [{ type: 'text', text: 'kept' }] };
    items.delete(id);
    return { content: [{ type: 'text', text: \`deleted \${id}\` }] };
  });

  server.registerTool('summarize_${i}', { inputSchema: z.object({ id: z.string() }) }, async ({ id }, ctx) => {
    const result = await ctx.mcpReq.requestSampling({
      messages: [{ role: 'user', content: { type: 'text', text: items.get(id) ?? '' } }],
      maxTokens: 100,
    });
    const block = Array.isArray(result.content) ? result.content[0] : result.content;
    return { content: [{ type: 'text', text: block?.type === 'text' ? block.text : '' }] };
  });

  server.registerTool('tag_all_${i}', { inputSchema: z.object({}) }, async (_args, ctx) => {
    for (const id of items.keys()) {
      const answer = await ctx.mcpReq.elicitInput({ message: \`Tag \${id}?\`, requestedSchema: { type: 'object', properties: { tag: { type: 'string' } } } });
      if (answer.action === 'accept') items.set(id, String(answer.content?.tag));
    }
    return { content: [{ type: 'text', text: 'done' }] };
  });

  server.registerTool('roots_${i}', { inputSchema: z.object({}) }, async () => {
    const { roots } = await server.server.listRoots();
    return { content: [{ type: 'text', text: roots.map((r) => r.uri).join(', ') }] };
  });

  return server;
}
`;
}
