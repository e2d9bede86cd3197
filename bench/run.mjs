#!/usr/bin/env node
// Runs every bench/*.bench.mjs in turn (or those named on the command line) and prints their reports.
// Each bench is a standalone script; see its header for what it measures and its goal.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const benches = readdirSync(here)
  .filter((f) => f.endsWith('.bench.mjs'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .sort();
let failed = 0;
for (const bench of benches) {
  console.log(`\n=== ${bench} ===`);
  const r = spawnSync(process.execPath, [join(here, bench)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
