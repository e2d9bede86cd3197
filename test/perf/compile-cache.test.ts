/**
 * src/compile-cache.cjs: a big CommonJS module compiles from V8's code cache on the next run, runs the
 * same with and without it (exports, require, __filename, a shebang), and a cache that is corrupt, off
 * or in a folder others can write is never used. Each run is a fresh `node` process, as the CLI is.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { MIN_BYTES } from '../../src/compile-cache.cjs';

const cacheModule = fileURLToPath(new URL('../../src/compile-cache.cjs', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'mrtr-compile-cache-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// a module over the size threshold: a shebang, a require of a sibling, its own file name, and padding
const big = join(work, 'lib', 'big.js');
mkdirSync(join(work, 'lib'));
writeFileSync(join(work, 'lib', 'small.js'), 'module.exports = { word: "small" };\n');
writeFileSync(
  big,
  '#!/usr/bin/env node\n' +
    "const small = require('./small.js');\n" +
    "exports.describe = () => `${small.word} ${require('node:path').basename(__filename)} ${typeof require.resolve}`;\n" +
    `exports.padding = ${JSON.stringify('x'.repeat(MIN_BYTES))}.length;\n`,
);
writeFileSync(join(work, 'preload.cjs'), `require(${JSON.stringify(cacheModule)}).installCompileCache();\n`);
const script = join(work, 'run.cjs');
writeFileSync(
  script,
  `const dir = require(${JSON.stringify(cacheModule)}).installCompileCache();\n` +
    `const m = require(${JSON.stringify(big)});\n` +
    'console.log(JSON.stringify({ dir, describe: m.describe(), padding: m.padding }));\n',
);

function run(cache: string): { dir: string | null; describe: string; padding: number } {
  const r = spawnSync(process.execPath, [script], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', MRTR_PORT_COMPILE_CACHE: cache } });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout);
}

const entries = (dir: string) => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
const expected = { describe: 'small big.js function', padding: MIN_BYTES };

describe('compile cache', () => {
  it('writes an entry on the first run and compiles from it on the next, with the same result', () => {
    const cache = join(work, 'cache-a');
    const first = run(cache);
    expect(first).toMatchObject(expected);
    const [entry, ...more] = entries(cache);
    expect(more).toEqual([]);
    expect(entry).toMatch(/\.bin$/);
    const written = statSync(entry!).mtimeMs;
    const second = run(cache);
    expect(second).toMatchObject(expected);
    // a cache that was used is not written again
    expect(entries(cache)).toEqual([entry]);
    expect(statSync(entry!).mtimeMs).toBe(written);
  });

  it('a corrupt entry is rejected, the run is the same, and the entry is written anew', () => {
    const cache = join(work, 'cache-b');
    run(cache);
    const [entry] = entries(cache);
    writeFileSync(entry!, 'not a code cache');
    expect(run(cache)).toMatchObject(expected);
    expect(readFileSync(entry!).length).toBeGreaterThan(100);
  });

  it('is not used when off, or in a folder that others can write', () => {
    expect(run('off')).toEqual({ dir: null, ...expected });
    const shared = join(work, 'cache-shared');
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    expect(run(shared)).toEqual({ dir: null, ...expected });
    expect(entries(shared)).toEqual([]);
  });

  it('as a --require preload (how test workers and the processes they spawn get it), require.main is the main module', () => {
    const cache = join(work, 'cache-preload');
    const bigMain = join(work, 'lib', 'big-main.js');
    writeFileSync(bigMain, readFileSync(big, 'utf8').replace('exports.describe', 'exports.main = () => require.main;\nexports.describe'));
    const main = join(work, 'main.cjs');
    writeFileSync(main, `const m = require(${JSON.stringify(bigMain)});\nconsole.log(JSON.stringify({ describe: m.describe(), main: m.main() === module }));\n`);
    for (let round = 0; round < 2; round++) {
      const r = spawnSync(process.execPath, ['--require', join(work, 'preload.cjs'), main], {
        encoding: 'utf8',
        env: { ...process.env, NODE_OPTIONS: '', MRTR_PORT_COMPILE_CACHE: cache },
      });
      expect(r.stderr).toBe('');
      expect(JSON.parse(r.stdout)).toEqual({ describe: 'small big-main.js function', main: true });
    }
    // the second round compiled from the entry the first wrote
    expect(entries(cache)).toHaveLength(1);
  });
});
