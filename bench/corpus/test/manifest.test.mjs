// The labels loader (bench/corpus/lib/manifest.mjs) refuses bad labels with the file and field named.
// Run: node --test bench/corpus/test/
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadManifest, ManifestError } from '../lib/manifest.mjs';

const COMMIT = 'a'.repeat(40);
const site = (over = {}) => ({ id: 's1', path: 'src/a.ts', line: 3, kind: 'elicitation', form: 'elicitInput', handler: null, verdict: 'auto', reason: 'why', ...over });

function withLabels(files, check) {
  const dir = mkdtempSync(join(tmpdir(), 'corpus-labels-'));
  try {
    for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), JSON.stringify(body));
    return check(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('the project labels load, with at least 15 corpus repositories and 80 corpus sites', () => {
  const repos = loadManifest(fileURLToPath(new URL('../labels/', import.meta.url)));
  const corpus = repos.filter((r) => !r.dev);
  assert.ok(corpus.length >= 15, `${corpus.length} corpus repositories`);
  const sites = corpus.flatMap((r) => r.sites).filter((s) => s.verdict !== 'not-a-site');
  assert.ok(sites.length >= 80, `${sites.length} corpus sites`);
  assert.ok(repos.some((r) => r.dev), 'dev trees are labelled too');
});

test('a valid file loads, defaults filled in', () => {
  withLabels({ 'o+r.json': { repo: 'o/r', commit: COMMIT, sites: [site()] } }, (dir) => {
    const [repo] = loadManifest(dir);
    assert.equal(repo.tree, 'o/r');
    assert.equal(repo.sites[0].test, false);
    assert.deepEqual(repo.include, []);
    assert.equal(repo.heldOut, false);
  });
});

test('heldOut: true is kept; a value other than a boolean is refused', () => {
  withLabels({ 'o+r.json': { repo: 'o/r', commit: COMMIT, heldOut: true, sites: [site()] } }, (dir) => {
    assert.equal(loadManifest(dir)[0].heldOut, true);
  });
  withLabels({ 'o+r.json': { repo: 'o/r', commit: COMMIT, heldOut: 'yes', sites: [site()] } }, (dir) => {
    assert.throws(() => loadManifest(dir), (e) => e instanceof ManifestError && /o\+r\.json: heldOut must be true or false/.test(e.message));
  });
});

test('the held-out labels load: at least 12 repositories, none a dev tree', () => {
  const held = loadManifest(fileURLToPath(new URL('../labels/', import.meta.url))).filter((r) => r.heldOut);
  assert.ok(held.length >= 12, `${held.length} held-out repositories`);
  assert.ok(held.every((r) => !r.dev));
});

for (const [what, body, message] of [
  ['a bad verdict', { repo: 'o/r', commit: COMMIT, sites: [site({ verdict: 'maybe' })] }, /verdict must be one of/],
  ['a missing reason', { repo: 'o/r', commit: COMMIT, sites: [site({ reason: '' })] }, /reason must say why/],
  ['a short commit', { repo: 'o/r', commit: 'abc', sites: [] }, /commit must be 40 hex digits/],
  ['a line of 0', { repo: 'o/r', commit: COMMIT, sites: [site({ line: 0 })] }, /line must be a 1-based/],
  ['a site without a kind', { repo: 'o/r', commit: COMMIT, sites: [site({ kind: undefined })] }, /kind must be one of/],
]) {
  test(`${what} is refused, naming the file`, () => {
    withLabels({ 'o+r.json': body }, (dir) => assert.throws(() => loadManifest(dir), (e) => e instanceof ManifestError && /o\+r\.json/.test(e.message) && message.test(e.message)));
  });
}

test('a look-alike needs no kind', () => {
  withLabels({ 'o+r.json': { repo: 'o/r', commit: COMMIT, sites: [site({ kind: undefined, form: undefined, verdict: 'not-a-site' })] } }, (dir) => {
    assert.equal(loadManifest(dir)[0].sites[0].verdict, 'not-a-site');
  });
});

test('a site id used twice across files is refused', () => {
  withLabels(
    { 'a+b.json': { repo: 'a/b', commit: COMMIT, sites: [site()] }, 'c+d.json': { repo: 'c/d', commit: COMMIT, sites: [site()] } },
    (dir) => assert.throws(() => loadManifest(dir), /site id s1 is used twice/),
  );
});

test('a second entry of one repository needs its own tree name', () => {
  const entry = { repo: 'o/r', commit: COMMIT, sites: [] };
  withLabels({ 'one.json': entry, 'two.json': entry }, (dir) => assert.throws(() => loadManifest(dir), /labelled twice/));
  withLabels({ 'one.json': entry, 'two.json': { ...entry, tree: 'o/r@v1' } }, (dir) => assert.equal(loadManifest(dir).length, 2));
});
