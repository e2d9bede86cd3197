/**
 * The "analyzer and rule agree" proof. Every file under fixtures/sites/ declares its legacy sites in a
 * header line `// @expect-sites: <line>:<column> <kind>/<form>/<portability>[(reason)], ...` (or `none`).
 * `no-legacy-server-requests` must report exactly the sites that are not `guarded` (era-guarded arms are
 * allowed), and the analyzer must find the same sites.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import rule from '../../rules/no-legacy-server-requests.js';
import { analyze } from '../../src/analyzer/index.js';
import plugin from '../../rules/plugin.js';
import { MARKERS } from '../../src/vocabulary.js';
import { allowedOnPortedOutput } from './ported-outputs.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const sitesDir = join(root, 'fixtures', 'sites');
const files = fg.sync('**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}', { cwd: sitesDir, absolute: true }).sort();

interface ExpectedSite {
  position: string;
  portability: string;
}

describe('fixtures/sites: no-legacy-server-requests reports exactly the non-guarded sites', () => {
  it('has fixture files, each with an @expect-sites header', () => {
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(() => expectedSites(file), relative(root, file)).not.toThrow();
  });

  for (const file of files) {
    it(relative(sitesDir, file), () => {
      const expected = expectedSites(file).filter((s) => s.portability !== 'guarded').map((s) => s.position);
      expect(ruleReports(file)).toEqual(sortPositions(expected));
    });
  }
});

describe('fixtures/sites: the analyzer finds the sites the rule reports', () => {
  it('same non-guarded sites per file, and guarded ones only where the header says so', () => {
    const { report } = analyze({ cwd: sitesDir, files });
    for (const file of files) {
      const name = relative(sitesDir, file).split('\\').join('/');
      const sites = report.sites.filter((s) => s.file === name);
      const analyzerReported = sortPositions(sites.filter((s) => s.portability !== 'guarded').map((s) => `${s.line}:${s.column}`));
      expect(analyzerReported, `${name}: analyzer vs rule`).toEqual(ruleReports(file));
      const guarded = sortPositions(sites.filter((s) => s.portability === 'guarded').map((s) => `${s.line}:${s.column}`));
      const expectedGuarded = expectedSites(file).filter((s) => s.portability === 'guarded').map((s) => s.position);
      expect(guarded, `${name}: guarded sites`).toEqual(sortPositions(expectedGuarded));
    }
  });
});

// The other direction: what the transforms write is MRTR code the whole plugin accepts. Outputs that
// keep a legacy site behind a todo marker are the port saying "a human decides" and are left out.
const transformOutputs = fg
  .sync('fixtures/transforms/**/*.output.{ts,tsx,mts,cts,js,mjs}', { cwd: root, absolute: true })
  .filter((file) => !readFileSync(file, 'utf8').includes(MARKERS.todo))
  .sort();

describe('fixtures/transforms: ported outputs lint clean under configs.strict', () => {
  for (const file of transformOutputs) {
    it(relative(root, file), () => {
      const linter = new Linter({ configType: 'flat', cwd: root });
      const text = readFileSync(file, 'utf8');
      const messages = linter.verify(
        text,
        [
          { files: ['**/*.{ts,tsx,mts,cts,js,mjs}'], languageOptions: { parser: tsParser, ecmaVersion: 'latest', sourceType: 'module' } },
          plugin.configs.strict as Linter.Config,
        ],
        file,
      ).filter((m) => !allowedOnPortedOutput(text, m.ruleId));
      expect(messages.map((m) => `${m.line}:${m.column} ${m.ruleId ?? 'fatal'}: ${m.message}`)).toEqual([]);
    });
  }
});

/** Reads the header; throws on a missing or malformed one so a broken fixture cannot pass silently. */
function expectedSites(file: string): ExpectedSite[] {
  const header = /^\/\/ @expect-sites:(.*)$/m.exec(readFileSync(file, 'utf8'));
  if (!header) throw new Error(`${file}: no "// @expect-sites:" header`);
  const body = header[1].trim();
  if (body === 'none') return [];
  return body.split(',').map((entry) => {
    const match = /^(\d+):(\d+) [a-z]+\/[A-Za-z-]+\/([a-z]+)(\([a-z+-]+\))?$/.exec(entry.trim());
    if (!match) throw new Error(`${file}: malformed site "${entry.trim()}"`);
    return { position: `${match[1]}:${match[2]}`, portability: match[3] };
  });
}

function ruleReports(file: string): string[] {
  const linter = new Linter({ configType: 'flat', cwd: root });
  const messages = linter.verify(
    readFileSync(file, 'utf8'),
    [
      {
        files: ['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}'],
        languageOptions: { parser: tsParser, ecmaVersion: 'latest', sourceType: 'module' },
        plugins: { mrtr: { rules: { 'no-legacy-server-requests': rule as never } } },
        rules: { 'mrtr/no-legacy-server-requests': 'error' },
      },
    ],
    file,
  );
  const fatal = messages.find((m) => m.fatal);
  if (fatal) throw new Error(`${file}:${fatal.line}:${fatal.column} parse error: ${fatal.message}`);
  return sortPositions(messages.map((m) => `${m.line}:${m.column}`));
}

function sortPositions(positions: string[]): string[] {
  const key = (p: string): number => {
    const [line, column] = p.split(':').map(Number);
    return line * 100_000 + column;
  };
  return [...positions].sort((a, b) => key(a) - key(b));
}
