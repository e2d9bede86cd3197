// Runs the analyzer (compiled to JS by the bench) over a file list, in its own process.
// Prints { workMs, maxRssBytes, files, sites, parsed }.
// Usage: node bench/lib/analyze-child.mjs <compiled analyzer index.js> <file-list> <cwd>
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [entry, list, cwd] = process.argv.slice(2);
const { analyze } = await import(pathToFileURL(entry).href);
const files = readFileSync(list, 'utf8').split('\n').filter(Boolean);
let parsed = 0;
const t0 = performance.now();
const { report } = analyze({ cwd, files, onParse: () => parsed++ });
const workMs = performance.now() - t0;
console.log(JSON.stringify({ workMs, maxRssBytes: process.resourceUsage().maxRSS * 1024, files: files.length, sites: report.sites.length, parsed, summary: report.summary }));
