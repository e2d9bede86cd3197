// Compiles TypeScript sources to runnable ESM with ts.transpileModule (no type check), keeping the
// folder layout, so benches time the code rather than a TS loader. Returns the output paths.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

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
