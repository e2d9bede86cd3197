/**
 * Type-checks many files in ONE TypeScript program (strict, like a user's project), with the
 * continuation modules the port imports (`./mrtr-continuation[.js]`, `./mrtr-continuation-sdk[.js]`)
 * resolved to the runtime files. One program for all fixtures keeps the test fast.
 */
import ts from '../../src/typescript.cjs';
import { sharingCompilerHost } from '../perf/shared-source-files.js';

const CONTINUATION_SPECIFIER = /^\.\/mrtr-continuation(-sdk)?(\.js)?$/;
const FLOW_SPECIFIER = /^\.\/mrtr-flow(\.[cm]?js)?$/;

export interface RuntimeFiles {
  aead: string;
  sdk: string;
  /** The flow runtime (`resumable`, `once`, `elicit`, …) the port engine's output imports. */
  flow?: string;
}

export function typeCheck(files: readonly string[], runtime?: RuntimeFiles): string[] {
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
  const host = sharingCompilerHost(options);
  host.resolveModuleNameLiterals = (literals, containingFile, redirected, opts, sourceFile) =>
    literals.map((literal) => {
      if (runtime?.flow && FLOW_SPECIFIER.test(literal.text)) {
        return { resolvedModule: { resolvedFileName: runtime.flow, extension: ts.Extension.Ts, isExternalLibraryImport: false } };
      }
      const continuation = CONTINUATION_SPECIFIER.exec(literal.text);
      if (runtime && continuation) {
        const resolvedFileName = continuation[1] ? runtime.sdk : runtime.aead;
        return { resolvedModule: { resolvedFileName, extension: ts.Extension.Ts, isExternalLibraryImport: false } };
      }
      const mode = ts.getModeForUsageLocation(sourceFile, literal, opts);
      return ts.resolveModuleName(literal.text, containingFile, opts, host, undefined, redirected, mode);
    });
  const program = ts.createProgram({ rootNames: [...files, ...(runtime ? [runtime.aead, runtime.sdk, ...(runtime.flow ? [runtime.flow] : [])] : [])], options, host });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
    const file = d.file ? d.file.fileName : '';
    return `${file}${where ? `:${where.line + 1}:${where.character + 1}` : ''} TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

/** Syntax errors of JavaScript files, including TypeScript-only syntax left in them (TS8010 and kin). */
export function javaScriptSyntaxErrors(files: readonly string[]): string[] {
  const options: ts.CompilerOptions = { allowJs: true, checkJs: false, noEmit: true, module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 };
  const program = ts.createProgram({ rootNames: [...files], options });
  return files.flatMap((file) =>
    program.getSyntacticDiagnostics(program.getSourceFile(file)).map((d) => `${file} TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`),
  );
}
