/**
 * One program over ported servers under `strict`, `noUnusedLocals` and `noUnusedParameters` (as many
 * servers build: a name the port leaves unread breaks them), against the installed SDK packages: each
 * diagnostic as `<file relative to dir>:<line> <message>`.
 */
import ts from '../../src/typescript.cjs';

export function strictDiagnostics(dir: string, roots: readonly string[]): string[] {
  const program = ts.createProgram(roots, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: ['node'],
    strict: true,
    noUnusedLocals: true,
    noUnusedParameters: true,
    skipLibCheck: true,
    noEmit: true,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${d.file.fileName.slice(dir.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : '';
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}
