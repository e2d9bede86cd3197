/**
 * The TypeScript compiler, required on the first read of one of its exports: `--help`, `--version` and a
 * run with nothing to parse never load its 9 MB bundle (an ESM `import ts from 'typescript'` loads it,
 * and scans it for export names, at start-up). Types come from `import type * as TS from 'typescript'`.
 */
import { createRequire } from 'node:module';
import type * as TS from 'typescript';

let compiler: typeof TS | undefined;
const load = (): typeof TS => (compiler ??= createRequire(import.meta.url)('typescript') as typeof TS);

export const typescript: typeof TS = new Proxy({} as typeof TS, {
  get: (_target, key) => Reflect.get(load(), key),
  has: (_target, key) => Reflect.has(load(), key),
});
