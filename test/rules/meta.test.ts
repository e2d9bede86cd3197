/**
 * The plugin's completeness: every rule file is registered under its own name, documented with the
 * required sections, tested with valid and invalid cases, placed in the configs its meta asks for, and
 * listed in docs/eslint-plugin.md as its meta says. Then the configs are loaded into a real ESLint.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { defineConfig } from 'eslint/config';
import fg from 'fast-glob';
import { afterAll, describe, expect, it } from 'vitest';
import { rules } from '../../rules/index.js';
import plugin from '../../rules/plugin.js';
import { MARKERS } from '../../src/vocabulary.js';
import { URL_ACCEPT_RULE, allowedOnPortedOutput } from './ported-outputs.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// Snippets are linted as files of an empty project of their own: rules that look at the rest of the
// project (the verify seam) must not see this repository's sources.
const sandbox = mkdtempSync(join(tmpdir(), 'mrtr-meta-'));
writeFileSync(join(sandbox, 'package.json'), '{ "name": "sandbox", "private": true }');
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));
/** Files in rules/ that are not rules. */
const NOT_RULES = new Set(['index.ts', 'plugin.ts', 'create-rule.ts']);
const ruleFiles = readdirSync(join(root, 'rules'), { withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith('.ts') && !NOT_RULES.has(e.name))
  .map((e) => e.name.replace(/\.ts$/, ''))
  .sort();
const registered = rules as Record<string, (typeof rules)[keyof typeof rules]>;
const DOC_SECTIONS = ['## Rule Details', '### ❌ Incorrect', '### ✅ Correct', '## Options', '## When Not To Use It'];

interface RuleMetaView {
  name: string;
  meta: {
    type: string;
    docs?: { description: string; recommended: 'recommended' | 'strict'; requiresTypeChecking: boolean; url?: string };
    hasSuggestions?: boolean;
    messages: Record<string, string>;
    schema: unknown;
  };
}

describe('rule registry', () => {
  it('finds rule files', () => {
    expect(ruleFiles.length).toBeGreaterThanOrEqual(8);
  });

  it('registers exactly the rule files, alphabetically', () => {
    expect(Object.keys(rules)).toEqual(ruleFiles);
  });

  describe.each(ruleFiles)('%s', (file) => {
    const rule = registered[file] as unknown as RuleMetaView;

    it('is named after its file and has complete meta', () => {
      expect(rule, `rules/index.ts is missing ${file}`).toBeDefined();
      expect(rule.name).toBe(file);
      expect(rule.meta.type).toBe('problem');
      expect(rule.meta.docs?.requiresTypeChecking).toBe(false);
      expect(['recommended', 'strict']).toContain(rule.meta.docs?.recommended);
      expect(rule.meta.docs?.description).toMatch(/^[A-Z][^\n]*\.$/); // one sentence, imperative, capitalised
      expect(rule.meta.docs?.url).toBe(`https://github.com/mrtr-port/mrtr-port/blob/main/docs/rules/${file}.md`);
      for (const id of Object.keys(rule.meta.messages)) expect(id).toMatch(/^[a-z][a-zA-Z]*$/);
    });

    it('has an option schema that closes objects and describes each option', () => {
      for (const item of [rule.meta.schema].flat() as { type?: string; properties?: Record<string, { description?: string }>; additionalProperties?: boolean }[]) {
        if (item.type !== 'object') continue;
        expect(item.additionalProperties).toBe(false);
        for (const [option, spec] of Object.entries(item.properties ?? {})) expect(spec.description, option).toBeTruthy();
      }
    });

    it('has docs/rules/<name>.md with title, description and the required sections', () => {
      const path = join(root, 'docs', 'rules', `${file}.md`);
      expect(existsSync(path), path).toBe(true);
      const doc = readFileSync(path, 'utf8');
      const lines = doc.split('\n');
      expect(lines[0]).toBe(`# mrtr/${file}`);
      expect(lines[2]).toBe(rule.meta.docs?.description);
      let last = -1;
      for (const section of DOC_SECTIONS) {
        const at = doc.indexOf(`\n${section}\n`);
        expect(at, `${file}.md lacks "${section}"`).toBeGreaterThan(last);
        last = at;
      }
      const badge = lines.find((l) => l.startsWith('💼')) ?? '';
      expect(badge.includes('`recommended`'), `${file}.md badge line`).toBe(rule.meta.docs?.recommended === 'recommended');
      expect(badge.includes('💡 has suggestions'), `${file}.md suggestions badge`).toBe(rule.meta.hasSuggestions === true);
      // Every option in the schema is documented under ## Options.
      const options = doc.slice(doc.indexOf('\n## Options\n'), doc.indexOf('\n## When Not To Use It\n'));
      for (const item of [rule.meta.schema].flat() as { properties?: Record<string, unknown> }[]) {
        for (const option of Object.keys(item.properties ?? {})) expect(options, `${file}.md option ${option}`).toContain(`\`${option}\``);
      }
    });

    it('has RuleTester cases: at least one valid and one invalid', () => {
      const path = join(root, 'test', 'rules', `${file}.test.ts`);
      expect(existsSync(path), path).toBe(true);
      const text = readFileSync(path, 'utf8');
      expect(text).toMatch(new RegExp(`ruleTester\\.run\\(\\s*'${file}'`));
      expect(text).toMatch(/\bvalid:\s*\[\s*[^\s\]]/);
      expect(text).toMatch(/\binvalid:\s*\[\s*[^\s\]]/);
    });

    it('is in strict, and in recommended exactly when its docs say so', () => {
      const id = `mrtr/${file}`;
      expect(plugin.configs.strict.rules?.[id]).toBe('error');
      expect(plugin.configs.recommended.rules?.[id]).toBe(rule.meta.docs?.recommended === 'recommended' ? 'error' : undefined);
    });
  });
});

/** Rules whose docs examples are complete code: each ❌ block trips the rule, each ✅ block does not. */
const DOC_EXAMPLES_CHECKED = [
  'require-at-most-once-final-round',
  'no-input-required-outside-eligible-handlers',
  'no-secrets-in-request-state',
  'no-side-effects-before-last-answer',
  'no-unresolved-port-marker',
  'no-unsigned-request-state',
  'require-capability-check',
  'require-decline-cancel-branches',
  'require-request-state-binding',
  'require-request-state-verification',
];

describe.each(DOC_EXAMPLES_CHECKED)('docs/rules/%s.md examples', (name) => {
  const doc = readFileSync(join(root, 'docs', 'rules', `${name}.md`), 'utf8');
  const section = (from: string, to: string): string[] => {
    const start = doc.indexOf(from);
    const end = doc.indexOf(to, start + from.length);
    return [...doc.slice(start, end).matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
  };
  const incorrect = section('### ❌ Incorrect', '### ✅ Correct');
  const correct = section('### ✅ Correct', '\n## ');
  const linter = new Linter({ configType: 'flat', cwd: sandbox });
  const reports = (code: string): string[] =>
    linter
      .verify(code, [{ files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { mrtr: plugin }, rules: { [`mrtr/${name}`]: 'error' } }], { filename: 'example.ts' })
      .map((m) => `${m.line}:${m.column} ${m.ruleId ?? 'parse error'}: ${m.message}`);

  it('has ❌ and ✅ examples', () => {
    expect(incorrect.length).toBeGreaterThan(0);
    expect(correct.length).toBeGreaterThan(0);
  });
  it.each(incorrect.map((code, i) => [i + 1, code]))('❌ example %i is reported', (_i, code) => {
    const found = reports(code as string);
    expect(found.length).toBeGreaterThan(0);
    for (const r of found) expect(r).toContain(`mrtr/${name}`);
  });
  it.each(correct.map((code, i) => [i + 1, code]))('✅ example %i is clean', (_i, code) => {
    expect(reports(code as string)).toEqual([]);
  });
});

describe('plugin object and configs', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    version: string;
    repository?: { type?: string; url?: string };
    homepage?: string;
    bugs?: { url?: string };
  };

  it('every docs.url is a page of the repository package.json declares, and the page exists here', () => {
    const url = pkg.repository?.url ?? '';
    expect(pkg.repository?.type).toBe('git');
    const web = url.replace(/^git\+/, '').replace(/\.git$/, '');
    expect(web).toMatch(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/);
    expect(pkg.homepage).toBe(`${web}#readme`);
    expect(pkg.bugs?.url).toBe(`${web}/issues`);
    for (const file of ruleFiles) {
      const docsUrl = (registered[file] as unknown as RuleMetaView).meta.docs?.url ?? '';
      const prefix = `${web}/blob/main/`;
      expect(docsUrl.startsWith(prefix), docsUrl).toBe(true);
      expect(existsSync(join(root, docsUrl.slice(prefix.length))), docsUrl).toBe(true);
    }
  });

  it('applies recommended and strict to sources, not tests; tests is the variant for test files', () => {
    const { recommended, strict, tests } = plugin.configs;
    for (const config of [recommended, strict]) {
      expect(config.files).toEqual(['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}']);
      expect(config.ignores).toEqual(tests.files);
    }
    expect(tests.name).toBe('mrtr/tests');
    expect(tests.plugins?.mrtr).toBe(plugin);
    const inTests = Object.keys(tests.rules ?? {});
    // Only recommended rules, and the ones about handlers a test defines and leftover markers.
    for (const id of inTests) expect(recommended.rules?.[id]).toBe('error');
    expect(inTests).toContain('mrtr/no-unresolved-port-marker');
    expect(inTests).toContain('mrtr/require-decline-cancel-branches');
    expect(inTests).not.toContain('mrtr/no-unsigned-request-state');
    expect(inTests).not.toContain('mrtr/require-request-state-binding');
  });

  it('has meta with the package name, version and the mrtr namespace', () => {
    expect(plugin.meta).toEqual({ name: 'mrtr-port', version: pkg.version, namespace: 'mrtr' });
    expect(plugin.rules).toBe(rules as unknown);
  });

  it('builds named flat configs that hold the plugin object itself; recommended ⊂ strict', () => {
    expect(plugin.configs.recommended.name).toBe('mrtr/recommended');
    expect(plugin.configs.strict.name).toBe('mrtr/strict');
    expect(plugin.configs.recommended.plugins?.mrtr).toBe(plugin);
    expect(plugin.configs.strict.plugins?.mrtr).toBe(plugin);
    const recommended = Object.keys(plugin.configs.recommended.rules ?? {});
    const strict = Object.keys(plugin.configs.strict.rules ?? {});
    expect(recommended.length).toBeGreaterThan(0);
    for (const id of recommended) expect(strict).toContain(id);
    expect(strict.sort()).toEqual(Object.keys(rules).map((n) => `mrtr/${n}`).sort());
  });

  it('lists every rule in docs/eslint-plugin.md as its meta says', () => {
    const doc = readFileSync(join(root, 'docs', 'eslint-plugin.md'), 'utf8');
    const table = doc.slice(doc.indexOf('<!-- rules-table'), doc.indexOf('<!-- /rules-table -->'));
    const rows = table.split('\n').filter((l) => l.startsWith('| [`mrtr/'));
    expect(rows).toHaveLength(ruleFiles.length);
    for (const file of ruleFiles) {
      const rule = registered[file] as unknown as RuleMetaView;
      const row = rows.find((r) => r.startsWith(`| [\`mrtr/${file}\`](rules/${file}.md) |`));
      expect(row, `docs/eslint-plugin.md row for ${file}`).toBeDefined();
      const cells = row!.split(' | ').map((c) => c.replace(/^\| |\s*\|$/g, '').trim());
      expect(cells[1]).toBe(rule.meta.docs?.description);
      expect(cells[2]).toBe(rule.meta.docs?.recommended === 'recommended' ? '💼' : '');
      expect(cells[3]).toBe('🔒');
      expect(cells[4]).toBe(rule.meta.hasSuggestions ? '💡' : '');
    }
  });
});

describe('configs in a real ESLint', () => {
  const linter = new Linter({ configType: 'flat', cwd: sandbox });
  // Typed as users type eslint.config.ts: the configs must fit ESLint's own Linter.Config without casts.
  const lint = (code: string, config: Linter.Config, filename = 'server.ts'): Linter.LintMessage[] => {
    const configs: Linter.Config[] = [{ files: ['**/*.ts'], languageOptions: { parser: tsParser } }, { files: ['**/*.ts'], ...config }];
    return linter.verify(code, configs, { filename });
  };

  it('recommended reports a plain-text requestState under the mrtr namespace', () => {
    const messages = lint(`export const r = inputRequired({ inputRequests: {}, requestState: JSON.stringify({ step: 1 }) });`, plugin.configs.recommended);
    expect(messages.map((m) => m.ruleId)).toEqual(['mrtr/no-unsigned-request-state']);
    expect(messages[0].severity).toBe(2);
  });

  it('fits defineConfig as users write eslint.config.ts (type-checked by tsc, run here)', () => {
    const userConfig = defineConfig([
      { files: ['**/*.ts'], languageOptions: { parser: tsParser } },
      plugin.configs.recommended,
      { plugins: { mrtr: plugin }, rules: { 'mrtr/require-request-state-verification': 'warn' } },
    ]);
    const messages = linter.verify('const s = ctx.mcpReq.requestState();', userConfig, { filename: 'a.ts' });
    expect(messages.map((m) => `${m.ruleId} ${m.severity}`)).toEqual(['mrtr/require-request-state-verification 1']);
  });

  it('lints a test file with the tests variant and leaves it out of recommended', () => {
    const code = `const codec = createRequestStateCodec({ key: 'a fixed key for the test, 32 bytes long' });\n/* @mrtr-port-todo(raced): decide */\nrun();`;
    const configs: Linter.Config[] = [{ files: ['**/*.ts'], languageOptions: { parser: tsParser } }, plugin.configs.recommended, plugin.configs.tests];
    const inTest = linter.verify(code, configs, { filename: join(sandbox, 'test', 'state.test.ts') });
    expect(inTest.map((m) => m.ruleId)).toEqual(['mrtr/no-unresolved-port-marker']);
    const inSource = linter.verify(code, configs, { filename: join(sandbox, 'src', 'state.ts') });
    expect(inSource.map((m) => m.ruleId).sort()).toEqual(['mrtr/no-unresolved-port-marker', 'mrtr/require-request-state-binding']);
  });

  it('works on plain JavaScript with ESLint\'s default parser', () => {
    const code = [
      `import { continuation } from './mrtr-continuation.js';`,
      `export async function h(args, ctx) {`,
      `  const content = acceptedContent(ctx.mcpReq.inputResponses, 'ok');`,
      `  if (!content) return inputRequired({ inputRequests: { ok: inputRequired.elicit(q) }, requestState: 'step-1' });`,
      `  /* @mrtr-port-todo(raced): decide the fallback */`,
      `  return done();`,
      `}`,
    ].join('\n');
    const messages = linter.verify(code, [{ files: ['**/*.js'], ...plugin.configs.strict }], { filename: 'server.js' });
    expect(messages.map((m) => `${m.line}:${m.column} ${m.ruleId}`).sort()).toEqual([
      '3:19 mrtr/require-decline-cancel-branches',
      '4:88 mrtr/no-unsigned-request-state',
      '5:3 mrtr/no-unresolved-port-marker',
    ]);
  });

  it('strict adds the rules recommended leaves out', () => {
    const code = `export async function h(ctx: { mcpReq: { requestState(): unknown } }) { const state = ctx.mcpReq.requestState(); return { content: [{ type: "text", text: String(state) }] }; }`;
    expect(lint(code, plugin.configs.recommended)).toEqual([]);
    expect(lint(code, plugin.configs.strict).map((m) => m.ruleId)).toEqual(['mrtr/require-request-state-verification']);
  });

  // The port's outputs are what users get: where it ported (no marker left), strict must be quiet.
  const outputs = fg
    .sync('fixtures/**/*.{output,expected}.{ts,mts,js}', { cwd: root })
    .filter((f) => !readFileSync(join(root, f), 'utf8').includes(MARKERS.todo))
    .sort();

  it('finds ported fixture outputs', () => {
    expect(outputs.length).toBeGreaterThan(0);
  });

  it.each(outputs)('%s lints clean under strict', (file) => {
    const text = readFileSync(join(root, file), 'utf8');
    const input = join(root, file.replace(/\.(output|expected)\.([cm]?[jt]s)$/, '.input.$2'));
    const inputText = existsSync(input) ? readFileSync(input, 'utf8') : undefined;
    const legacyTrustsUrlAccept = inputText !== undefined && lint(inputText, plugin.configs.strict, file).some((m) => m.ruleId === URL_ACCEPT_RULE);
    const messages = lint(text, plugin.configs.strict, file).filter((m) => !allowedOnPortedOutput(text, m.ruleId, legacyTrustsUrlAccept));
    expect(messages.map((m) => `${m.line}:${m.column} ${m.ruleId ?? 'parse'} ${m.message}`)).toEqual([]);
  });
});
