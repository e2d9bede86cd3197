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
 *
 * Two kinds of file the codemod alone would leave calling removed v1 APIs (the server then throws at
 * start-up, `server.tool is not a function`):
 * - a module with no MCP import at all (a tool module given the server as a parameter): a sentinel
 *   v2 import lets the codemod's McpServer transform run on it, for the receivers it can prove are a
 *   server by name (`server`, `mcpServer`, `this.mcp`…); the sentinel is removed afterwards;
 * - a CommonJS file: its requires are bridged to imports and back (cjs-bridge.ts).
 * A v1-only call that is still there afterwards (a receiver the codemod could not prove) gets an
 * `@mcp-codemod-error` comment saying how to migrate it, so `check` fails until a human has.
 *
 * One deliberate difference from the codemod's own output: the calls the caller says to keep (`keep`:
 * shown by v1-foreign-receivers.ts to call a method of the repository's own object, `log.tool(…)` on a
 * logger) are shielded from its transforms and come out as they went in (v1-kept-calls.ts).
 */
import { createRequire } from 'node:module';
import type * as CodemodModule from '@modelcontextprotocol/codemod';
import type { Diagnostic, Migration, TransformContext } from '@modelcontextprotocol/codemod';
import type * as TsMorphModule from 'ts-morph';
import type { Project, ts } from 'ts-morph';
import { MARKERS } from '../vocabulary.js';
import { importsToRequires, requiresToImports } from './cjs-bridge.js';
import { moduleSystemOf, type ModuleSystem } from './helper-file.js';
import { shieldDescriptions } from './v1-description-args.js';
import { linesInsideLiterals, restoreIndentation } from './v1-indentation.js';
import { shieldNames, unshieldNames } from './v1-kept-calls.js';
import { inferProjectType, type ProjectType } from './v1-detect.js';
import { findV1OnlyCalls } from './v1-only-calls.js';

// Both through `require`: an ESM import of a CommonJS package makes Node scan its text for export names
// (cjs-module-lexer), and the codemod's ESM build imports ts-morph that way. Its CommonJS build requires
// it: no scan at all (about 0.2 s of a v1 port's critical path; the worker starts with this load).
const load = createRequire(import.meta.url);
const { getMigration } = load('@modelcontextprotocol/codemod') as typeof CodemodModule;
const { Project: ProjectClass, SyntaxKind, ts: tsMorphTs } = load('ts-morph') as typeof TsMorphModule;

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
  /** v1-only registration calls (`x.tool(…)`) still in `source`, each marked; 1-based lines. */
  v1OnlyCalls: number[];
  /** Calls of `keep` left as written (shielded from the codemod). */
  kept: number;
}

/** Makes any file look like an MCP module to the codemod's transforms; removed after them. */
const SENTINEL_SPECIFIER = '@modelcontextprotocol/server/mrtr-port-sentinel';
const SENTINEL = `import '${SENTINEL_SPECIFIER}';\n`;
const MCP_IMPORT_RE = /^\s*import\b[^;]*?['"]@modelcontextprotocol\//m;

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
  project ??= new ProjectClass({
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
export function migrateV1Source(input: { source: string; path: string; projectType?: ProjectType; module?: ModuleSystem; keep?: readonly number[] }): V1MigrationResult {
  const { source } = input;
  const bom = source.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = bom ? source.slice(1) : source;
  // Same framing the codemod runner restores: the shebang and the blank lines after it.
  const shebang = /^#![^\n]*\n(?:[ \t]*\r?\n)*/.exec(body)?.[0] ?? '';
  // `keep` counts in `source`: the calls to keep, by the offset of their method name
  const shielded = shieldNames(body.slice(shebang.length), (input.keep ?? []).map((at) => at - bom.length - shebang.length));
  const original = shielded.text;
  const commonJs = (input.module ?? moduleSystemOf(input.path, original, 'commonjs')) === 'cjs';
  let text = commonJs ? requiresToImports(original, input.path) : original;
  // a description the codemod would take for the schema (`'…' + '…'`, a const): a literal while it runs
  const described = shieldDescriptions(text, input.path);
  text = described.text;
  const sentinel = !MCP_IMPORT_RE.test(text);
  if (sentinel) text = SENTINEL + text;

  const scratch = scratchProject();
  const sf = scratch.createSourceFile(scratchPath(input.path), text, { overwrite: true });
  try {
    const context: TransformContext = { projectType: input.projectType ?? inferProjectType([original]) };
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
        // the node was replaced by a later transform: an import named by its specifier is found again
        // (else a second run, with nothing left to replace, writes the comment the first one dropped);
        // otherwise report the line it had, without a comment
        const line = importLineOf(d.message, sf.getFullText());
        if (line !== undefined) d.line = line;
        else d.insertComment = false;
      }
    }
    // the codemod's printer re-indents the code it moves: each kept line gets its own indentation back
    let migrated = restoreIndentation(text, sf.getFullText(), linesInsideLiterals(sf.compilerNode, tsMorphTs));
    // the sentinel is line 1 while the transforms run; everything below it moves up once it is gone
    const sentinelLines = sentinel ? 1 : 0;
    if (sentinel) migrated = removeSentinel(migrated, input.path);
    if (commonJs) migrated = importsToRequires(migrated, input.path, original);
    migrated = described.restore(migrated);
    const kept2 = kept.map((d) => ({ ...d, line: Math.max(1, d.line - sentinelLines) }));
    const leftovers = findV1OnlyCalls(migrated, input.path);
    const commented = insertCodemodComments(migrated, [...kept2, ...leftovers.map(leftoverDiagnostic)]);
    const shebangLines = (shebang.match(/\n/g) ?? []).length;
    // a comment inserted at or above a line pushes it down by one
    const shift = (line: number) => shebangLines + commented.insertedAt.filter((at) => at <= line).length;
    const out = changes === 0 && leftovers.length === 0 && commented.insertedAt.length === 0 ? source : bom + shebang + unshieldNames(commented.text);
    return {
      source: out,
      changed: out !== source,
      changes,
      codemodMarkers: commented.insertedAt.length,
      diagnostics: kept2.map((d) => ({ level: d.level as V1Diagnostic['level'], line: d.line + shift(d.line), message: unshieldNames(d.message) })),
      v1OnlyCalls: leftovers.map((c) => c.line + shift(c.line)),
      kept: shielded.count,
    };
  } finally {
    scratch.removeSourceFile(sf);
  }
}

/** The codemod's "Unknown SDK import path: <specifier>." names an import: the 1-based line that imports (or requires) it, when exactly one does. */
function importLineOf(message: string, text: string): number | undefined {
  const specifier = /^Unknown SDK import path: (\S+?)\.? Manual migration required\./.exec(message)?.[1];
  if (!specifier) return undefined;
  const lines = text.split('\n');
  const quoted = [`'${specifier}'`, `"${specifier}"`, `\`${specifier}\``];
  const found = lines.flatMap((l, i) => (quoted.some((q) => l.includes(q)) && /\b(import|from|require)\b/.test(l) ? [i + 1] : []));
  return found.length === 1 ? found[0] : undefined;
}

/** What a human must do with a v1-only call the codemod left (its receiver is not provably an McpServer). */
function leftoverDiagnostic(call: { line: number; method: string; receiver: string }): Diagnostic {
  const target = call.method === 'tool' ? 'registerTool(name, { description, inputSchema: z.object(shape) }, handler)' : call.method === 'prompt' ? 'registerPrompt(name, { description, argsSchema: z.object(shape) }, handler)' : 'registerResource(name, uriOrTemplate, metadata, handler)';
  return {
    level: 'error' as Diagnostic['level'],
    file: '',
    line: call.line,
    insertComment: true,
    message: `(mrtr-port) ${call.receiver}.${call.method}() is SDK v1 API that SDK v2 removed; if ${call.receiver} is an McpServer this throws at start-up. Rewrite it as ${call.receiver}.${target}.`,
  };
}

/** The text without the sentinel import (wherever the transforms left it), line and all. */
function removeSentinel(text: string, path: string): string {
  const at = text.indexOf(SENTINEL_SPECIFIER);
  if (at < 0) return text;
  const lineStart = text.lastIndexOf('\n', at) + 1;
  const eol = text.indexOf('\n', at);
  const line = text.slice(lineStart, eol < 0 ? text.length : eol + 1);
  if (!/^\s*import\s*['"]/.test(line)) throw new Error(`${path}: the v1 migration moved its sentinel import into other code`);
  return text.slice(0, lineStart) + text.slice(lineStart + line.length);
}

/** The in-memory file name: any absolute path works; keep the extension so `.tsx`/`.js` parse right. */
function scratchPath(path: string): string {
  const ext = /\.[cm]?[jt]sx?$/.exec(path)?.[0] ?? '.ts';
  return `/scratch/file${ext}`;
}

/**
 * Writes the codemod's action-required comments as its runner does (bottom-up, merged, once, never
 * inside a literal). Returns the text and the (pre-insertion) lines that got one.
 */
function insertCodemodComments(source: string, diagnostics: readonly Diagnostic[]): { text: string; insertedAt: number[] } {
  const wanted = diagnostics.filter((d) => d.insertComment).sort((a, b) => b.line - a.line);
  const merged: { line: number; message: string }[] = [];
  for (const d of wanted) {
    const prev = merged.at(-1);
    if (prev && prev.line === d.line) prev.message += ' | ' + d.message;
    else merged.push({ line: d.line, message: d.message });
  }
  if (merged.length === 0) return { text: source, insertedAt: [] };
  // one parse: the comments go in bottom-up, so every check and offset above the last insertion holds
  const sf = tsMorphTs.createSourceFile('/scratch/comments.tsx', source, tsMorphTs.ScriptTarget.Latest, false, tsMorphTs.ScriptKind.TSX);
  const lines = source.split('\n');
  const lineStarts = [0];
  for (const l of lines) lineStarts.push(lineStarts[lineStarts.length - 1] + l.length + 1);
  const eol = source.includes('\r\n') ? '\r\n' : '\n';
  const inserted: number[] = [];
  let text = source;
  for (const m of merged) {
    const idx = m.line - 1;
    if (idx < 0 || idx >= lines.length) continue;
    if (idx > 0 && lines[idx - 1].includes(MARKERS.sdkCodemod)) continue;
    const indent = /^(\s*)/.exec(lines[idx])?.[1] ?? '';
    const lineStart = lineStarts[idx];
    if (insideLiteral(sf, lineStart)) continue;
    text = `${text.slice(0, lineStart)}${indent}/* ${MARKERS.sdkCodemod} ${m.message.replaceAll('*/', '* /')} */${eol}${text.slice(lineStart)}`;
    inserted.push(m.line);
  }
  return { text, insertedAt: inserted };
}

/** Is `pos` inside a string, template or JSX text (where a comment would become part of the value)? */
function insideLiteral(sf: ts.SourceFile, pos: number): boolean {
  for (let node: ts.Node = sf; ; ) {
    const child = node.getChildren(sf).find((c) => pos >= c.pos && pos < c.end);
    if (!child) return false;
    if (LITERAL_KINDS.has(child.kind)) return true;
    node = child;
  }
}
