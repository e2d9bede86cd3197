#!/usr/bin/env node
// Runs the analyzer over a checkout of someone else's code and prints what it found.
// Usage: npx tsx scripts/real-repos.mjs <path> [--json]
// Files: .ts/.tsx/.mts/.js/.mjs under <path>, minus node_modules/dist/build/.git and declaration files.
import { resolve } from 'node:path';
import { analyze } from '../src/analyzer/index.ts';
import { listSourceFiles } from '../bench/lib/corpus.mjs';

const args = process.argv.slice(2);
const root = resolve(args.find((a) => !a.startsWith('--')) ?? '.');
const files = listSourceFiles(root).filter((f) => !/\/(dist|build)\//.test(f));
const parsed = [];
const t0 = performance.now();
const { report, handlers } = analyze({ cwd: root, files, onParse: (f) => parsed.push(f) });
const ms = performance.now() - t0;
if (args.includes('--json')) {
  console.log(JSON.stringify({ report, handlers }, null, 2));
} else {
  console.log(`${root}: ${files.length} files, ${parsed.length} parsed, ${report.files.skipped.length} skipped, ${ms.toFixed(0)} ms`);
  console.log(JSON.stringify(report.summary));
  for (const s of report.sites) {
    const handler = s.handler ? `${s.handler.kind} ${s.handler.name ?? '?'} (${s.handler.file}:${s.handler.line})` : '-';
    const via = s.via.length ? ` via ${s.via.map((v) => v.function).join(' > ')}` : '';
    console.log(`${s.file}:${s.line}:${s.column} ${s.kind}/${s.form} ${s.sdk} ${s.portability}${s.reasons.length ? `(${s.reasons.join('+')})` : ''} ← ${handler}${via}`);
  }
  for (const k of report.files.skipped) console.log(`skipped ${k.file}: ${k.reason}`);
}
