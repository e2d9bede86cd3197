/**
 * The TypeScript type checker, built only when something asks for it (a receiver syntax cannot
 * decide, a value whose carryability the plan must know). One bare `ts.createProgram` per analysis:
 * its compiler host hands back the analyzer's own `ts.SourceFile` objects for the files being
 * analyzed, so checker queries work on the very nodes the analyzer and the plan hold; everything else
 * (imports outside the set, `node_modules` declarations, libs) is read from disk as usual.
 */
import { dirname, extname, resolve, sep } from 'node:path';
import ts from '../typescript.cjs';
import { acquireSharedSourceFile, isStableDeclarationPath } from './shared-source-files.js';

/** Options when no tsconfig.json is found: permissive enough for any TS/JS server (a function: the compiler loads on first use). */
export function defaultCheckerOptions(): ts.CompilerOptions {
  return {
    allowJs: true,
    checkJs: false,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    module: ts.ModuleKind.ESNext,
    target: ts.ScriptTarget.ES2022,
  };
}

/** How the program reaches the analyzer's trees: the tree of an analyzed file, or undefined to read it from disk. */
export interface TreeSource {
  cwd: string;
  roots: readonly ts.SourceFile[];
  tree(abs: string): ts.SourceFile | undefined;
}

const JS_EXTENSIONS = new Set(['.js', '.jsx', '.mjs', '.cjs']);

export function buildProgram(source: TreeSource): ts.Program {
  const rootNames = source.roots.map((sf) => sf.fileName);
  const options = checkerOptions(source.cwd, rootNames);
  const host = ts.createCompilerHost(options, true);
  const readFromDisk = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) =>
    source.tree(resolve(fileName)) ?? readStable(fileName, languageVersion) ?? readFromDisk(fileName, languageVersion, onError, shouldCreate);
  // lib and node_modules declarations: parsed once per process, not once per program (shared-source-files.ts)
  const readStable = (fileName: string, languageVersion: ts.ScriptTarget | ts.CreateSourceFileOptions): ts.SourceFile | undefined => {
    if (!isStableDeclarationPath(fileName)) return undefined;
    const text = host.readFile(fileName);
    return text === undefined ? undefined : acquireSharedSourceFile(fileName, text, options, languageVersion);
  };
  return ts.createProgram({ rootNames, options, host });
}

/**
 * The nearest tsconfig.json's compiler options (searched from the files' common folder up to `cwd`,
 * or to the file system root when the files lie outside it), else the defaults. Emit-related options
 * are dropped: the program is only ever asked about types.
 */
export function checkerOptions(cwd: string, rootNames: readonly string[]): ts.CompilerOptions {
  const configPath = nearestConfig(commonFolder(rootNames) ?? cwd, resolve(cwd));
  let options: ts.CompilerOptions = defaultCheckerOptions();
  if (configPath) {
    const read = ts.readConfigFile(configPath, ts.sys.readFile);
    if (!read.error) {
      const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(configPath), undefined, configPath);
      options = { ...parsed.options };
    }
  }
  for (const key of ['composite', 'incremental', 'tsBuildInfoFile', 'declaration', 'declarationMap', 'emitDeclarationOnly', 'outDir', 'outFile', 'rootDir'] as const) {
    delete options[key];
  }
  options.noEmit = true;
  // root JavaScript files are dropped by a program without allowJs
  if (rootNames.some((f) => JS_EXTENSIONS.has(extname(f).toLowerCase()))) options.allowJs = true;
  return options;
}

function nearestConfig(from: string, stopAt: string): string | undefined {
  const insideCwd = from === stopAt || from.startsWith(stopAt.endsWith(sep) ? stopAt : stopAt + sep);
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = resolve(dir, 'tsconfig.json');
    if (ts.sys.fileExists(candidate)) return candidate;
    if ((insideCwd && dir === stopAt) || dirname(dir) === dir) return undefined;
  }
}

function commonFolder(files: readonly string[]): string | undefined {
  if (files.length === 0) return undefined;
  let common = dirname(resolve(files[0]));
  for (const f of files) {
    const dir = dirname(resolve(f));
    while (dir !== common && !dir.startsWith(common.endsWith(sep) ? common : common + sep)) {
      const up = dirname(common);
      if (up === common) return common;
      common = up;
    }
  }
  return common;
}
