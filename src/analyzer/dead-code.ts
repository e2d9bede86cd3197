/**
 * Is a function nothing can call? Only then may a site with no caller be `unportable(dead-code)`
 * rather than `manual(no-handler)`: the walk found no caller, no other analyzed file outside tests
 * names it, it is no default export (frameworks load those by path), and it is not public API of its
 * package. That last question needs the package's entry among the analyzed files: without it (a
 * folder or a file analyzed alone) callers may live elsewhere, and the answer is no.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import ts from '../typescript.cjs';
import { functionName, isExported, outerParent, owningClass } from './ast.js';
import { isTestPath, type FileIndex } from './file-index.js';
import type { Project } from './project.js';
import { sourceOfBuilt } from './workspaces.js';

export class DeadCode {
  private readonly packages = new Map<string, PackageFacts | null>();

  constructor(private readonly project: Project) {}

  /**
   * Is `fn` part of its package's public API (exported from the package's entry, or a non-private
   * member of a class exported so)? Its callers may then live outside the repository.
   */
  isPublicApi(fn: ts.FunctionLikeDeclaration, file: FileIndex): boolean {
    const name = functionName(fn);
    if (!name || !isNamedDeclaration(fn) || isPrivateMember(fn)) return false;
    const pkg = this.packageOf(file.file);
    return !!pkg && pkg.publicFiles.has(file.file) && (isExported(fn) || declaredExported(fn, file, name));
  }

  /** `fn` (in `file`) has no caller the walk could find; is it provably never called? */
  isDead(fn: ts.FunctionLikeDeclaration, file: FileIndex): boolean {
    const name = functionName(fn);
    if (!name || !isNamedDeclaration(fn) || isDefaultExport(fn)) return false;
    const pkg = this.packageOf(file.file);
    if (!pkg) return false;
    if (pkg.publicFiles.has(file.file) && (isExported(fn) || declaredExported(fn, file, name))) return false;
    return !this.namedElsewhere(fn, name, file);
  }

  /**
   * Could another non-test file call `name` of `file`? Only one that holds the word and either names
   * the module in a quoted specifier (an import or require of it, or of a module re-exporting it) or
   * holds the name as a whole quoted string (looked up by name: `['named']`, `handlers['named']`). A
   * word in prose (`'… to confirm playback'`, a doc comment) in a module that never names this one is
   * no caller.
   */
  private namedElsewhere(fn: ts.FunctionLikeDeclaration, name: string, file: FileIndex): boolean {
    const holders = (this.wordFiles().get(name) ?? []).filter((f) => f !== file.file);
    if (holders.length === 0) return false;
    const quoted = new RegExp(`(['"])${escapeRegExp(name)}\\1`);
    // a module specifier whose last segment is the module (`'./utils/elicitation.js'`, `"../utils"` for an index)
    const specifier = new RegExp(`(['"])(?:[^'"\\n]*/)?(?:${this.moduleNames(file.file).map(escapeRegExp).join('|')})(?:\\.[cm]?[jt]sx?)?\\1`);
    // an instance travels without an import of its module: any `.name` may call a class member
    const member = owningClass(fn) ? new RegExp(`\\.\\s*${escapeRegExp(name)}\\b`) : undefined;
    return holders.some((f) => {
      const text = this.project.text(f) ?? '';
      // a barrel's `export { name } from '…'` passes the name on and calls nothing: its importers are
      // asked instead (they name the barrel, one of `moduleNames`); a renaming re-export keeps the file a holder
      if (!wordsOf(withoutPlainReexports(text, name)).has(name)) return false;
      return quoted.test(text) || specifier.test(text) || (member?.test(text) ?? false);
    });
  }

  /** The names an import of `file` would spell: its base name (or its folder's, for `index`), and those of the modules re-exporting it. */
  private moduleNames(file: string): string[] {
    const names = new Set<string>();
    const seen = new Set<string>();
    const visit = (f: string): void => {
      if (seen.has(f) || seen.size > MAX_PUBLIC_FILES) return;
      seen.add(f);
      const base = basename(f).replace(/\.[^.]+$/, '');
      names.add(base === 'index' ? basename(dirname(f)) : base);
      for (const r of this.reexporters().get(f) ?? []) visit(r);
    };
    visit(file);
    return [...names].filter((n) => n.length > 0);
  }

  private fileWords: Map<string, string[]> | undefined;
  private reexportedBy: Map<string, string[]> | undefined;

  /** For every word, the analyzed non-test files holding it (and who re-exports whom): one read of every file, on the first question. */
  private wordFiles(): Map<string, string[]> {
    if (this.fileWords) return this.fileWords;
    const words = new Map<string, string[]>();
    const reexportedBy = new Map<string, string[]>();
    for (const f of this.project.fileSet) {
      const text = this.project.text(f);
      if (text === undefined) continue;
      for (const m of text.matchAll(REEXPORT)) {
        const target = this.project.localModule(f, m[1]);
        if (target) reexportedBy.set(resolve(target), [...(reexportedBy.get(resolve(target)) ?? []), f]);
      }
      if (isTestPath(this.project.rel(f))) continue;
      for (const w of wordsOf(text)) {
        const list = words.get(w);
        if (list) list.push(f);
        else words.set(w, [f]);
      }
    }
    this.fileWords = words;
    this.reexportedBy = reexportedBy;
    return words;
  }

  private reexporters(): Map<string, string[]> {
    this.wordFiles();
    return this.reexportedBy!;
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
    const entries = declared.map((p) => sourceOfBuilt(dir, p, this.project.fileSet)).filter((f): f is string => f !== undefined);
    if (entries.length === 0) return null;
    return { publicFiles: this.reexportClosure(entries) };
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
        const next = this.project.localModule(f, m[1]);
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

const MAX_PUBLIC_FILES = 2_000;
const REEXPORT = /export\s+(?:type\s+)?(?:\*(?:\s+as\s+[\w$]+)?|\{[^}]*\})\s+from\s+['"]([^'"]+)['"]/g;

/** `text` without the `export { … } from '…'` statements that re-export `name` under its own name. */
function withoutPlainReexports(text: string, name: string): string {
  return text.replace(REEXPORT, (statement) => {
    const list = /\{([^}]*)\}/.exec(statement)?.[1];
    if (list === undefined) return statement;
    const specifiers = list.split(',').map((s) => s.trim().replace(/^type\s+/, ''));
    return specifiers.includes(name) ? statement.replace(new RegExp(`(?<![\\w$])${escapeRegExp(name)}(?![\\w$])`, 'g'), '') : statement;
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

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

/** `#m()` or `private m()`: nothing outside the class can call it. */
function isPrivateMember(fn: ts.FunctionLikeDeclaration): boolean {
  if (!owningClass(fn)) return false;
  if (fn.name && ts.isPrivateIdentifier(fn.name)) return true;
  const mods = ts.canHaveModifiers(fn) ? ts.getModifiers(fn) : undefined;
  return !!mods?.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword);
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
