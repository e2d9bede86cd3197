/**
 * The compiled copy of a repository module (test/global-setup.ts compiles src/, transforms/ and test/
 * once per run), for tests that start it as a process: `spawn(process.execPath, [compiledScript(f)])`
 * starts in plain Node, without tsx's loader.
 */
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The compiled `.js` of a `.ts` file of this repository (absolute path, or relative to the repository). */
export function compiledScript(source: string): string {
  const root = inject('compiledRoot');
  if (!root) throw new Error('compiledScript: no compiled tree (test/global-setup.ts did not run: is it in vitest.config.ts globalSetup?)');
  const rel = relative(ROOT, resolve(ROOT, source));
  if (rel.startsWith('..')) throw new Error(`compiledScript: ${source} is outside the repository`);
  const script = join(root, rel.replace(/\.ts$/, '.js'));
  if (!existsSync(script)) throw new Error(`compiledScript: ${rel} was not compiled (only src/, transforms/ and test/ are)`);
  return script;
}
