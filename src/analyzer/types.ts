/**
 * The TypeScript type checker, built only when something asks for it (a receiver syntax cannot
 * decide, a value whose carryability the plan must know). One bare `ts.createProgram` per analysis:
 * its compiler host hands back the analyzer's own `ts.SourceFile` objects for the files being
 * analyzed, so checker queries work on the very nodes the analyzer and the plan hold; everything else
 * (imports outside the set, `node_modules` declarations, libs) is read from disk as usual.
 */
import { dirname, extname, isAbsolute, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from '../typescript.cjs';
import { eraOfSpecifier, packageRoot } from './modules.js';
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

export function buildProgram(source: TreeSource & { options?: ts.CompilerOptions }): ts.Program {
  const rootNames = source.roots.map((sf) => sf.fileName);
  const options = source.options ?? checkerOptions(source.cwd, rootNames);
  const host = ts.createCompilerHost(options, true);
  const readFromDisk = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) =>
    source.tree(resolve(fileName)) ?? readStable(fileName, languageVersion) ?? readFromDisk(fileName, languageVersion, onError, shouldCreate);
  // lib and node_modules declarations: parsed once per process, not once per program (shared-source-files.ts)
  const readStable = (fileName: string, languageVersion: ts.ScriptTarget | ts.CreateSourceFileOptions): ts.SourceFile | undefined => {
    if (!isStableDeclarationPath(fileName)) return undefined;
    const text = host.readFile(fileName);
    return text === undefined ? undefined : acquireSharedSourceFile(fileName, text, options, declarationParse(languageVersion));
  };
  resolveThroughSharedCache(host, options);
  return ts.createProgram({ rootNames, options, host });
}

/**
 * How the lib and `node_modules` files are parsed: without the JSDoc of TypeScript files. The program is
 * only asked about types, and a TypeScript declaration's comments carry none (a JavaScript file's JSDoc
 * types are still parsed). `@types/node` is mostly comments: a v1 port's declarations took about a quarter
 * less CPU (3.1-3.4 s → 2.4 s on servers/src/everything).
 */
function declarationParse(languageVersion: ts.ScriptTarget | ts.CreateSourceFileOptions): ts.CreateSourceFileOptions {
  const base = typeof languageVersion === 'object' ? languageVersion : { languageVersion };
  return { ...base, jsDocParsingMode: ts.JSDocParsingMode.ParseForTypeInfo };
}

/**
 * Module resolution with a cache kept for the process where the answer cannot change while it runs: an
 * import inside `node_modules` or the lib, and a package name (it resolves into `node_modules`). A
 * relative import of a user's file gets a cache of this program only (a file may appear or go between
 * analyses). Resolving a program's imports is most of `createProgram` once the declarations are parsed.
 */
function resolveThroughSharedCache(host: ts.CompilerHost, options: ts.CompilerOptions): void {
  const key = JSON.stringify(options);
  let shared = sharedResolutionCaches.get(key);
  if (!shared) sharedResolutionCaches.set(key, (shared = ts.createModuleResolutionCache(host.getCurrentDirectory(), (f) => host.getCanonicalFileName(f), options)));
  const stable = shared;
  const own = ts.createModuleResolutionCache(host.getCurrentDirectory(), (f) => host.getCanonicalFileName(f), options);
  // the program's other lookups (type directives, a file's module format) go through this program's cache, as by default
  host.getModuleResolutionCache = () => own;
  host.resolveModuleNameLiterals = (literals, containingFile, redirected, opts, containingSourceFile) => {
    const fromStable = isStableDeclarationPath(containingFile);
    return literals.map((literal) => {
      const bare = !literal.text.startsWith('.') && !isAbsolute(literal.text);
      const mode = ts.getModeForUsageLocation(containingSourceFile, literal, opts);
      const found = ts.resolveModuleName(literal.text, containingFile, opts, host, fromStable || bare ? stable : own, redirected, mode);
      if (found.resolvedModule || !bare || fromStable || !TYPED_FROM_THE_TOOL.has(packageRoot(literal.text))) return found;
      // an SDK v1 tree being migrated imports the v2 packages before they are installed: their types come
      // from this tool's own copy, so the plan's type questions (carryable? narrowed? a guard?) are answered
      return ts.resolveModuleName(literal.text, TOOL_ANCHOR, opts, host, stable, redirected, mode);
    });
  };
}

const sharedResolutionCaches = new Map<string, ts.ModuleResolutionCache>();

/** Packages a ported server imports whose types this tool ships (dependencies of its own package). */
const TYPED_FROM_THE_TOOL = new Set(['@modelcontextprotocol/server', '@modelcontextprotocol/client', '@modelcontextprotocol/core', 'zod']);
/** A file of this tool: packages resolved from here are the tool's own. */
const TOOL_ANCHOR = fileURLToPath(import.meta.url);


/**
 * Parses and binds, ahead of time, the declarations a program over `rootNames` will read besides them:
 * the lib files, `@types/node`, the SDK and every package these texts import. They are kept in the
 * process's shared registry (shared-source-files.ts), so the analysis's own program, built later with
 * the same options, takes them as they are and binds only the user's files. For a caller with time to
 * spare on this thread (the port, while the v1 migration runs on another); the result is the same without it.
 */
export function prepareDeclarations(cwd: string, rootNames: readonly string[], texts: ReadonlyMap<string, string>): void {
  if (rootNames.length === 0) return;
  const folder = commonFolder(rootNames) ?? cwd;
  const stubName = resolve(folder, '__mrtr_port_declarations__.ts');
  const specifiers = new Set<string>(PREPARED_PACKAGES);
  for (const file of rootNames) for (const spec of bareImports(texts.get(file) ?? '')) specifiers.add(spec);
  const stub = ts.createSourceFile(stubName, [...specifiers].map((spec) => `import ${JSON.stringify(spec)};\n`).join(''), ts.ScriptTarget.Latest, true);
  // the options of the program the analysis will build over these files (its registry key)
  const options = checkerOptions(cwd, rootNames);
  buildProgram({ cwd, roots: [stub], tree: (abs) => (abs === stubName ? stub : undefined), options }).getTypeChecker();
}

/** What a ported server imports whatever its own files say (the v1 migration rewrites the SDK's imports to these). */
const PREPARED_PACKAGES = ['@modelcontextprotocol/server', 'zod'];

/** The packages a text imports or requires (`'x'`, `'@s/x/sub'`), without relative paths, `node:` builtins and the v1 SDK. */
function bareImports(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\b(?:from|import|require\s*\()\s*['"]([^'"\s]+)['"]/g)) {
    const spec = m[1];
    if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('node:') || eraOfSpecifier(spec)?.era === 'v1') continue;
    out.push(spec);
  }
  return out;
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
      // a config whose `extends` is not there (one package of a monorepo checked out alone) is only part
      // of the options: the defaults fill in what it would have set (module resolution, target)
      options = parsed.errors.some((e) => e.category === ts.DiagnosticCategory.Error) ? { ...defaultCheckerOptions(), ...parsed.options } : { ...parsed.options };
    }
  }
  for (const key of ['composite', 'incremental', 'tsBuildInfoFile', 'declaration', 'declarationMap', 'emitDeclarationOnly', 'outDir', 'outFile', 'rootDir'] as const) {
    delete options[key];
  }
  options.noEmit = true;
  // root JavaScript files are dropped by a program without allowJs
  if (rootNames.some((f) => JS_EXTENSIONS.has(extname(f).toLowerCase()))) options.allowJs = true;
  narrowDeclarations(options);
  return options;
}

/**
 * What the program reads beyond the files: the lib files and every `@types` package, about 7 MB for a
 * Node server, where parsing and binding are most of a program's cost. A server's types come from
 * `@types/node` (its globals include `fetch`, `URL`, timers) and from what it imports, which module
 * resolution finds whatever `types` says. So when the config names neither, and `@types/node` is
 * there, the program takes the target's lib without the DOM (1.9 MB) and, of the `@types` packages,
 * only `node` (the others declare test-runner and browser globals). Without `@types/node` the DOM stays:
 * it is then the only declaration of `fetch` and `Response`.
 */
function narrowDeclarations(options: ts.CompilerOptions): void {
  if (options.lib && options.types) return;
  // resolved as the program resolves its type names: from the config's folder, else the process's
  const from = typeof options.configFilePath === 'string' ? dirname(options.configFilePath) : ts.sys.getCurrentDirectory();
  const node = ts.resolveTypeReferenceDirective('node', resolve(from, '__inferred type names__.ts'), options, ts.sys).resolvedTypeReferenceDirective;
  if (!node?.resolvedFileName) return;
  if (!options.lib) options.lib = [withoutDom(ts.getDefaultLibFileName(options))];
  options.types ??= ['node'];
}

/** The target's default lib without the DOM: `lib.es2022.full.d.ts` → `lib.es2022.d.ts`; ES2015's `lib.es6.d.ts` → `lib.es2015.d.ts`; ES5's `lib.d.ts` → `lib.es5.d.ts`. */
function withoutDom(libFile: string): string {
  if (libFile === 'lib.d.ts') return 'lib.es5.d.ts';
  if (libFile === 'lib.es6.d.ts') return 'lib.es2015.d.ts';
  return libFile.replace(/\.full\.d\.ts$/, '.d.ts');
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
