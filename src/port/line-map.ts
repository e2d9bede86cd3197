/**
 * Maps 1-based lines of an original text to the lines of its transformed text, so markers computed
 * against the input land above the same statement in the output. Unchanged lines map exactly; a line
 * inside a rewritten hunk maps to the most similar line the hunk added (longest common prefix once
 * indentation is trimmed), or to the hunk's first added line.
 */
import { diffArrays } from 'diff';

export type LineMapper = (originalLine: number) => number;

export function mapLines(before: string, after: string): LineMapper {
  const oldLines = before.split(/\r?\n/);
  const newLines = after.split(/\r?\n/);
  const map = new Array<number>(oldLines.length + 1).fill(0);
  const changes = diffArrays(oldLines, newLines);
  let oldAt = 1;
  let newAt = 1;
  for (let i = 0; i < changes.length; i++) {
    const part = changes[i];
    const count = part.value.length;
    if (!part.added && !part.removed) {
      for (let k = 0; k < count; k++) map[oldAt + k] = newAt + k;
      oldAt += count;
      newAt += count;
      continue;
    }
    if (part.removed) {
      const next = changes[i + 1];
      const added = next?.added ? next.value : [];
      for (let k = 0; k < count; k++) map[oldAt + k] = newAt + closestLine(part.value[k], added);
      oldAt += count;
      if (next?.added) {
        newAt += added.length;
        i++;
      }
      continue;
    }
    newAt += count; // a pure insertion
  }
  return (line) => {
    if (line < 1) return 1;
    if (line >= map.length) return newLines.length;
    return map[line] || line;
  };
}

function closestLine(line: string, candidates: readonly string[]): number {
  if (candidates.length === 0) return 0;
  const want = line.trim();
  let best = 0;
  let bestScore = -1;
  candidates.forEach((c, i) => {
    const have = c.trim();
    let n = 0;
    while (n < want.length && n < have.length && want[n] === have[n]) n++;
    if (n > bestScore) {
      best = i;
      bestScore = n;
    }
  });
  return best;
}
