/**
 * `@mrtr-port-todo(<reason>): <what to do>` markers: written by `port` on their own line above the
 * statement a human must decide, acknowledged by `// @mrtr-port-ignore <why>` on the line above,
 * counted by `check` and shown by the `no-unresolved-port-marker` rule.
 * Text-level on purpose: it runs after every AST transform, on the final text.
 */
import { MARKERS } from '../vocabulary.js';

export interface FoundMarker {
  /** 1-based. */
  line: number;
  column: number;
  reason: string;
  message: string;
  /** An `@mrtr-port-ignore` on the line above acknowledges it. */
  acknowledged: boolean;
}

// The block form `port` writes, and the line form (`// @mrtr-port-todo(roots-retired): …`) people write by hand.
const TODO_RE = /\/\*\s*@mrtr-port-todo\(([\w-]+)\):\s*([\s\S]*?)\s*\*\/|\/\/[ \t]*@mrtr-port-todo\(([\w-]+)\):[ \t]*([^\r\n]*?)[ \t]*$/gm;

/** Every todo marker in a file's text (comments only: the regex needs the comment delimiters; the marker starts its comment). */
export function findMarkers(text: string): FoundMarker[] {
  if (!text.includes(MARKERS.todo)) return [];
  const lines = text.split(/\r?\n/);
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  const found: FoundMarker[] = [];
  for (const m of text.matchAll(TODO_RE)) {
    const offset = m.index ?? 0;
    let line = lineStarts.length - 1;
    while (lineStarts[line] > offset) line--;
    const above = line > 0 ? lines[line - 1] : '';
    found.push({
      line: line + 1,
      column: offset - lineStarts[line] + 1,
      reason: m[1] ?? m[3],
      message: m[2] ?? m[4],
      acknowledged: above.includes(MARKERS.ignore),
    });
  }
  return found;
}

export interface MarkerRequest {
  /** 1-based line of the statement the marker goes above. */
  line: number;
  reason: string;
  message: string;
}

/**
 * Inserts each marker on its own line above `line`, at that line's indentation; keeps the file's
 * line ending; merges requests for the same line; never inserts twice (a line already preceded by a
 * todo or ignore marker for that reason is left alone); escapes a stray comment end in the message.
 * Callers pass statement-start lines, so a marker never lands inside an expression or template literal.
 */
export function insertMarkers(text: string, requests: readonly MarkerRequest[]): string {
  if (requests.length === 0) return text;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  const byLine = new Map<number, MarkerRequest[]>();
  for (const r of requests) {
    const list = byLine.get(r.line) ?? [];
    if (!list.some((x) => x.reason === r.reason)) list.push(r);
    byLine.set(r.line, list);
  }
  // bottom-up so earlier line numbers stay valid
  for (const line of [...byLine.keys()].sort((a, b) => b - a)) {
    const idx = line - 1;
    if (idx < 0 || idx >= lines.length) continue;
    const indent = /^[ \t]*/.exec(lines[idx])?.[0] ?? '';
    const existing = precedingMarkerBlock(lines, idx);
    const fresh = byLine
      .get(line)!
      .filter((r) => !existing.some((e) => e.includes(`${MARKERS.todo}(${r.reason})`) || e.includes(MARKERS.ignore)));
    if (fresh.length === 0) continue;
    const inserted = fresh.map((r) => `${indent}/* ${MARKERS.todo}(${r.reason}): ${r.message.replace(/\*\//g, '* /')} */`);
    lines.splice(idx, 0, ...inserted);
  }
  return lines.join(eol);
}

/** The marker/ignore comment lines directly above a line (a run of them). */
function precedingMarkerBlock(lines: readonly string[], idx: number): string[] {
  const block: string[] = [];
  for (let i = idx - 1; i >= 0; i--) {
    const l = lines[i];
    if (l.includes(MARKERS.todo) || l.includes(MARKERS.ignore)) block.push(l);
    else break;
  }
  return block;
}
