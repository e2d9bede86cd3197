/**
 * The official codemod re-indents the code it moves: a v1 `server.tool(name, shape, handler)` rewritten to
 * `registerTool(name, { inputSchema }, handler)` gets its handler body pushed right by ts-morph's printer
 * (by its indentation level times its indent unit, whatever the file used). On a real v1 server
 * (fastmail-mcp-server) that was 2,973 changed lines of which 257 changed anything but leading
 * whitespace, and how far a line moved depended on what the same ts-morph project had migrated before
 * (`port src/x.ts` and `port .` wrote different text). So every line the migration kept as it was, apart
 * from its leading whitespace, gets its own indentation back.
 *
 * Leading whitespace means nothing to JavaScript outside a literal: a line that starts inside a template
 * literal, a multi-line string or JSX text is never touched. Line count and order do not change, so the
 * codemod's diagnostics keep their lines.
 */
import { diffArrays } from 'diff';
import type { ts as TsMorphTs } from 'ts-morph';

/** The 0-based lines of `sf` that begin inside a literal spanning lines (their leading whitespace is text). */
export function linesInsideLiterals(sf: TsMorphTs.SourceFile, ts: typeof TsMorphTs): Set<number> {
  const inside = new Set<number>();
  const literal = new Set<TsMorphTs.SyntaxKind>([
    ts.SyntaxKind.NoSubstitutionTemplateLiteral,
    ts.SyntaxKind.TemplateHead,
    ts.SyntaxKind.TemplateMiddle,
    ts.SyntaxKind.TemplateTail,
    ts.SyntaxKind.StringLiteral,
    ts.SyntaxKind.JsxText,
  ]);
  const visit = (node: TsMorphTs.Node): void => {
    if (literal.has(node.kind)) {
      const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(node.end).line;
      for (let line = first + 1; line <= last; line++) inside.add(line);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return inside;
}

/**
 * `after` with the leading whitespace of `before` on every line the two share apart from it (paired in
 * order, as a line diff pairs them), except the lines in `untouchable` (0-based, of `after`). A line the
 * codemod rewrote (`extra` → `ctx`, a registration's first line) has no twin in `before`: when a run of
 * rewritten lines replaces as many old lines, each takes its old line's indentation; otherwise its first
 * line takes the old run's first line's, its last (or a closing `});`) the old run's last line's, and the
 * lines between are shifted back as far as the nearby shared line of their level was pushed.
 */
export function restoreIndentation(before: string, after: string, untouchable: ReadonlySet<number>): string {
  if (before === after) return after;
  const oldLines = before.split('\n');
  const newLines = after.split('\n');
  const printed = [...newLines]; // as the codemod printed them, for the shifts
  const parts = diffArrays(oldLines.map(body), newLines.map(body));
  /** Per line of `after`: the old line it is paired with, or -1 for a rewritten one. */
  const pairedWith = new Array<number>(newLines.length).fill(-1);
  /** Runs of rewritten lines: where they start in each text, and how many on each side. */
  const rewritten: { oldAt: number; oldCount: number; newAt: number; newCount: number }[] = [];
  let oldAt = 0;
  let newAt = 0;
  for (const part of parts) {
    const count = part.count ?? part.value.length;
    if (part.removed || part.added) {
      let run = rewritten.at(-1);
      if (!run || run.oldAt + run.oldCount !== oldAt || run.newAt + run.newCount !== newAt) {
        run = { oldAt, oldCount: 0, newAt, newCount: 0 };
        rewritten.push(run);
      }
      if (part.removed) {
        run.oldCount += count;
        oldAt += count;
      } else {
        run.newCount += count;
        newAt += count;
      }
      continue;
    }
    for (let i = 0; i < count; i++) pairedWith[newAt + i] = oldAt + i;
    oldAt += count;
    newAt += count;
  }

  let changed = false;
  const reindent = (at: number, indent: string): void => {
    if (untouchable.has(at)) return;
    const now = indent + body(newLines[at]);
    if (now !== newLines[at]) {
      newLines[at] = now;
      changed = true;
    }
  };
  // the shared line nearest in level: the deepest one not deeper than the line (the nearest first), within a
  // few lines either side; the codemod pushed a whole block by the same amount
  const shiftOf = (at: number): { from: string; to: string } | undefined => {
    const width = leading(printed[at]).length;
    let best: { j: number; width: number; distance: number } | undefined;
    for (let j = Math.max(0, at - 40); j < Math.min(newLines.length, at + 41); j++) {
      const old = pairedWith[j];
      if (old < 0 || body(printed[j]) === '') continue;
      const w = leading(printed[j]).length;
      const distance = Math.abs(j - at);
      if (w > width) continue;
      if (!best || w > best.width || (w === best.width && distance < best.distance)) best = { j, width: w, distance };
    }
    return best && { from: leading(printed[best.j]), to: leading(oldLines[pairedWith[best.j]]) };
  };
  /** The first (or last) old line of a run that is not blank. */
  const oldEnd = (run: { oldAt: number; oldCount: number }, fromLast: boolean): number | undefined => {
    for (let k = 0; k < run.oldCount; k++) {
      const j = fromLast ? run.oldAt + run.oldCount - 1 - k : run.oldAt + k;
      if (body(oldLines[j]) !== '') return j;
    }
    return undefined;
  };
  for (let at = 0; at < newLines.length; at++) if (pairedWith[at] >= 0) reindent(at, leading(oldLines[pairedWith[at]]));
  for (const run of rewritten) {
    for (let i = 0; i < run.newCount; i++) {
      const at = run.newAt + i;
      if (body(newLines[at]) === '') continue;
      if (run.oldCount === run.newCount) {
        reindent(at, leading(oldLines[run.oldAt + i]));
        continue;
      }
      // the ends of a rewritten run stand where the ends of the old run stood (a registration's first line,
      // its closing `});`); a closing line goes with the old run's last line
      const first = i === 0;
      const last = i === run.newCount - 1;
      const end = first || last ? oldEnd(run, last && (!first || /^[)\]}]/.test(body(printed[at])))) : undefined;
      if (end !== undefined) {
        reindent(at, leading(oldLines[end]));
        continue;
      }
      const shift = shiftOf(at);
      const indent = leading(printed[at]);
      if (shift && indent.startsWith(shift.from)) reindent(at, shift.to + indent.slice(shift.from.length));
    }
  }
  return changed ? newLines.join('\n') : after;
}

function body(line: string): string {
  return line.replace(/^[ \t]+/, '');
}

function leading(line: string): string {
  return line.slice(0, line.length - body(line).length);
}
