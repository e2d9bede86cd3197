/**
 * The set of files being analyzed: parses lazily (only files the prefilter admits, or that an import
 * chain needs), and resolves imports across them, through local re-export modules.
 */
import { relative, sep } from 'node:path';
import type ts from 'typescript';
import { indexFile, type FileIndex } from './file-index.js';
import { eraOfSpecifier, eraThroughReexports, isRelativeSpecifier, resolveRelative } from './modules.js';
import { isSourcePath, parseSource, readSource } from './source.js';
import type { SkippedFile } from './model.js';
import { buildProgram } from './types.js';
import { PathAliases } from './path-aliases.js';
import { Workspaces } from './workspaces.js';

export type ImportTarget = { file: FileIndex; local: string } | { file: FileIndex; namespace: true };

/** An import binding in `from` that lands in some file: under `local`, naming `name` there, or a namespace. */
export type Importer = { from: FileIndex; local: string; name: string } | { from: FileIndex; local: string; namespace: true };

export class Project {
  private readonly indexes = new Map<string, FileIndex | null>();
  private readonly texts = new Map<string, string>();
  readonly skipped: SkippedFile[] = [];
  readonly fileSet: ReadonlySet<string>;

  constructor(
    readonly cwd: string,
    files: readonly string[],
    private readonly onParse?: (file: string) => void,
    private readonly preloaded?: ReadonlyMap<string, string>,
    private readonly onTree?: (file: string, sf: ts.SourceFile) => void,
  ) {
    this.fileSet = new Set(files);
    this.workspaces = new Workspaces(this.fileSet, cwd);
    this.aliases = new PathAliases(this.fileSet, cwd);
  }

  private readonly workspaces: Workspaces;
  private readonly workspaceHits = new Map<string, string | null>();

  /**
   * Does an import specifier land among the analyzed files: a relative one, or the name of one of the
   * tree's own packages (a monorepo workspace; never the MCP SDK's, which keeps its meaning)?
   */
  isLocalSpecifier(spec: string, fromFile: string): boolean {
    return isRelativeSpecifier(spec) || this.localModule(fromFile, spec) !== undefined;
  }

  /**
   * The analyzed file an import of `fromFile` lands in: a relative path, a tsconfig `paths` alias or
   * `baseUrl` name (`@/lib/x`), or one of the tree's own packages. The SDK's names keep their meaning.
   */
  localModule(fromFile: string, spec: string): string | undefined {
    const key = `${fromFile}\0${spec}`;
    let abs = this.moduleCache.get(key);
    if (abs === undefined) {
      if (isRelativeSpecifier(spec)) abs = resolveRelative(fromFile, spec, (p) => this.fileSet.has(p)) ?? null;
      else abs = eraOfSpecifier(spec) ? null : (this.aliases.resolve(fromFile, spec) ?? this.workspaceFile(spec) ?? null);
      this.moduleCache.set(key, abs);
    }
    return abs ?? undefined;
  }

  private readonly aliases: PathAliases;
  /** `localModule`'s answers, by importing file and specifier (an import is asked about many times: importers, routes, eras). */
  private readonly moduleCache = new Map<string, string | null>();

  private workspaceFile(spec: string): string | undefined {
    let hit = this.workspaceHits.get(spec);
    if (hit === undefined) {
      hit = isRelativeSpecifier(spec) || eraOfSpecifier(spec) ? null : (this.workspaces.resolve(spec) ?? null);
      this.workspaceHits.set(spec, hit);
    }
    return hit ?? undefined;
  }

  rel(abs: string): string {
    let rel = this.rels.get(abs);
    if (rel === undefined) {
      rel = relative(this.cwd, abs).split(sep).join('/');
      this.rels.set(abs, rel);
    }
    return rel;
  }

  /** `rel`'s answers: each site, route step and skipped file names its file by it. */
  private readonly rels = new Map<string, string>();

  /** The file's text (read once); undefined when unreadable (then listed as skipped). */
  text(abs: string): string | undefined {
    const cached = this.texts.get(abs) ?? this.preloaded?.get(abs);
    if (cached !== undefined) return cached;
    if (this.indexes.get(abs) === null) return undefined;
    const read = readSource(abs);
    if (!read.ok) {
      this.skipped.push({ file: this.rel(abs), reason: read.reason });
      this.indexes.set(abs, null);
      return undefined;
    }
    this.texts.set(abs, read.text);
    return read.text;
  }

  /** Forget the texts kept for the prefilter passes (parsed files keep their trees). */
  dropTexts(): void {
    this.texts.clear();
  }

  isParsed(abs: string): boolean {
    return this.indexes.has(abs);
  }

  /** Parses and indexes a file of the analyzed set once; null when it cannot be (skipped). */
  get(abs: string): FileIndex | null {
    const known = this.indexes.get(abs);
    if (known !== undefined) return known;
    if (!this.fileSet.has(abs) || !isSourcePath(abs)) return null;
    const text = this.text(abs);
    if (text === undefined) return null;
    this.onParse?.(abs);
    // parents are linked by indexFile's walk (one walk of the tree instead of the parser's and the index's)
    const parsed = parseSource(abs, text, false);
    if (!parsed.ok) {
      this.skipped.push({ file: this.rel(abs), reason: parsed.reason });
      this.indexes.set(abs, null);
      return null;
    }
    let index: FileIndex;
    try {
      index = indexFile(abs, this.rel(abs), parsed.sf);
    } catch (err) {
      this.skipped.push({ file: this.rel(abs), reason: `analyzer-error: ${(err as Error).message}` });
      this.indexes.set(abs, null);
      return null;
    }
    this.indexes.set(abs, index);
    this.onTree?.(abs, parsed.sf);
    this.parsedCount++;
    this.texts.delete(abs);
    return index;
  }

  private parsedCount = 0;

  parsed(): FileIndex[] {
    return [...this.indexes.values()].filter((x): x is FileIndex => x !== null);
  }

  resolveModule(from: FileIndex, spec: string): FileIndex | null {
    const abs = this.localModule(from.file, spec);
    return abs ? this.get(abs) : null;
  }

  /** Where `imported` of module `spec` (imported by `from`) is defined, following re-exports. */
  resolveImport(from: FileIndex, spec: string, imported: string, depth = 0): ImportTarget | undefined {
    if (depth > 8 || !this.isLocalSpecifier(spec, from.file)) return undefined;
    const target = this.resolveModule(from, spec);
    if (!target) return undefined;
    if (imported === '*') return { file: target, namespace: true };
    const local = target.exports.get(imported);
    if (local !== undefined) {
      const binding = target.imports.get(local);
      // `import { a } from './x'; export { a }` is a re-export too
      return binding ? this.resolveImport(target, binding.spec, binding.imported, depth + 1) : { file: target, local };
    }
    for (const re of target.reExports) {
      if (re.names) {
        const name = re.names.get(imported);
        if (name !== undefined) return this.resolveImport(target, re.spec, name, depth + 1);
      } else {
        const found = this.resolveImport(target, re.spec, imported, depth + 1);
        if (found) return found;
      }
    }
    return undefined;
  }

  /**
   * Every import binding, in every parsed file, that lands in `file`: named imports with the local
   * name they get, and namespace imports of `file` or of a module that re-exports it with `export *`.
   * Built once per set of parsed files (reach runs after the prefilter passes).
   */
  importersOf(file: FileIndex): readonly Importer[] {
    if (!this.importers || this.importersBuiltAt !== this.parsedCount) {
      this.importers = new Map();
      this.importersBuiltAt = this.parsedCount;
      for (const from of this.parsed()) {
        for (const [local, b] of from.imports) {
          if (!this.isLocalSpecifier(b.spec, from.file)) continue;
          const t = this.resolveImport(from, b.spec, b.imported);
          if (!t) continue;
          if ('namespace' in t) {
            for (const m of this.reexportClosure(t.file)) this.addImporter(m, { from, local, namespace: true });
          } else {
            this.addImporter(t.file, { from, local, name: t.local });
          }
        }
      }
    }
    return this.importers.get(file) ?? [];
  }

  private importers: Map<FileIndex, Importer[]> | undefined;
  private importersBuiltAt = -1;

  private addImporter(file: FileIndex, importer: Importer): void {
    const list = this.importers!.get(file);
    if (list) list.push(importer);
    else this.importers!.set(file, [importer]);
  }

  /** A module and every module it re-exports with `export *`, transitively. */
  private reexportClosure(module: FileIndex): FileIndex[] {
    const out: FileIndex[] = [];
    const visit = (m: FileIndex): void => {
      if (out.includes(m) || out.length > 64) return;
      out.push(m);
      for (const re of m.reExports) {
        const t = this.resolveModule(m, re.spec);
        if (t) visit(t);
      }
    };
    visit(module);
    return out;
  }

  private program: ts.Program | null | undefined;
  /** Files on whose behalf the checker was asked (the report counts them). */
  readonly typeCheckedFiles = new Set<string>();

  /**
   * The type checker over the parsed files (and what they import), built on the first call and kept
   * for this analysis; undefined when no program can be built. Its queries work on the analyzer's own
   * nodes. `forFile` (the file whose question needs types) is only counted.
   */
  typeChecker(forFile?: FileIndex): ts.TypeChecker | undefined {
    if (forFile) this.typeCheckedFiles.add(forFile.file);
    return this.typeProgram()?.getTypeChecker();
  }

  /** Has a program been built yet (the checker is costly: only candidate sites syntax cannot decide ask)? */
  programBuilt(): boolean {
    return this.program !== undefined;
  }

  /** The program behind `typeChecker()` (for diagnostics: does a file type-check?). */
  typeProgram(): ts.Program | undefined {
    if (this.program === undefined) {
      try {
        this.program = buildProgram({ cwd: this.cwd, roots: this.parsed().map((i) => i.sf), tree: (abs) => this.treeForProgram(abs) });
      } catch {
        // a config or resolution the compiler cannot handle: answer "unknown" rather than fail the run
        this.program = null;
      }
    }
    return this.program ?? undefined;
  }

  /** An analyzed file's own tree (parsed now if the program reaches it first); undefined for other files. */
  private treeForProgram(abs: string): ts.SourceFile | undefined {
    if (!this.fileSet.has(abs)) return undefined;
    return this.get(abs)?.sf;
  }

  /** The SDK era of a file: its own imports, else what its relative imports re-export. */
  eraOf(index: FileIndex): 'v1' | 'v2' | 'unknown' {
    if (index.era !== 'unknown') return index.era;
    for (const b of index.imports.values()) {
      const abs = this.localModule(index.file, b.spec);
      const era = abs ? eraThroughReexports(abs) : undefined;
      if (era && era !== 'unknown') return era;
    }
    return 'unknown';
  }
}
