/**
 * One TypeScript module to plain JavaScript, as tsx compiles it when it loads a file (tsx is esbuild's
 * transform behind a loader): esbuild, ES module output, with the options of tsconfig.json that change
 * what a module compiles to. Used for the tree test/global-setup.ts compiles and for the ported sets
 * the e2e harness writes (test/e2e/harness.ts), so spawned processes run without tsx.
 */
import { readFileSync } from 'node:fs';
import { transformSync, type TsconfigRaw } from 'esbuild';

const TSCONFIG = new URL('../tsconfig.json', import.meta.url);
const OUTPUT_OPTIONS = ['target', 'verbatimModuleSyntax', 'useDefineForClassFields', 'experimentalDecorators'] as const;
let tsconfigRaw: TsconfigRaw | undefined;

function outputOptions(): TsconfigRaw {
  if (tsconfigRaw) return tsconfigRaw;
  const { compilerOptions } = JSON.parse(readFileSync(TSCONFIG, 'utf8')) as { compilerOptions: Record<string, unknown> };
  tsconfigRaw = { compilerOptions: Object.fromEntries(OUTPUT_OPTIONS.filter((k) => k in compilerOptions).map((k) => [k, compilerOptions[k]])) };
  return tsconfigRaw;
}

/** The module's JavaScript; `fileName` names it in errors. */
export function compileTypeScript(source: string, fileName: string): string {
  return transformSync(source, { loader: 'ts', format: 'esm', target: 'node20', sourcefile: fileName, tsconfigRaw: outputOptions() }).code;
}
