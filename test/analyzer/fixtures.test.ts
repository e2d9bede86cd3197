import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyzer/index.js';
import { isReasonId } from '../../src/analyzer/reasons.js';
import { formatSite, readExpectations } from './expectations.js';

const root = resolve(import.meta.dirname, '../..');
const sitesDir = join(root, 'fixtures/sites');
const SOURCE = /\.(ts|tsx|mts|js|mjs)$/;

/** Each fixture file alone, and each fixture folder as one project. */
const cases = readdirSync(sitesDir)
  .sort()
  .map((name) => join(sitesDir, name))
  .filter((p) => statSync(p).isDirectory() || SOURCE.test(p));

function filesOf(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { recursive: true, encoding: 'utf8' })
    .map((f) => join(path, f))
    .filter((f) => SOURCE.test(f))
    .sort();
}

describe('fixtures/sites: analyzer agrees with each @expect-sites header', () => {
  it('has fixtures', () => {
    expect(cases.length).toBeGreaterThan(5);
  });

  for (const path of cases) {
    it(relative(sitesDir, path), () => {
      const files = filesOf(path);
      const { report } = analyze({ cwd: root, files });
      expect(report.files.skipped).toEqual([]);
      for (const file of files) {
        const rel = relative(root, file);
        const expected = readExpectations(readFileSync(file, 'utf8'), rel).map(formatSite);
        const actual = report.sites.filter((s) => s.file === rel).map(formatSite);
        expect(actual, rel).toEqual(expected);
      }
      for (const s of report.sites) for (const r of s.reasons) expect(isReasonId(r)).toBe(true);
    });
  }
});
