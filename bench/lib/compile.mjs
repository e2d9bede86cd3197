// Compiles TypeScript sources to runnable ESM with ts.transpileModule (no type check), keeping the
// folder layout, so benches time the code rather than a TS loader. JavaScript files in the list
// (src/typescript.cjs) are copied as they are. Returns the output paths.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { listSourceFiles } from './corpus.mjs';

// require, not an ESM import: Node would first scan the compiler's whole bundle for export names
const ts = createRequire(import.meta.url)('typescript');

export function transpileTree(root, files, outDir) {
  const out = [];
  for (const file of files) {
    if (/\.[cm]?js$/.test(file)) {
      const to = join(outDir, relative(root, file));
      mkdirSync(dirname(to), { recursive: true });
      copyFileSync(file, to);
      out.push(to);
      continue;
    }
    const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
      fileName: file,
    });
    const to = join(outDir, relative(root, file)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(to), { recursive: true });
    writeFileSync(to, outputText);
    out.push(to);
  }
  return out;
}

/**
 * The whole tool (src/ and transforms/) compiled into `outDir`, as the published dist has it: the CLI is
 * `<outDir>/src/cli/main.js`. The runtime template's helper sources are copied next to it (it reads them).
 */
export function compileTool(root, outDir) {
  rmSync(outDir, { recursive: true, force: true });
  const sources = [...listSourceFiles(join(root, 'src')), ...listSourceFiles(join(root, 'transforms'))].filter((f) => /\.(ts|cjs)$/.test(f));
  transpileTree(root, sources, outDir);
  for (const f of readdirSync(join(root, 'src/runtime')).filter((f) => f.startsWith('mrtr-'))) {
    copyFileSync(join(root, 'src/runtime', f), join(outDir, 'src/runtime', f));
  }
  return { dist: outDir, cli: join(outDir, 'src/cli/main.js') };
}

/** The runner and everything it loads, compiled under `dist` (the whole tool: see compileTool). */
export function compileRunner(root, dist) {
  return compileTool(root, dist).dist;
}
