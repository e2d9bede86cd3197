// Pairing labels with what analyze reported (bench/corpus/lib/score.mjs).
// Run: node --test bench/corpus/test/
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matchAnalyze } from '../lib/score.mjs';

const label = (id, line, over = {}) => ({ id, path: 'src/a.ts', line, kind: 'elicitation', verdict: 'auto', ...over });
const reported = (line, over = {}) => ({ file: 'src/a.ts', line, kind: 'elicitation', portability: 'auto', reasons: [], ...over });

test('a report one line off still pairs; two lines off does not', () => {
  const { pairs, unlabelled } = matchAnalyze([label('a', 10), label('b', 20)], [reported(11), reported(22)]);
  assert.equal(pairs[0].site.line, 11);
  assert.equal(pairs[1].site, null);
  assert.deepEqual(unlabelled.map((s) => s.line), [22]);
});

test('neighbouring asks each get their own report (the exact line first)', () => {
  const { pairs } = matchAnalyze([label('a', 10), label('b', 11)], [reported(11), reported(10)]);
  assert.deepEqual(pairs.map((p) => p.site.line), [10, 11]);
});

test('the kind must match for a site, not for a look-alike', () => {
  const { pairs } = matchAnalyze([label('a', 10), label('z', 30, { verdict: 'not-a-site', kind: undefined })], [reported(10, { kind: 'sampling' }), reported(30, { kind: 'roots' })]);
  assert.equal(pairs[0].site, null);
  assert.equal(pairs[1].site.line, 30);
});

test('another file never pairs', () => {
  const { pairs } = matchAnalyze([label('a', 10)], [reported(10, { file: 'src/b.ts' })]);
  assert.equal(pairs[0].site, null);
});
