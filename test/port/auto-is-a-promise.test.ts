/**
 * "auto is a promise": over every fixture the repository holds (transform fixtures, fixtures/sites,
 * fixtures/projects, the e2e servers), each `auto` site the analyzer reports is an ask of its file's
 * plan, and the port of the file leaves no `auto` site behind: the analysis of the ported texts finds
 * none, and every other site is still there (marked, not lost). SDK v1 files are left out: the port
 * migrates them first (runner-real.test.ts covers that path).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyzer/index.js';
import { planEdits } from '../../src/analyzer/plan/model.js';
import { checkAutoSitesPlanned } from '../../src/port/coverage.js';
import { applyPortSource, defaultContinuationImport } from '../../transforms/index.js';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => SOURCE.test(f) && !f.endsWith('.d.ts') && !f.includes('node_modules'))
    .map((f) => join(dir, f))
    .sort();
}

/** One analysis per case: a folder is one project, a file stands alone. */
function cases(): { name: string; files: string[] }[] {
  const out: { name: string; files: string[] }[] = [];
  const sites = join(root, 'fixtures/sites');
  for (const n of readdirSync(sites).sort()) {
    const p = join(sites, n);
    if (statSync(p).isDirectory()) out.push({ name: `sites/${n}`, files: sourcesUnder(p) });
    else if (SOURCE.test(n)) out.push({ name: `sites/${n}`, files: [p] });
  }
  const projects = join(root, 'fixtures/projects');
  for (const n of readdirSync(projects).sort()) {
    if (statSync(join(projects, n)).isDirectory()) out.push({ name: `projects/${n}`, files: sourcesUnder(join(projects, n)) });
  }
  for (const f of sourcesUnder(join(root, 'fixtures/transforms')).filter((f) => /\.input\./.test(f))) out.push({ name: relative(join(root, 'fixtures'), f), files: [f] });
  for (const f of sourcesUnder(join(root, 'fixtures/e2e')).filter((f) => f.endsWith('.input.ts'))) out.push({ name: relative(join(root, 'fixtures'), f), files: [f] });
  return out;
}

const format = (s: { file: string; line: number; column: number }): string => `${s.file}:${s.line}:${s.column}`;

describe('auto is a promise: every auto site of the fixtures is ported', () => {
  const all = cases();

  it('covers the fixture corpus', () => expect(all.length).toBeGreaterThan(80));

  for (const c of all) {
    it(c.name, () => {
      const texts = new Map(c.files.map((f) => [f, readFileSync(f, 'utf8')]));
      const before = analyze({ cwd: root, files: c.files, texts, plan: { roots: 'config' } });
      const v1 = new Set(before.report.sites.filter((s) => s.sdk === 'v1').map((s) => s.file));
      const ported = new Map(texts);
      for (const file of c.files) {
        const rel = relative(root, file);
        const sites = before.report.sites.filter((s) => s.file === rel);
        const plan = before.plans.find((p) => p.file === rel) ?? null;
        // as the port does: a file is transformed when it has an auto site or its plan edits it (a handler wrapping a helper's ask)
        if (v1.has(rel) || (!sites.some((s) => s.portability === 'auto') && planEdits(plan ?? undefined) === 0)) continue;
        expect(() => checkAutoSitesPlanned(texts.get(file)!, sites, plan), rel).not.toThrow();
        const source = texts.get(file)!;
        ported.set(file, applyPortSource({ source, path: file, plan, options: { codec: 'aead', roots: 'config', continuationImport: defaultContinuationImport(source) } }));
      }
      const after = analyze({ cwd: root, files: c.files, texts: ported, plan: { roots: 'config' } });
      const kept = (r: typeof before) => r.report.sites.filter((s) => !v1.has(s.file));
      expect(kept(after).filter((s) => s.portability === 'auto').map(format)).toEqual([]);
      // nothing but the auto sites went away
      const expectedLeft = kept(before).filter((s) => s.portability !== 'auto').length;
      expect(kept(after).length).toBe(expectedLeft);
    });
  }
});
