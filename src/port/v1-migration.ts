/**
 * Stage 1 for SDK v1 sources: the official `@modelcontextprotocol/codemod` v1-to-v2 migration, used as a
 * library. MRTR needs SDK v2, so a v1 file is migrated first and then ported.
 *
 * The codemod's own `run()` globs a directory and saves to disk; the port needs text in, text out (for
 * dry-run diffs, per-file rollback and re-analysis before anything is written). So this applies the
 * migration's transforms, in the codemod's order, to one in-memory ts-morph source file and then does
 * what the codemod runner does per file: roll back on a throw, drop advisories when nothing changed, re-resolve
 * marker lines after later edits, write `@mcp-codemod-error` comments (own line, merged per line, never
 * twice, never inside a literal), and keep the shebang.
 */
import { getMigration, type Diagnostic, type Migration, type TransformContext } from '@modelcontextprotocol/codemod';
import { Project, SyntaxKind, type Node, type SourceFile } from 'ts-morph';
import { MARKERS } from '../vocabulary.js';
import { inferProjectType, type ProjectType } from './v1-detect.js';

// the text tests live apart so a run without v1 files never loads ts-morph and the codemod
export { countCodemodMarkers, inferProjectType, isV1Source, type ProjectType } from './v1-detect.js';

export interface V1Diagnostic {
  level: 'error' | 'warning' | 'info';
  /** 1-based line in the migrated text. */
  line: number;
  message: string;
}

export interface V1MigrationResult {
  source: string;
  changed: boolean;
  /** The codemod's change count. */
  changes: number;
  /** `@mcp-codemod-error` comments written into `source` by this run. */
  codemodMarkers: number;
  diagnostics: V1Diagnostic[];
}

const LITERAL_KINDS = new Set([
  SyntaxKind.NoSubstitutionTemplateLiteral,
  SyntaxKind.TemplateHead,
  SyntaxKind.TemplateMiddle,
  SyntaxKind.TemplateTail,
  SyntaxKind.StringLiteral,
  SyntaxKind.JsxText,
]);

let migration: Migration | undefined;
let project: Project | undefined;

function v1ToV2(): Migration {
  migration ??= getMigration('v1-to-v2');
  if (!migration) throw new Error('@modelcontextprotocol/codemod has no v1-to-v2 migration');
  return migration;
}

/** One in-memory project, reused: each file is added, migrated and removed again. */
function scratchProject(): Project {
  project ??= new Project({
    useInMemoryFileSystem: true,
    skipAddingFilesFromTsConfig: true,
    compilerOptions: { allowJs: true, noEmit: true },
  });
  return project;
}

/**
 * Migrates one v1 source text to SDK v2. Throws when a codemod transform throws (the caller keeps the
 * file as it was and reports the error). `path` only names the file (its extension picks the parser).
 */
export function migrateV1Source(input: { source: string; path: string; projectType?: ProjectType }): V1MigrationResult {
  const { source } = input;
  const bom = source.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = bom ? source.slice(1) : source;
  // Same framing the codemod runner restores: the shebang and the blank lines after it.
  const shebang = /^#![^\n]*\n(?:[ \t]*\r?\n)*/.exec(body)?.[0] ?? '';
  const text = body.slice(shebang.length);

  const scratch = scratchProject();
  const sf = scratch.createSourceFile(scratchPath(input.path), text, { overwrite: true });
  try {
    const context: TransformContext = { projectType: input.projectType ?? inferProjectType([text]) };
    const diagnostics: Diagnostic[] = [];
    let changes = 0;
    for (const transform of v1ToV2().transforms) {
      const result = transform.apply(sf, context);
      changes += result.changesCount;
      diagnostics.push(...result.diagnostics);
    }
    const kept = changes === 0 ? diagnostics.filter((d) => !d.advisoryOnly) : diagnostics;
    for (const d of kept) {
      if (!d.resolveCurrentLine) continue;
      try {
        d.line = d.resolveCurrentLine();
      } catch {
        // the node was replaced by a later transform: report the line it had, without a comment
        d.insertComment = false;
      }
    }
    const insertedAt = insertCodemodComments(sf, kept);
    const migrated = sf.getFullText();
    const shebangLines = (shebang.match(/\n/g) ?? []).length;
    // a comment inserted at or above a line pushes it down by one
    const shift = (line: number) => shebangLines + insertedAt.filter((at) => at <= line).length;
    const out = bom + shebang + migrated;
    return {
      source: out,
      changed: out !== source,
      changes,
      codemodMarkers: insertedAt.length,
      diagnostics: kept.map((d) => ({ level: d.level as V1Diagnostic['level'], line: d.line + shift(d.line), message: d.message })),
    };
  } finally {
    scratch.removeSourceFile(sf);
  }
}

/** The in-memory file name: any absolute path works; keep the extension so `.tsx`/`.js` parse right. */
function scratchPath(path: string): string {
  const ext = /\.[cm]?[jt]sx?$/.exec(path)?.[0] ?? '.ts';
  return `/scratch/file${ext}`;
}

/**
 * Writes the codemod's action-required comments as its runner does (bottom-up, merged, once).
 * Returns the (pre-insertion) lines that got one.
 */
function insertCodemodComments(sf: SourceFile, diagnostics: readonly Diagnostic[]): number[] {
  const wanted = diagnostics.filter((d) => d.insertComment).sort((a, b) => b.line - a.line);
  const merged: { line: number; message: string }[] = [];
  for (const d of wanted) {
    const prev = merged.at(-1);
    if (prev && prev.line === d.line) prev.message += ' | ' + d.message;
    else merged.push({ line: d.line, message: d.message });
  }
  const inserted: number[] = [];
  for (const m of merged) {
    const text = sf.getFullText();
    const lines = text.split('\n');
    const idx = m.line - 1;
    if (idx < 0 || idx >= lines.length) continue;
    if (idx > 0 && lines[idx - 1].includes(MARKERS.sdkCodemod)) continue;
    const eol = text.includes('\r\n') ? '\r\n' : '\n';
    const indent = /^(\s*)/.exec(lines[idx])?.[1] ?? '';
    const lineStart = lines.slice(0, idx).reduce((sum, l) => sum + l.length + 1, 0);
    if (insideLiteral(sf.getDescendantAtPos(lineStart))) continue;
    sf.insertText(lineStart, `${indent}/* ${MARKERS.sdkCodemod} ${m.message.replaceAll('*/', '* /')} */${eol}`);
    inserted.push(m.line);
  }
  return inserted;
}

function insideLiteral(node: Node | undefined): boolean {
  for (let n = node; n; n = n.getParent()) if (LITERAL_KINDS.has(n.getKind())) return true;
  return false;
}
