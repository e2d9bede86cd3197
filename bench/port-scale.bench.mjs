#!/usr/bin/env node
/**
 * port-scale.bench: does `port` take time linear in the size of one file? (Issue 10: template-literal-heavy
 * files took 6 / 17 / 46 s for 10k / 20k / 40k one-line template functions, from Babel's token
 * conversion.) One generated TypeScript module per size, 0.25 / 1 / 4 MiB: an MCP tool with one
 * `auto` elicitation (so the file is parsed, transformed, re-parsed and diffed) followed by one-line
 * template-literal functions up to the size.
 *
 * Each round runs `runPort({ dryRun: true })` once per size, each in a fresh child (bench/lib
 * `pairedRounds`, alternating order), compiled to plain JS (bench/lib `compileRunner`). Per round the
 * ratios 1 MiB / 0.25 MiB and 4 MiB / 1 MiB of CPU time (the figure the shared machine disturbs least)
 * and of work (wall time inside the child once its modules are loaded); then the median over rounds.
 * Goal: 4 MiB / 1 MiB ≤ 5 (linear would be 4).
 *
 * Usage: npm run bench -- port-scale   (or: node bench/port-scale.bench.mjs); rounds: BENCH_ROUNDS (default 3).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileRunner } from './lib/compile.mjs';
import { loadTimedRunner } from './lib/timed-runner.mjs';
import { median, pairedRounds, ratio, table } from './lib/paired.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const work = join(here, '.work', 'port-scale');
const SIZES_MIB = [0.25, 1, 4];
const GOAL = 5;

if (process.argv[2] === '--child') await child(process.argv[3], process.argv[4]);
else parent(Number(process.env.BENCH_ROUNDS ?? 3));

/** One dry run in its own process: prints { workMs, cpuMs, analyzeMs, transformMs, changed } as one JSON line. */
async function child(dist, cwd) {
  const { runPort, dependencies, stageMs } = await loadTimedRunner(dist);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await runPort({ cwd, paths: ['.'], dryRun: true, maxFileSize: 64 * 1024 * 1024, dependencies });
  const workMs = performance.now() - t0;
  const { user, system } = process.cpuUsage(c0);
  if (result.summary.changed !== 1) throw new Error(`expected the one file to be ported: ${JSON.stringify(result.files.map((f) => f.error ?? f.reason))}`);
  console.log(JSON.stringify({ workMs, cpuMs: (user + system) / 1000, analyzeMs: stageMs.analyze, transformMs: stageMs.transform, maxRssBytes: process.resourceUsage().maxRSS * 1024 }));
}

function parent(rounds) {
  const dist = compileRunner(root, join(work, 'dist'));
  const commands = SIZES_MIB.map((mib) => {
    const dir = join(work, `${mib}MiB`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{ "name": "scale", "type": "module" }\n');
    writeFileSync(join(dir, 'big.ts'), templateHeavyModule(mib * 1024 * 1024));
    return { name: `${mib}`, argv: [fileURLToPath(import.meta.url), '--child', dist, dir] };
  });
  const load0 = loadavg()[0];
  const r = pairedRounds(commands, rounds);
  const load1 = loadavg()[0];
  const s = (xs, field) => (median(xs.map((x) => x[field])) / 1000).toFixed(2);
  const rows = [['size', 'cpu s', 'work s', 'analyze / transform s', 'RSS MiB', 'cpu ratio to previous (min–max)', 'work ratio to previous']];
  SIZES_MIB.forEach((mib, i) => {
    const xs = r[`${mib}`];
    const prev = i > 0 ? r[`${SIZES_MIB[i - 1]}`] : undefined;
    const cpu = prev && ratio(xs, prev, 'cpuMs');
    rows.push([
      `${mib} MiB`,
      s(xs, 'cpuMs'),
      s(xs, 'workMs'),
      `${s(xs, 'analyzeMs')} / ${s(xs, 'transformMs')}`,
      (median(xs.map((x) => x.maxRssBytes)) / 2 ** 20).toFixed(0),
      cpu ? `${cpu.median.toFixed(2)} (${cpu.min.toFixed(2)}–${cpu.max.toFixed(2)})` : '—',
      prev ? ratio(xs, prev, 'workMs').median.toFixed(2) : '—',
    ]);
  });
  const last = ratio(r['4'], r['1'], 'cpuMs').median;
  console.log(`port --dry-run on one template-heavy file, ${rounds} rounds, median; node ${process.version}; 1-min load ${load0.toFixed(1)}–${load1.toFixed(1)}`);
  console.log(table(rows));
  console.log(`4 MiB / 1 MiB cpu ratio ${last.toFixed(2)}: goal ≤ ${GOAL} ${last <= GOAL ? 'met' : 'MISSED'} (linear = 4)`);
}

/** An MCP tool module with one portable ask, then one-line template-literal functions up to `bytes`. */
function templateHeavyModule(bytes) {
  const head = [
    `import { McpServer } from '@modelcontextprotocol/server';`,
    `export const server = new McpServer({ name: 'scale', version: '1.0.0' });`,
    `server.registerTool('confirm', { description: 'asks once' }, async (_args, ctx) => {`,
    `  const answer = await ctx.mcpReq.elicitInput({ message: 'Proceed?', requestedSchema: { type: 'object', properties: {} } });`,
    `  return { content: [{ type: 'text', text: String(answer.action) }] };`,
    `});`,
    ``,
  ].join('\n');
  const parts = [head];
  let size = head.length;
  for (let i = 0; size < bytes; i++) {
    const line = `export const row${i} = (a: string, n: number) => \`row ${i}: \${a} of \${n} (\${a.length})\`;\n`;
    parts.push(line);
    size += line.length;
  }
  return parts.join('');
}
