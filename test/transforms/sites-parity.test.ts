/**
 * The transforms find legacy calls on the Babel AST; the analyzer (ts-morph) and the ESLint rules
 * (TSESTree) find them on theirs. All three go through `matchLegacyCall` from src/vocabulary.ts; this
 * proves the transforms' finder reports exactly the sites each shared fixture declares in its
 * `@expect-sites:` header (line:column, kind and form).
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import { parseProgram, parserFor } from '../../transforms/lib/ast.js';
import { findLegacyCalls } from '../../transforms/lib/legacy-calls.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const files = fg.sync('fixtures/sites/**/*.{ts,mts,js,mjs}', { cwd: root, absolute: true }).sort();

/** `17:24 elicitation/elicitInput/auto, …` → ['17:24 elicitation/elicitInput', …]; `none` → []. */
function expectedSites(text: string): string[] | undefined {
  const header = /@expect-sites:\s*(.*)/.exec(text)?.[1]?.trim();
  if (header === undefined) return undefined;
  if (header === 'none') return [];
  return header.split(/,\s*/).map((entry) => {
    const [position, verdict] = entry.split(/\s+/);
    return `${position} ${verdict.split('/').slice(0, 2).join('/')}`;
  });
}

describe('transforms find the same sites as the shared fixtures declare', () => {
  it('has fixtures with headers', () => expect(files.filter((f) => expectedSites(readFileSync(f, 'utf8')) !== undefined).length).toBeGreaterThan(10));

  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const expected = expectedSites(text);
    if (expected === undefined) continue;
    it(relative(join(root, 'fixtures/sites'), file), () => {
      const found = findLegacyCalls(parseProgram(text, parserFor(file))).map(
        (c) => `${c.node.loc.start.line}:${c.node.loc.start.column + 1} ${c.kind}/${c.form}`,
      );
      expect(found.sort()).toEqual([...expected].sort());
    });
  }
});
