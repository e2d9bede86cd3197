/**
 * The port engine's fixtures (fixtures/transforms/resumable-handlers, docs/engine.md): the legacy handler
 * each one starts from is reported under configs.recommended, at its legacy calls; what the port writes
 * (`resumable(...)`, `once`, `elicit` & co.) lints clean under configs.strict, the new rules included. A
 * case the port leaves to a human keeps its legacy call and marker, and only those two rules speak there.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import plugin from '../../rules/plugin.js';
import { MARKERS } from '../../src/vocabulary.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SOURCES = '{ts,tsx,mts,cts,js,mjs,cjs}';
const inputs = fg.sync(`fixtures/transforms/resumable-handlers/*.input.${SOURCES}`, { cwd: root }).sort();
const MARKED_ONLY = new Set(['mrtr/no-legacy-server-requests', 'mrtr/no-unresolved-port-marker']);

function lint(file: string, config: Linter.Config): Linter.LintMessage[] {
  const linter = new Linter({ configType: 'flat', cwd: root });
  const configs: Linter.Config[] = [
    { files: [`**/*.${SOURCES}`], languageOptions: { parser: tsParser, ecmaVersion: 'latest', sourceType: 'module' } },
    { ...config, files: [`**/*.${SOURCES}`], ignores: [] },
  ];
  return linter.verify(readFileSync(join(root, file), 'utf8'), configs, join(root, file));
}

const show = (m: Linter.LintMessage): string => `${m.line}:${m.column} ${m.ruleId ?? 'parse'}: ${m.message}`;

describe('fixtures/transforms/resumable-handlers under the mrtr rules', () => {
  it('finds the port engine fixtures, each input with its output', () => {
    expect(inputs.length).toBeGreaterThanOrEqual(20);
    for (const input of inputs) expect(existsSync(join(root, input.replace('.input.', '.output.'))), input).toBe(true);
  });

  describe.each(inputs)('%s', (input) => {
    const output = input.replace('.input.', '.output.');

    it('the legacy input is reported under recommended, at its legacy calls', () => {
      const messages = lint(input, plugin.configs.recommended);
      expect(messages.filter((m) => m.fatal)).toEqual([]);
      expect(messages.some((m) => m.ruleId === 'mrtr/no-legacy-server-requests'), `${basename(input)}: ${messages.map(show).join('; ')}`).toBe(true);
    });

    it('the ported output lints clean under strict', () => {
      const marked = readFileSync(join(root, output), 'utf8').includes(MARKERS.todo);
      const messages = lint(output, plugin.configs.strict).filter((m) => !(marked && m.ruleId && MARKED_ONLY.has(m.ruleId)));
      expect(messages.map(show)).toEqual([]);
    });
  });
});
