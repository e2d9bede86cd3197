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
 * order, as a line diff pairs them), except the lines in `untouchable` (0-based, of `after`).
 */
export function restoreIndentation(before: string, after: string, untouchable: ReadonlySet<number>): string {
  if (before === after) return after;
  const oldLines = before.split('\n');
  const newLines = after.split('\n');
  const body = (line: string): string => line.replace(/^[ \t]+/, '');
  let oldAt = 0;
  let newAt = 0;
  let changed = false;
  for (const part of diffArrays(oldLines.map(body), newLines.map(body))) {
    const count = part.count ?? part.value.length;
    if (part.added) {
      newAt += count;
      continue;
    }
    if (part.removed) {
      oldAt += count;
      continue;
    }
    for (let i = 0; i < count; i++, oldAt++, newAt++) {
      const was = oldLines[oldAt];
      const now = newLines[newAt];
      if (was === now || untouchable.has(newAt)) continue;
      newLines[newAt] = was.slice(0, was.length - body(was).length) + body(now);
      changed = true;
    }
  }
  return changed ? newLines.join('\n') : after;
}
