// Paired timing: every round runs each command once, in turn, as a child process; ratios are taken
// within a round, then the median over rounds (the machine is shared, so absolute times drift).
import { spawnSync } from 'node:child_process';

/**
 * Runs `rounds` rounds of `commands` ([{ name, argv }]). Each child prints one JSON line on stdout
 * (its own measurements, e.g. { workMs, maxRssBytes }); the parent adds `wallMs` (spawn to exit).
 * Returns { [name]: Array<result per round> }.
 */
export function pairedRounds(commands, rounds, { env = process.env } = {}) {
  const results = Object.fromEntries(commands.map((c) => [c.name, []]));
  for (let round = 0; round < rounds; round++) {
    // alternate the order so neither command always runs on a warmer page cache
    const order = round % 2 === 0 ? commands : [...commands].reverse();
    for (const c of order) {
      const t0 = process.hrtime.bigint();
      const r = spawnSync(process.execPath, c.argv, { encoding: 'utf8', env, maxBuffer: 64 * 1024 * 1024 });
      const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
      if (r.status !== 0) throw new Error(`${c.name} failed (exit ${r.status}): ${r.stderr.slice(0, 2000)}`);
      const line = r.stdout.trim().split('\n').pop() ?? '{}';
      results[c.name].push({ wallMs, ...JSON.parse(line) });
    }
  }
  return results;
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
