import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyzer/index.js';
import { isReasonId, REASONS } from '../../src/analyzer/reasons.js';
import { LEGACY_METHODS, URL_ELICITATION_ERROR } from '../../src/vocabulary.js';
import { formatSite, readExpectations } from './expectations.js';

const root = resolve(import.meta.dirname, '../..');
const sitesDir = join(root, 'fixtures/sites');
// analyzer-only cases (flow, registrations, frameworks, test files): the ESLint and Babel parity tests read fixtures/sites only
const analyzerDir = join(root, 'fixtures/analyzer');
const SOURCE = /\.(ts|tsx|mts|js|mjs)$/;

/** Each fixture file alone, and each fixture folder as one project. */
const cases = [sitesDir, analyzerDir].flatMap((dir) =>
  readdirSync(dir)
    .sort()
    .map((name) => join(dir, name))
    .filter((p) => statSync(p).isDirectory() || SOURCE.test(p)),
);

function filesOf(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { recursive: true, encoding: 'utf8' })
    .map((f) => join(path, f))
    .filter((f) => SOURCE.test(f))
    .sort();
}

describe('fixtures/sites and fixtures/analyzer: analyzer agrees with each @expect-sites header', () => {
  it('has fixtures', () => {
    expect(cases.length).toBeGreaterThan(5);
  });

  for (const path of cases) {
    it(relative(join(root, 'fixtures'), path), () => {
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

  it('together cover every form, kind, handler kind, verdict and analyzer reason', () => {
    const seen = { forms: new Set<string>(), kinds: new Set<string>(), handlers: new Set<string>(), verdicts: new Set<string>(), reasons: new Set<string>() };
    for (const path of cases) {
      const { report } = analyze({ cwd: root, files: filesOf(path) });
      for (const s of report.sites) {
        seen.forms.add(s.form);
        seen.kinds.add(s.kind);
        seen.verdicts.add(s.portability);
        if (s.handler) seen.handlers.add(s.handler.kind);
        for (const r of s.reasons) seen.reasons.add(r);
      }
    }
    const forms = new Set<string>([...LEGACY_METHODS.map((m) => m.form), 'url-elicitation-error']);
    expect(URL_ELICITATION_ERROR).toBe('UrlElicitationRequiredError');
    expect([...forms].filter((f) => !seen.forms.has(f))).toEqual([]);
    expect([...seen.kinds].sort()).toEqual(['elicitation', 'roots', 'sampling']);
    expect([...seen.handlers].sort()).toEqual(['prompt', 'resource', 'tool']);
    expect([...seen.verdicts].sort()).toEqual(['auto', 'guarded', 'manual', 'unportable']);
    // the port's plan attaches these (to sites of shapes fixtures/sites does not hold, or to its markers)
    const portOnly = new Set(['dynamic-request', 'wrapped-handler', 'nested-callback', 'roots-retired', 'not-carryable', 'timer-across-ask', 'state-across-ask', 'narrowed-state', 'array-write-across-ask', 'not-async', 'handler-not-ported', 'recomputed-value', 'unread-private-member', 'unknown-handler-shape']);
    expect(Object.keys(REASONS).filter((id) => !portOnly.has(id) && !seen.reasons.has(id))).toEqual([]);
    expect([...seen.reasons].filter((id) => portOnly.has(id) && !['dynamic-request', 'wrapped-handler', 'nested-callback'].includes(id))).toEqual([]);
  });
});
