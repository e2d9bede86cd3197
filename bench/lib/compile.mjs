// Compiles TypeScript sources to runnable ESM with ts.transpileModule (no type check), keeping the
// folder layout, so benches time the code rather than a TS loader. Returns the output paths.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { listSourceFiles } from './corpus.mjs';

export function transpileTree(root, files, outDir) {
  const out = [];
  for (const file of files) {
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

/** The runner and everything it loads (src, transforms), compiled to JS under `dist` (same layout, so relative imports hold). */
export function compileRunner(root, dist) {
  rmSync(dist, { recursive: true, force: true });
  const ts = (dir) => listSourceFiles(join(root, dir)).filter((f) => f.endsWith('.ts'));
  transpileTree(root, [join(root, 'src/vocabulary.ts'), ...ts('src/analyzer'), ...ts('src/port'), ...ts('src/runtime'), ...ts('transforms')], dist);
  // the runtime template reads the helper sources next to it
  for (const f of readdirSync(join(root, 'src/runtime')).filter((f) => f.startsWith('mrtr-continuation'))) {
    copyFileSync(join(root, 'src/runtime', f), join(dist, 'src/runtime', f));
  }
  return dist;
}
