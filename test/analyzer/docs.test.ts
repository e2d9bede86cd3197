import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REASONS } from '../../src/analyzer/reasons.js';

const doc = readFileSync(resolve(import.meta.dirname, '../../docs/analyzer.md'), 'utf8');
const ROW = /^\| `([\w-]+)` \| (\w+) \| (analyzer|port) \| (.+) \|$/gm;

describe('docs/analyzer.md reason table', () => {
  const rows = [...doc.matchAll(ROW)].map((m) => ({ id: m[1], verdict: m[2], setBy: m[3], advice: m[4] }));

  it('lists every reason of src/analyzer/reasons.ts once, in the same order', () => {
    expect(rows.map((r) => r.id)).toEqual(Object.keys(REASONS));
  });

  it('gives each reason the verdict and advice reasons.ts gives it', () => {
    for (const r of rows) {
      const info = REASONS[r.id as keyof typeof REASONS];
      expect(r.verdict, r.id).toBe(info.portability);
      expect(r.advice, r.id).toBe(info.advice);
    }
  });
});
