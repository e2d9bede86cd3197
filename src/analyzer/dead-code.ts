/**
 * Is a function nothing can call? Only then may a site with no caller be `unportable(dead-code)`
 * rather than `manual(no-handler)`: the walk found no caller, no other analyzed file outside tests
 * names it, it is no default export (frameworks load those by path), and it is not public API of its
 * package. That last question needs the package's entry among the analyzed files: without it (a
 * folder or a file analyzed alone) callers may live elsewhere, and the answer is no.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from '../typescript.cjs';
import { functionName, isExported, outerParent, owningClass } from './ast.js';
import { isTestPath, type FileIndex } from './file-index.js';
import { resolveRelative } from './modules.js';
import type { Project } from './project.js';

export class DeadCode {
  private readonly packages = new Map<string, PackageFacts | null>();

  constructor(private readonly project: Project) {}

  /** `fn` (in `file`) has no caller the walk could find; is it provably never called? */
  isDead(fn: ts.FunctionLikeDeclaration, file: FileIndex): boolean {
    const name = functionName(fn);
    if (!name || !isNamedDeclaration(fn) || isDefaultExport(fn)) return false;
    const pkg = this.packageOf(file.file);
    if (!pkg) return false;
    if (pkg.publicFiles.has(file.file) && (isExported(fn) || declaredExported(fn, file, name))) return false;
    const ownText = file.sf.text;
    const inOwn = wordsOf(ownText).has(name) ? 1 : 0;
    return (this.wordFiles().get(name) ?? 0) - inOwn === 0;
  }

  private fileCounts: Map<string, number> | undefined;

  /** For every word, how many analyzed non-test files hold it: built once, on the first question. */
  private wordFiles(): Map<string, number> {
    if (this.fileCounts) return this.fileCounts;
    const counts = new Map<string, number>();
    for (const f of this.project.fileSet) {
      if (isTestPath(this.project.rel(f))) continue;
      const text = this.project.text(f);
      if (text === undefined) continue;
      for (const w of wordsOf(text)) counts.set(w, (counts.get(w) ?? 0) + 1);
    }
    this.fileCounts = counts;
    return counts;
  }

  /** The package a file belongs to, when its entry is analyzed; null when that cannot be known. */
  private packageOf(file: string): PackageFacts | null {
    for (let dir = dirname(file); ; dir = dirname(dir)) {
      const manifest = join(dir, 'package.json');
      if (this.packages.has(dir)) return this.packages.get(dir)!;
      if (existsSync(manifest)) {
        const facts = this.readPackage(dir, manifest);
        this.packages.set(dir, facts);
        return facts;
      }
      if (dirname(dir) === dir) return null;
    }
  }

  private readPackage(dir: string, manifest: string): PackageFacts | null {
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, unknown>;
    } catch {
      return null;
    }
    const declared = [json.main, json.module, json.types, json.typings, json.exports, json.bin].flatMap(stringLeaves);
    const entries = declared.map((p) => this.sourceOf(dir, p)).filter((f): f is string => f !== undefined);
    if (entries.length === 0) return null;
    return { publicFiles: this.reexportClosure(entries) };
  }

  /** The analyzed source file a built path stands for (`dist/index.js` → `src/index.ts`). */
  private sourceOf(dir: string, built: string): string | undefined {
    const rel = built.replace(/^\.\//, '');
    const stripped = rel.replace(/\.d\.[mc]?ts$/, '.js');
    const bases = [stripped, ...BUILD_FOLDERS.flatMap((b) => (stripped.startsWith(`${b}/`) ? [`src/${stripped.slice(b.length + 1)}`, stripped.slice(b.length + 1)] : []))];
    for (const base of bases) {
      const hit = resolveRelative(join(dir, 'package.json'), `./${base}`, (p) => this.project.fileSet.has(p));
      if (hit) return hit;
    }
    return undefined;
  }

  /** The entry files and every analyzed file they re-export from (`export … from`), transitively. */
  private reexportClosure(entries: readonly string[]): Set<string> {
    const out = new Set<string>();
    const queue = [...entries];
    while (queue.length > 0 && out.size < MAX_PUBLIC_FILES) {
      const f = queue.pop()!;
      if (out.has(f)) continue;
      out.add(f);
      const text = this.project.text(f);
      if (text === undefined) continue;
      for (const m of text.matchAll(REEXPORT)) {
        const next = resolveRelative(f, m[1], (p) => this.project.fileSet.has(p));
        if (next) queue.push(resolve(next));
      }
    }
    return out;
  }
}

interface PackageFacts {
  /** Files whose exports are the package's public API. */
  publicFiles: Set<string>;
}

const BUILD_FOLDERS = ['dist', 'build', 'lib', 'out'];
const MAX_PUBLIC_FILES = 2_000;
const REEXPORT = /export\s+(?:type\s+)?(?:\*(?:\s+as\s+[\w$]+)?|\{[^}]*\})\s+from\s+['"]([^'"]+)['"]/g;

function wordsOf(text: string): Set<string> {
  return new Set(text.match(/[\w$]+/g) ?? []);
}

function stringLeaves(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (v && typeof v === 'object') return Object.values(v).flatMap(stringLeaves);
  return [];
}

/**
 * A function declaration, a const-bound function or a class member: what callers reach by its name.
 * An object literal's member travels with its object, to code that may be outside (a context handed
 * to users' callbacks): never provably dead.
 */
function isNamedDeclaration(fn: ts.FunctionLikeDeclaration): boolean {
  if (ts.isFunctionDeclaration(fn) || owningClass(fn)) return true;
  const holder = outerParent(fn).parent;
  return !!holder && ts.isVariableDeclaration(holder);
}

function isDefaultExport(fn: ts.FunctionLikeDeclaration): boolean {
  const mods = ts.canHaveModifiers(fn) ? ts.getModifiers(fn) : undefined;
  if (mods?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)) return true;
  return !!fn.parent && ts.isExportAssignment(fn.parent);
}

/** Exported by an `export` on its statement, its class, or an `export { name }` list. */
function declaredExported(fn: ts.FunctionLikeDeclaration, file: FileIndex, name: string): boolean {
  const cls = owningClass(fn);
  if (cls) return isExported(cls) || (cls.name !== undefined && [...file.exports.values()].includes(cls.name.text));
  const statement = fn.parent?.parent?.parent;
  if (statement && ts.isVariableStatement(statement) && isExported(statement)) return true;
  return [...file.exports.values()].includes(name);
}
