/**
 * One vocabulary, three ASTs: the analyzer (TypeScript AST), the transforms (Babel AST through
 * jscodeshift's parser) and the ESLint rule `no-legacy-server-requests` (TSESTree) must find the same
 * legacy sites on the shared fixtures `fixtures/sites/**`. Each builds a `CallShape` and asks
 * `matchLegacyCall` from `src/vocabulary.ts`. This file proves transforms = analyzer;
 * `test/rules/parity.test.ts` proves rule = analyzer (on non-guarded sites: the rule allows era-guarded
 * arms by design) on the same files, so the three agree.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import { analyze } from '../src/analyzer/index.js';
import { parseProgram, parserFor } from '../transforms/lib/ast.js';
import { findLegacyCalls } from '../transforms/lib/legacy-calls.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const sitesDir = join(root, 'fixtures', 'sites');
const files = fg.sync('**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}', { cwd: sitesDir, absolute: true }).sort();
const { report } = await analyze({ cwd: sitesDir, files });

const byPosition = (a: string, b: string) => {
  const [al, ac] = a.split(':').map(Number);
  const [bl, bc] = b.split(':').map(Number);
  return al - bl || ac - bc;
};

function analyzerSites(file: string): string[] {
  const name = relative(sitesDir, file).split('\\').join('/');
  return report.sites
    .filter((s) => s.file === name)
    .map((s) => `${s.line}:${s.column}`)
    .sort(byPosition);
}

function transformSites(file: string): string[] {
  const program = parseProgram(readFileSync(file, 'utf8'), parserFor(file));
  return findLegacyCalls(program)
    .map(({ node }) => {
      const start = (node.loc as { start: { line: number; column: number } }).start;
      return `${start.line}:${start.column + 1}`;
    })
    .sort(byPosition);
}

describe('the transforms find exactly the analyzer\'s sites on fixtures/sites', () => {
  it('the fixture set is not empty and holds sites', () => {
    expect(files.length).toBeGreaterThan(10);
    expect(report.sites.length).toBeGreaterThan(20);
  });

  for (const file of files) {
    it(relative(sitesDir, file), () => {
      expect(transformSites(file)).toEqual(analyzerSites(file));
    });
  }
});
