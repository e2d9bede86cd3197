/**
 * A compiler host whose programs share parsed and bound source files (lib files, @types/node, the server
 * package): type-check tests build several programs, and parsing those files again for each was a large
 * share of their time. The analyzer's registry (src/analyzer/shared-source-files.ts) keys each file by the
 * options that change how it is parsed or bound, and by its text's hash, so a file rewritten between
 * programs is parsed anew. Unlike the analyzer, a test shares every file, its own scratch files included.
 */
import path from 'node:path';
import ts from '../../src/typescript.cjs';
import { acquireSharedSourceFile } from '../../src/analyzer/shared-source-files.js';

export function sharingCompilerHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  // as `tsc` parses: a TypeScript file's JSDoc only where a diagnostic may need it (`@see`, `@link`)
  host.jsDocParsingMode = ts.JSDocParsingMode.ParseForTypeErrors;
  host.getSourceFile = (fileName, languageVersionOrOptions) => {
    const text = host.readFile(fileName);
    return text === undefined ? undefined : acquireSharedSourceFile(fileName, text, options, languageVersionOrOptions);
  };
  return host;
}

/**
 * What `tsc --noEmit -p <projectDir>` reports, in this process: the project's tsconfig.json, its config
 * errors and every pre-emit diagnostic, one line each (`<file relative to the project>:<line> TS<code>:
 * <message>`), through a sharing host.
 */
export function typeCheckProject(projectDir: string): string[] {
  const { parsed, program } = projectProgram(projectDir, { noEmit: true });
  return diagnosticLines(projectDir, [...parsed.errors, ...ts.getPreEmitDiagnostics(program)]);
}

/**
 * What `tsc -p <projectDir>` does, in this process: the same diagnostics as typeCheckProject, and the
 * project's output written as tsc writes it (tsc emits even when there are errors, unless the config
 * says `noEmitOnError`); emit diagnostics are reported too. An empty list is a clean build.
 */
export function buildProject(projectDir: string): string[] {
  const { parsed, program } = projectProgram(projectDir, {});
  const before = [...parsed.errors, ...ts.getPreEmitDiagnostics(program)];
  const emitted = program.emit();
  return diagnosticLines(projectDir, [...before, ...emitted.diagnostics]);
}

function projectProgram(projectDir: string, overrides: ts.CompilerOptions): { parsed: ts.ParsedCommandLine; program: ts.Program } {
  const configPath = path.join(projectDir, 'tsconfig.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, overrides, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  });
  if (!parsed) throw new Error(`cannot read ${configPath}`);
  const host = sharingCompilerHost(parsed.options);
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, projectReferences: parsed.projectReferences, host });
  return { parsed, program };
}

function diagnosticLines(projectDir: string, diagnostics: readonly ts.Diagnostic[]): string[] {
  return diagnostics.map((d) => {
    const where = d.file && d.start !== undefined ? `${path.relative(projectDir, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1} ` : '';
    return `${where}TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}
