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

export interface TypeCheckOptions {
  /**
   * `noUnusedLocals` and `noUnusedParameters` on, as many servers build: a name the port leaves
   * unread (a handler's `ctx`, an import only the legacy request used) fails the check.
   */
  unused?: boolean;
}

export function typeCheck(files: readonly string[], runtime?: RuntimeFiles, check: TypeCheckOptions = {}): string[] {
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
    ...(check.unused ? { noUnusedLocals: true, noUnusedParameters: true } : {}),
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
  return ts.getPreEmitDiagnostics(program).filter((d) => !markedPrivateMember(d)).map((d) => {
    const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
    const file = d.file ? d.file.fileName : '';
    return `${file}${where ? `:${where.line + 1}:${where.character + 1}` : ''} TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

/**
 * TS6133/TS6138 (a private field / parameter property unread) on a member the port marked `unread-private-member` on the line above: the port keeps
 * the member on purpose (docs/engine.md, "Names the port leaves unread") and the marker asks the user
 * to delete it; any other diagnostic, and this one without its marker, still fails.
 */
function markedPrivateMember(d: ts.Diagnostic): boolean {
  if ((d.code !== 6133 && d.code !== 6138) || !d.file || d.start === undefined) return false;
  const line = d.file.getLineAndCharacterOfPosition(d.start).line;
  if (line === 0) return false;
  const above = d.file.text.slice(d.file.getLineStarts()[line - 1], d.file.getLineStarts()[line]);
  return /@mrtr-port-todo\(unread-private-member\)/.test(above);
}

/** tsc's "declared but never read" family: what `noUnusedLocals` / `noUnusedParameters` report. */
const UNUSED_CODES = new Set([6133, 6138, 6192, 6196, 6198, 6199, 6205]);

/**
 * Names JavaScript files declare and never read, as tsc reports them with `checkJs`, `noUnusedLocals`
 * and `noUnusedParameters` (a JavaScript project type-checked that way). Only those diagnostics:
 * untyped JavaScript has others that are not the port's to fix.
 */
export function unusedNamesInJavaScript(files: readonly string[]): string[] {
  const options: ts.CompilerOptions = { allowJs: true, checkJs: true, noEmit: true, noUnusedLocals: true, noUnusedParameters: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, types: [] };
  const program = ts.createProgram({ rootNames: [...files], options });
  return files.flatMap((file) =>
    ts
      .getPreEmitDiagnostics(program, program.getSourceFile(file))
      .filter((d) => UNUSED_CODES.has(d.code))
      .map((d) => `${file}:${d.file!.getLineAndCharacterOfPosition(d.start!).line + 1} TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`),
  );
}

/** Syntax errors of JavaScript files, including TypeScript-only syntax left in them (TS8010 and kin). */
export function javaScriptSyntaxErrors(files: readonly string[]): string[] {
  const options: ts.CompilerOptions = { allowJs: true, checkJs: false, noEmit: true, module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 };
  const program = ts.createProgram({ rootNames: [...files], options });
  return files.flatMap((file) =>
    program.getSyntacticDiagnostics(program.getSourceFile(file)).map((d) => `${file} TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`),
  );
}
