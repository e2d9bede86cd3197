/**
 * `mrtr-port/eslint-plugin`: the plugin object plus flat configs, derived from each rule's
 * `meta.docs.recommended` so a rule's own meta is the one place that decides where it is on.
 * `recommended` and `strict` apply to source files and leave tests out; `tests` is the variant for them.
 */
import type { ESLint, Linter } from 'eslint';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MrtrRuleDocs } from './create-rule.js';
import { rules } from './index.js';

export const PLUGIN_NAMESPACE = 'mrtr';

export type ConfigName = 'recommended' | 'strict' | 'tests';

/** What the configs lint: every JavaScript and TypeScript source. */
export const SOURCE_FILES = ['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}'];
/** Test files: the source configs leave them out; `configs.tests` is for them. */
export const TEST_FILES = [
  '**/*.{test,spec}.{ts,tsx,mts,cts,js,jsx,mjs,cjs}',
  '**/{test,tests,__tests__}/**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}',
];
/**
 * Rules a test breaks on purpose: it forges and tampers with states, uses fixed keys, records calls
 * before an ask, builds raw results and drives legacy servers as a baseline. The rules left on in
 * `configs.tests` are about handlers a test defines (eligibility, decline/cancel) and leftover markers.
 */
const OFF_IN_TESTS = new Set([
  'no-legacy-server-requests',
  'no-secrets-in-request-state',
  'no-side-effects-before-last-answer',
  'no-unsigned-request-state',
  'require-capability-check',
  'require-request-state-binding',
  'require-request-state-verification',
]);

/** Typed with ESLint's own types, so `eslint.config.ts` (and `defineConfig`) accept it without casts. */
export interface MrtrPlugin extends ESLint.Plugin {
  meta: { name: string; version: string; namespace: string };
  rules: NonNullable<ESLint.Plugin['rules']>;
  configs: Record<ConfigName, Linter.Config>;
}

const plugin: MrtrPlugin = {
  meta: { name: 'mrtr-port', version: packageVersion(), namespace: PLUGIN_NAMESPACE },
  // typescript-eslint's RuleModule and ESLint's RuleDefinition type the same runtime object with
  // different context types; ESLint only ever calls it as its own.
  rules: rules as unknown as MrtrPlugin['rules'],
  // Filled in below: each config holds the plugin object itself.
  configs: {} as Record<ConfigName, Linter.Config>,
};

plugin.configs.recommended = configFor('recommended');
plugin.configs.strict = configFor('strict');
plugin.configs.tests = configFor('tests');

export default plugin;

/**
 * `strict` turns every rule on; `recommended` only those whose docs say `recommended`; `tests` the
 * recommended rules a test does not break on purpose, on test files only.
 */
function configFor(level: ConfigName): Linter.Config {
  const enabled: Linter.RulesRecord = {};
  for (const [name, rule] of Object.entries(rules) as [string, { meta: { docs?: Partial<MrtrRuleDocs> } }][]) {
    const recommended = rule.meta.docs?.recommended === 'recommended';
    const on = level === 'strict' || (level === 'recommended' && recommended) || (level === 'tests' && recommended && !OFF_IN_TESTS.has(name));
    if (on) enabled[`${PLUGIN_NAMESPACE}/${name}`] = 'error';
  }
  const files = level === 'tests' ? { files: TEST_FILES } : { files: SOURCE_FILES, ignores: TEST_FILES };
  return { name: `${PLUGIN_NAMESPACE}/${level}`, ...files, plugins: { [PLUGIN_NAMESPACE]: plugin }, rules: enabled };
}

/** The package version, found by walking up from this file (it runs from `rules/` and from `dist/rules/`). */
function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'mrtr-port' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // no package.json here: keep walking up
    }
    const parent = dirname(dir);
    if (parent === dir) return '0.0.0';
    dir = parent;
  }
}
