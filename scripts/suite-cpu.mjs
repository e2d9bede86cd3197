// Sums the per-file CPU lines a suite run wrote (MRTR_SUITE_CPU_OUT, test/perf/cpu-per-file.ts) and prints
// the files by CPU, most first: `node scripts/suite-cpu.mjs <file> [top]`.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const [file, top = '25'] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/suite-cpu.mjs <MRTR_SUITE_CPU_OUT file> [top]');
  process.exit(2);
}
const rows = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
const cpu = (r) => r.self + r.children;
rows.sort((a, b) => cpu(b) - cpu(a));
const s = (n) => n.toFixed(1).padStart(7);
console.log(`${'cpu s'.padStart(7)} ${'worker'.padStart(7)} ${'spawned'.padStart(7)} ${'wall s'.padStart(7)}  file`);
for (const r of rows.slice(0, Number(top))) console.log(`${s(cpu(r))} ${s(r.self)} ${s(r.children)} ${s(r.wall)}  ${relative(process.cwd(), r.file)}`);
const total = rows.reduce((sum, r) => sum + cpu(r), 0);
console.log(`${s(total)} ${s(rows.reduce((a, r) => a + r.self, 0))} ${s(rows.reduce((a, r) => a + r.children, 0))}          ${rows.length} files in all`);
