// Paired timing: every round runs each command once, in turn, as a child process; ratios are taken
// within a round, then the median over rounds (the machine is shared, so absolute times drift).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RSS_PROBE = join(dirname(fileURLToPath(import.meta.url)), '../corpus/rss-probe.mjs');

/**
 * Runs `rounds` rounds of `commands` ([{ name, argv, cwd?, plain?, exitCodes? }]). A child prints one JSON
 * line on stdout (its own measurements, e.g. { workMs, maxRssBytes }), unless `plain`: then it is any
 * program run under Node (the CLI, the official codemod, `node -e 0`), and its peak RSS is taken by a
 * preloaded probe (bench/corpus/rss-probe.mjs). The parent adds `wallMs` (spawn to exit). A child must
 * exit with one of `exitCodes` (default [0]). Returns { [name]: Array<result per round> }.
 */
export function pairedRounds(commands, rounds, { env = process.env } = {}) {
  const results = Object.fromEntries(commands.map((c) => [c.name, []]));
  const probeDir = mkdtempSync(join(tmpdir(), 'mrtr-bench-rss-'));
  try {
    for (let round = 0; round < rounds; round++) {
      // alternate the order so neither command always runs on a warmer page cache
      const order = round % 2 === 0 ? commands : [...commands].reverse();
      for (const c of order) results[c.name].push(runOnce(c, env, join(probeDir, 'rss')));
    }
  } finally {
    rmSync(probeDir, { recursive: true, force: true });
  }
  return results;
}

function runOnce(c, env, rssFile) {
  const argv = c.plain ? ['--import', RSS_PROBE, ...c.argv] : c.argv;
  const childEnv = c.plain ? { ...env, MRTR_CORPUS_RSS_FILE: rssFile } : env;
  rmSync(rssFile, { force: true });
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, argv, { cwd: c.cwd, encoding: 'utf8', env: childEnv, maxBuffer: 256 * 1024 * 1024 });
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  if (!(c.exitCodes ?? [0]).includes(r.status)) throw new Error(`${c.name} failed (exit ${r.status}): ${(r.stderr || r.stdout || String(r.error)).slice(0, 2000)}`);
  if (c.plain) return { wallMs, exitCode: r.status, maxRssBytes: Number(readFileSync(rssFile, 'utf8')) * 1024 };
  const line = r.stdout.trim().split('\n').pop() || '{}';
  return { wallMs, ...JSON.parse(line) };
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Per-round ratio `field` of a over b, then median, min and max over rounds. */
export function ratio(a, b, field) {
  const rs = a.map((x, i) => x[field] / b[i][field]);
  return { median: median(rs), min: Math.min(...rs), max: Math.max(...rs) };
}

/** A plain-text table (first row is the header). */
export function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows.map((r) => r.map((c, i) => String(c).padEnd(widths[i])).join('  ')).join('\n');
}
