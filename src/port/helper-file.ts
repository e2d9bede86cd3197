/**
 * Where the continuation helper goes, and how ported files import it.
 *
 * Placement, once per package (the nearest package.json above a ported file): an existing helper in one
 * of the candidate places wins (so re-runs and later ports reuse it); otherwise the directory that holds
 * all of the package's ported files if they share one, else the package's `src/` if it exists, else the
 * package root. An existing helper is never overwritten: identical is left, different is reported.
 *
 * Import style, per file: the `.js` suffix when the file's own relative imports carry one, or when the
 * package's tsconfig resolves like Node (NodeNext/Node16), `.ts` when the file imports `.ts` paths,
 * otherwise no suffix.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from '../typescript.cjs';

export type ImportSuffix = '' | '.js' | '.ts';

/** The syntax a source file imports with: `import` (ES module; every TypeScript file) or `require` (CommonJS). */
export type ModuleSystem = 'esm' | 'cjs';

/** The `type` of a package.json: what Node makes of a `.js` file in it. */
export type PackageType = 'module' | 'commonjs';

export type HelperState = 'missing' | 'identical' | 'differs';

/** Caches per-directory lookups for one run. */
export class PackageLayout {
  private readonly packageRoots = new Map<string, string>();
  private readonly nodeResolution = new Map<string, boolean>();
  private readonly packageTypes = new Map<string, PackageType>();

  /**
   * `boundary` (the working directory) bounds the search: a package.json above it belongs to some other
   * project, so a file under it with no package.json in between gets `boundary` as its package root.
   * The helper is therefore never written outside the working directory.
   */
  constructor(private readonly boundary: string) {}

  /** The directory of the nearest package.json above `file`, not above the boundary. */
  packageRootOf(file: string): string {
    const start = dirname(resolve(file));
    const boundary = resolve(this.boundary);
    const inside = start === boundary || start.startsWith(boundary + sep);
    const seen: string[] = [];
    let root: string | undefined;
    for (let dir = start; ; dir = dirname(dir)) {
      const cached = this.packageRoots.get(dir);
      if (cached !== undefined) {
        root = cached;
        break;
      }
      seen.push(dir);
      if (existsSync(join(dir, 'package.json'))) {
        root = dir;
        break;
      }
      if (dirname(dir) === dir || (inside && dir === boundary)) break;
    }
    root ??= boundary;
    for (const dir of seen) this.packageRoots.set(dir, root);
    return root;
  }

  /** Does the package's tsconfig.json (following `extends`) use NodeNext/Node16 module resolution? */
  usesNodeResolution(packageRoot: string): boolean {
    let answer = this.nodeResolution.get(packageRoot);
    if (answer === undefined) {
      // only read, so it may come from above the boundary (running in a package's sub-folder)
      const config = nearestTsconfig(packageRoot);
      answer = config !== undefined && tsconfigUsesNodeResolution(config);
      this.nodeResolution.set(packageRoot, answer);
    }
    return answer;
  }

  /** `"type": "module"` in the package root's package.json; anything else (none, unreadable) is CommonJS, as for Node. */
  packageType(packageRoot: string): PackageType {
    let type = this.packageTypes.get(packageRoot);
    if (type === undefined) {
      type = 'commonjs';
      try {
        const json = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { type?: unknown } | null;
        if (json?.type === 'module') type = 'module';
      } catch {
        // no package.json (the working directory as fallback root) or not JSON: Node's default
      }
      this.packageTypes.set(packageRoot, type);
    }
    return type;
  }

  importSuffix(fileText: string, packageRoot: string): ImportSuffix {
    const own = suffixOfRelativeImports(fileText);
    if (own === '.js' || own === '.ts') return own;
    if (this.usesNodeResolution(packageRoot)) return '.js';
    // a file with no relative import of its own says nothing: in a "type": "module" package Node itself
    // needs the extension, and `.js` also resolves to the `.ts` file under tsc, tsx and bundlers
    return own === undefined && this.packageType(packageRoot) === 'module' ? '.js' : '';
  }
}

const TS_FILE_RE = /\.[cm]?tsx?$/;

export function isTypeScriptFile(file: string): boolean {
  return TS_FILE_RE.test(file);
}

/**
 * The module system a source file is written in. TypeScript files always import with `import` (tsc
 * turns it into `require` where it compiles to CommonJS). `.mjs` is ESM, `.cjs` CommonJS; a `.js`/`.jsx`
 * file by its own syntax (an `import`/`export` statement makes it ESM; `require`/`module.exports`
 * CommonJS), and by the package's `type` when it shows neither.
 */
export function moduleSystemOf(file: string, text: string, packageType: PackageType): ModuleSystem {
  if (isTypeScriptFile(file) || file.endsWith('.mjs')) return 'esm';
  if (file.endsWith('.cjs')) return 'cjs';
  if (hasModuleSyntax(file, text)) return 'esm';
  if (/\brequire\s*\(|\bmodule\.exports\b|\bexports\.\w+\s*=/.test(text)) return 'cjs';
  return packageType === 'module' ? 'esm' : 'cjs';
}

/** Does the file have a top-level `import` or `export` statement? (Parsed: text inside strings or comments does not count.) */
export function hasModuleSyntax(file: string, text: string): boolean {
  if (!/\b(?:import|export)\b/.test(text)) return false;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith('x') ? ts.ScriptKind.JSX : ts.ScriptKind.JS);
  return sf.statements.some(
    (st) =>
      ts.isImportDeclaration(st) ||
      ts.isExportDeclaration(st) ||
      ts.isExportAssignment(st) ||
      (ts.canHaveModifiers(st) && (ts.getModifiers(st) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)),
  );
}

/** The tsconfig.json in `dir` or the nearest folder above it, stopping at a package root above `dir`. */
function nearestTsconfig(dir: string): string | undefined {
  for (let d = resolve(dir); ; d = dirname(d)) {
    const candidate = join(d, 'tsconfig.json');
    if (existsSync(candidate)) return candidate;
    if (d !== resolve(dir) && existsSync(join(d, 'package.json'))) return undefined;
    if (dirname(d) === d) return undefined;
  }
}

const RELATIVE_SPECIFIER_RE = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)(['"])(\.{1,2}\/[^'"]*)\1/g;

/** The suffix style of a file's relative imports: '.js'/'.ts' if any carries one, '' if none do, undefined if there are none. */
export function suffixOfRelativeImports(text: string): ImportSuffix | undefined {
  let sawAny = false;
  for (const m of text.matchAll(RELATIVE_SPECIFIER_RE)) {
    sawAny = true;
    const spec = m[2];
    if (/\.[cm]?jsx?$/.test(spec)) return '.js';
    if (/\.[cm]?tsx?$/.test(spec)) return '.ts';
  }
  return sawAny ? '' : undefined;
}

const NODE_KINDS = new Set(['node16', 'nodenext']);

function tsconfigUsesNodeResolution(configPath: string, depth = 0): boolean {
  if (depth > 8 || !existsSync(configPath)) return false;
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  if (read.error || typeof read.config !== 'object' || read.config === null) return false;
  const config = read.config as { compilerOptions?: { module?: unknown; moduleResolution?: unknown }; extends?: unknown };
  const options = config.compilerOptions ?? {};
  for (const value of [options.moduleResolution, options.module]) {
    if (typeof value === 'string') return NODE_KINDS.has(value.toLowerCase());
  }
  const parents = typeof config.extends === 'string' ? [config.extends] : Array.isArray(config.extends) ? config.extends : [];
  // later entries of an `extends` array override earlier ones
  for (const parent of [...parents].reverse()) {
    if (typeof parent !== 'string') continue;
    const parentPath = resolveExtends(parent, dirname(configPath));
    if (parentPath && tsconfigUsesNodeResolution(parentPath, depth + 1)) return true;
  }
  return false;
}

function resolveExtends(spec: string, fromDir: string): string | undefined {
  if (spec.startsWith('.') || spec.startsWith('/')) {
    const p = resolve(fromDir, spec);
    return existsSync(p) ? p : existsSync(p + '.json') ? p + '.json' : undefined;
  }
  try {
    return createRequire(join(fromDir, 'tsconfig.json')).resolve(spec);
  } catch {
    try {
      return createRequire(join(fromDir, 'tsconfig.json')).resolve(join(spec, 'tsconfig.json'));
    } catch {
      return undefined;
    }
  }
}

/**
 * The helper file's path for one package. `portedFiles` are absolute paths of the package's files that
 * import the helper; `fileNames` the helper's file name, or the names of the helpers that go together
 * (the first is the one returned; a directory holding any of them is reused).
 */
export function helperPathFor(packageRoot: string, portedFiles: readonly string[], fileNames: string | readonly string[]): string {
  const names = typeof fileNames === 'string' ? [fileNames] : fileNames;
  const dirs = [...new Set(portedFiles.map((f) => dirname(resolve(f))))];
  const shared = dirs.length === 1 ? dirs[0] : undefined;
  const src = join(packageRoot, 'src');
  const hasSrc = isDirectory(src);
  const candidates = [...new Set([shared, hasSrc ? src : undefined, packageRoot].filter((d): d is string => d !== undefined))];
  const existing = candidates.find((dir) => names.some((name) => existsSync(join(dir, name))));
  return join(existing ?? candidates[0], names[0]);
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The module specifier a file uses to import the helper at `helperPath`. A TypeScript helper is named
 * without its extension plus `suffix` (the importing file's style; a JavaScript importer always gets
 * `.js`, the name tsc emits); a JavaScript helper keeps its real extension, which Node's ES module
 * loader requires and `require` accepts.
 */
export function helperImportSpecifier(fromFile: string, helperPath: string, suffix: ImportSuffix): string {
  let rel = relative(dirname(resolve(fromFile)), helperPath).split(sep).join('/');
  if (!rel.startsWith('.')) rel = './' + rel;
  if (!isTypeScriptFile(helperPath)) return rel;
  return rel.replace(TS_FILE_RE, '') + (isTypeScriptFile(fromFile) ? suffix : '.js');
}

/** Is the helper there already, and is it the template's bytes? */
export function helperState(helperPath: string, template: string): HelperState {
  let current: string;
  try {
    current = readFileSync(helperPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw error;
  }
  return current === template ? 'identical' : 'differs';
}
