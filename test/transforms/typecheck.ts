/**
 * Type-checks many files in ONE TypeScript program (strict, like a user's project), with
 * the continuation module the port imports (`./mrtr-continuation[-sdk][.js]`) resolved to the given
 * runtime file. One program for all fixtures keeps the test fast.
 */
import ts from 'typescript';

const CONTINUATION_SPECIFIER = /^\.\/mrtr-continuation(-sdk)?(\.js)?$/;

export function typeCheck(files: readonly string[], runtimeFile?: string): string[] {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    // Bundler resolution accepts both relative-import styles the port keeps (`./x.js` and `./x`)
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: ['node'],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    esModuleInterop: true,
  };
  const host = ts.createCompilerHost(options);
  host.resolveModuleNameLiterals = (literals, containingFile, redirected, opts, sourceFile) =>
    literals.map((literal) => {
      if (runtimeFile && CONTINUATION_SPECIFIER.test(literal.text)) {
        return { resolvedModule: { resolvedFileName: runtimeFile, extension: ts.Extension.Ts, isExternalLibraryImport: false } };
      }
      const mode = ts.getModeForUsageLocation(sourceFile, literal, opts);
      return ts.resolveModuleName(literal.text, containingFile, opts, host, undefined, redirected, mode);
    });
  const program = ts.createProgram({ rootNames: [...files, ...(runtimeFile ? [runtimeFile] : [])], options, host });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
    const file = d.file ? d.file.fileName : '';
    return `${file}${where ? `:${where.line + 1}:${where.character + 1}` : ''} TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}
