/**
 * No silent leftovers, and `auto` is a promise:
 * - every `auto` site of a file is in its plan (an ask the transform rewrites, alone or in a batch of
 *   sibling asks, or a roots request it retires); one that is not is a failure of the file (`AutoSiteNotPlannedError`), never a marker;
 * - every other site (but guarded ones) has a marker above its statement: the plan writes them; a
 *   site whose line survived without one (the plan missed it) gets one per reason here, so `check`
 *   and the summary still count it.
 */
import { diffArrays } from 'diff';
import ts from '../typescript.cjs';
import type { Site } from '../analyzer/model.js';
import type { FilePlan } from '../analyzer/plan/model.js';
import { REASONS, isReasonId } from '../analyzer/reasons.js';
import { MARKERS } from '../vocabulary.js';
import { mapLines } from './line-map.js';
import { insertMarkers, type MarkerRequest } from './markers.js';
import { scriptKindOf } from './verify.js';

export class AutoSiteNotPlannedError extends Error {
  constructor(site: Site) {
    super(`the analyzer reports an auto site at ${site.line}:${site.column} that the plan does not rewrite (a port bug: the file is left as it was)`);
    this.name = 'AutoSiteNotPlannedError';
  }
}

/** Throws when an `auto` site of `text` has no ask (or retired roots request) of `plan` at its position. */
export function checkAutoSitesPlanned(text: string, sites: readonly Site[], plan: FilePlan | null | undefined): void {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const batched = (plan?.batches ?? []).flatMap((b) => b.members.map((m) => m.ask.start));
  const starts = new Set([...(plan?.asks ?? []).map((a) => a.start), ...batched, ...(plan?.retiredRoots ?? []).map((r) => r.start)]);
  const lineStarts = [0];
  for (let i = 0; i < body.length; i++) if (body[i] === '\n') lineStarts.push(i + 1);
  for (const site of sites) {
    if (site.portability !== 'auto') continue;
    const offset = (lineStarts[site.line - 1] ?? -1) + site.column - 1;
    if (!starts.has(offset)) throw new AutoSiteNotPlannedError(site);
  }
}

/**
 * `after` with markers above each non-auto site's statement that has none (one per reason);
 * `added` counts them. `tree`: the analyzer's parse of `before`, used when it is of exactly the text
 * this would parse.
 */
export function markUnhandledSites(
  path: string,
  before: string,
  after: string,
  sites: readonly Site[],
  tree?: ts.SourceFile,
): { text: string; added: number } {
  const active = sites.filter((s) => s.portability === 'manual' || s.portability === 'unportable');
  if (active.length === 0) return { text: after, added: 0 };
  const oldLines = before.split(/\r?\n/);
  const newLines = after.split(/\r?\n/);
  const kept = keptLines(oldLines, newLines);
  // the call's line was rewritten: ported (or moved by the port); a marker right above the call's own
  // line (a one-line statement) is found without a parse
  const survivors = active.filter((site) => {
    const at = kept.get(site.line);
    return at !== undefined && !hasMarkerAbove(newLines, at - 1);
  });
  if (survivors.length === 0) return { text: after, added: 0 };
  let map: ((line: number) => number) | undefined;
  const mapLine = (line: number) => kept.get(line) ?? (map ??= mapLines(before, after))(line);
  const body = before.startsWith('\uFEFF') ? before.slice(1) : before;
  const sf = tree?.text === body ? tree : ts.createSourceFile(path, body, ts.ScriptTarget.Latest, true, scriptKindOf(path));

  const requests: MarkerRequest[] = [];
  for (const site of survivors) {
    const statementLine = statementStartLine(sf, site.line, site.column) ?? site.line;
    const target = mapLine(statementLine);
    if (hasMarkerAbove(newLines, target - 1)) continue;
    for (const reason of site.reasons) {
      if (requests.some((r) => r.line === target && r.reason === reason)) continue;
      requests.push({ line: target, reason, message: isReasonId(reason) ? REASONS[reason].advice : reason });
    }
  }
  return requests.length === 0 ? { text: after, added: 0 } : { text: insertMarkers(after, requests), added: requests.length };
}

/** 1-based original lines that appear unchanged in the output, with their output line. */
function keptLines(oldLines: readonly string[], newLines: readonly string[]): Map<number, number> {
  const kept = new Map<number, number>();
  let at = 1;
  let out = 1;
  for (const part of diffArrays(oldLines as string[], newLines as string[])) {
    const n = part.value.length;
    if (part.added) out += n;
    else if (part.removed) at += n;
    else {
      for (let k = 0; k < n; k++) kept.set(at + k, out + k);
      at += n;
      out += n;
    }
  }
  return kept;
}

/** The contiguous run of comment lines directly above `index` (0-based) holds a todo or ignore marker. */
function hasMarkerAbove(lines: readonly string[], index: number): boolean {
  for (let i = index - 1; i >= 0; i--) {
    const l = lines[i].trim();
    if (l.includes(MARKERS.todo) || l.includes(MARKERS.ignore)) return true;
    if (!(l.startsWith('//') || l.startsWith('/*') || l.startsWith('*'))) return false;
  }
  return false;
}

/** The line where the statement holding the call at (line, column) starts. */
function statementStartLine(sf: ts.SourceFile, line: number, column: number): number | undefined {
  let pos: number;
  try {
    pos = sf.getPositionOfLineAndCharacter(line - 1, column - 1);
  } catch {
    return undefined;
  }
  let node: ts.Node | undefined = innermost(sf, pos);
  while (node && !isListedStatement(node)) node = node.parent;
  return node ? sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1 : undefined;
}

/** The deepest node whose span holds `pos` (forEachChild: no token nodes are created). */
function innermost(root: ts.Node, pos: number): ts.Node {
  let found = root;
  const visit = (n: ts.Node): boolean | undefined => {
    if (n.pos <= pos && pos < n.end) {
      found = n;
      ts.forEachChild(n, visit);
      return true;
    }
    return undefined;
  };
  ts.forEachChild(root, visit);
  return found;
}

/** A statement in a statement list (a block, a module, a case clause): where a marker line may go. */
function isListedStatement(node: ts.Node): boolean {
  const p = node.parent;
  return !!p && (ts.isBlock(p) || ts.isSourceFile(p) || ts.isModuleBlock(p) || ts.isCaseClause(p) || ts.isDefaultClause(p)) && !ts.isBlock(node);
}
