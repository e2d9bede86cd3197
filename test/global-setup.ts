/**
 * Vitest global setup: the tool and the test-side scripts that tests run as processes (the port child
 * of runner-kill, the e2e replica, the Redis claim replica), compiled once to plain JavaScript, so a
 * spawned process starts with `node script.js` instead of `node --import tsx script.ts`. tsx's loader
 * hooks cost a spawned process 0.3–2 s of CPU (every module it loads, the SDK's and zod's included, goes
 * through them); the suite spawns some fifty. `test/compiled.ts` maps a source path to its compiled file.
 *
 * Compiled file by file as tsx compiles them (test/compile-typescript.ts). The tree is keyed by the hash
 * of what it is compiled from: a rerun with unchanged sources reuses it. It lives under the repository's
 * `.tmp/` so packages resolve from its node_modules.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { compileTypeScript } from './compile-typescript.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder holding the compiled tree (src/, transforms/, test/ as in the repository, .ts → .js). */
    compiledRoot: string;
  }
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** What is compiled: the tool, and every test module that is not a test file itself. */
const FOLDERS = ['src', 'transforms', 'test'];
/** Compiled trees older than this are left by earlier runs (a current run's tree is never this old). */
const STALE_MS = 6 * 60 * 60 * 1000;

function compiledSources(): string[] {
  return FOLDERS.flatMap((folder) =>
    readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.(ts|cjs|mjs)$/.test(f) && !/\.(test|d)\.ts$/.test(f) && !/\.d\.cts$/.test(f))
      .map((f) => join(ROOT, folder, f)),
  ).sort();
}

function compileTree(sources: readonly string[], outDir: string): void {
  for (const file of sources) {
    const to = join(outDir, relative(ROOT, file)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(to), { recursive: true });
    if (!file.endsWith('.ts')) {
      writeFileSync(to, readFileSync(file));
      continue;
    }
    writeFileSync(to, compileTypeScript(readFileSync(file, 'utf8'), file));
  }
}

/** Compiles into `.tmp/compiled-<hash>/` unless it is there already; returns that folder. */
export function compileForSpawn(): string {
  const sources = compiledSources();
  const hash = createHash('sha1');
  for (const file of sources) hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  const base = join(ROOT, '.tmp');
  const dir = join(base, `compiled-${hash.digest('hex').slice(0, 16)}`);
  if (existsSync(join(dir, '.complete'))) return dir;
  mkdirSync(base, { recursive: true });
  const staging = `${dir}.${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  compileTree(sources, staging);
  // the runtime template reads the helper sources next to its own module (src/runtime/template.ts)
  for (const f of readdirSync(join(ROOT, 'src/runtime')).filter((f) => f.startsWith('mrtr-'))) {
    writeFileSync(join(staging, 'src/runtime', f), readFileSync(join(ROOT, 'src/runtime', f)));
  }
  writeFileSync(join(staging, '.complete'), '');
  // another run may have finished the same tree meanwhile: either copy is the same
  if (existsSync(dir)) rmSync(staging, { recursive: true, force: true });
  else renameSync(staging, dir);
  removeStaleTrees(base, dir);
  return dir;
}

function removeStaleTrees(base: string, keep: string): void {
  for (const name of readdirSync(base)) {
    const path = join(base, name);
    if (!name.startsWith('compiled-') || path === keep) continue;
    if (Date.now() - statSync(path).mtimeMs > STALE_MS) rmSync(path, { recursive: true, force: true });
  }
}

export default function setup(project: TestProject): void {
  project.provide('compiledRoot', compileForSpawn());
}
