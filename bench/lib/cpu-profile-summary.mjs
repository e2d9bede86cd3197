#!/usr/bin/env node
/**
 * Where a run's time went: reads a V8 `.cpuprofile` (`node --cpu-prof`) and prints self time grouped by
 * what ran it: a package under node_modules (the TypeScript compiler, ts-morph, the official codemod,
 * Babel, recast, …), a module of this tool (src/<dir>, transforms), Node's module loader, the garbage
 * collector, and the rest. Then the functions with the most self time, and the tool's own modules by
 * total (inclusive) time, which is how a stage (analysis, v1 migration, transform) is charged with the
 * library calls it makes.
 *
 * Usage: node bench/lib/cpu-profile-summary.mjs <file.cpuprofile> [top N functions, default 15]
 */
import { readFileSync } from 'node:fs';

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: cpu-profile-summary.mjs <file.cpuprofile> [topN]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));
const top = Number(topArg ?? 15);

/** The group a call frame's self time is charged to. */
export function groupOf(frame) {
  const url = frame.url ?? '';
  if (frame.functionName === '(garbage collector)') return 'GC';
  if (frame.functionName === '(program)' || frame.functionName === '(idle)') return frame.functionName;
  if (url.startsWith('node:internal/modules') || url.includes('cjs-module-lexer')) return 'node: module loading';
  if (url.startsWith('node:')) return 'node: other';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const own = /\/(src\/[^/]+|transforms|rules)\//.exec(url);
  if (own) return `mrtr-port ${own[1]}`;
  return url === '' ? '(native)' : 'other';
}

const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const interval = new Map();
// self time per node from the samples and their time deltas (µs)
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  interval.set(id, (interval.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
const total = [...interval.values()].reduce((a, b) => a + b, 0);
const ms = (us) => (us / 1000).toFixed(0).padStart(7);
const pct = (us) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;

const byGroup = new Map();
const byFunction = new Map();
for (const [id, us] of interval) {
  const { callFrame } = nodes.get(id);
  const group = groupOf(callFrame);
  byGroup.set(group, (byGroup.get(group) ?? 0) + us);
  const key = `${callFrame.functionName || '(anonymous)'} ${callFrame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(src|transforms|rules)\//, '$1/')}:${callFrame.lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + us);
}

/** The tool's own module a frame belongs to (src/port/v1-migration.js), or undefined. */
function ownModule(frame) {
  return /\/((?:src|transforms|rules)\/.*)$/.exec(frame.url.replace(/^file:\/\//, '').replace(/.*\/node_modules\/.*/, ''))?.[1];
}

// inclusive time of the tool's own modules: a sample counts once for each own module on its stack
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const inclusive = new Map();
for (const [id, us] of interval) {
  const seen = new Set();
  for (let at = id; at !== undefined; at = parent.get(at)) {
    const group = ownModule(nodes.get(at).callFrame);
    if (group !== undefined && !seen.has(group)) {
      seen.add(group);
      inclusive.set(group, (inclusive.get(group) ?? 0) + us);
    }
  }
}

const sorted = (m) => [...m].sort((a, b) => b[1] - a[1]);
console.log(`${file}: ${(total / 1e6).toFixed(2)} s sampled`);
console.log('\nself time by group (ms, share)');
for (const [g, us] of sorted(byGroup)) if (us / total >= 0.005) console.log(`${ms(us)} ${pct(us)}  ${g}`);
console.log(`\ntop ${top} functions by self time`);
for (const [f, us] of sorted(byFunction).slice(0, top)) console.log(`${ms(us)} ${pct(us)}  ${f}`);
console.log('\nthe tool\'s modules by inclusive time (library calls they make included)');
for (const [g, us] of sorted(inclusive)) console.log(`${ms(us)} ${pct(us)}  ${g}`);
