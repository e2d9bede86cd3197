// The parse floor: read and parse every file of a list with TypeScript's bare parser
// (ts.createSourceFile, parent pointers on, no type check). Prints { workMs, maxRssBytes, files }.
// Usage: node bench/lib/parse-floor.mjs <file-list>
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// loaded as perf-baselines.md's parse-ts.mjs does: require, no ESM scan of the bundle for export names
const ts = createRequire(import.meta.url)('typescript');

const files = readFileSync(process.argv[2], 'utf8').split('\n').filter(Boolean);
const t0 = performance.now();
let nodes = 0;
for (const file of files) {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  nodes += sf.statements.length;
}
const workMs = performance.now() - t0;
console.log(JSON.stringify({ workMs, maxRssBytes: process.resourceUsage().maxRSS * 1024, files: files.length, nodes }));
