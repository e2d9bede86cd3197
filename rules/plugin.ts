/**
 * `mrtr-port/eslint-plugin`: the plugin object plus flat configs, derived from each rule's
 * `meta.docs.recommended` so a rule's own meta is the one place that decides where it is on.
 */
import type { ESLint, Linter } from 'eslint';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MrtrRuleDocs } from './create-rule.js';
import { rules } from './index.js';

export const PLUGIN_NAMESPACE = 'mrtr';

export type ConfigName = 'recommended' | 'strict';

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

export default plugin;

/** `strict` turns every rule on; `recommended` only those whose docs say `recommended`. */
function configFor(level: ConfigName): Linter.Config {
  const enabled: Linter.RulesRecord = {};
  for (const [name, rule] of Object.entries(rules) as [string, { meta: { docs?: Partial<MrtrRuleDocs> } }][]) {
    if (level === 'strict' || rule.meta.docs?.recommended === 'recommended') {
      enabled[`${PLUGIN_NAMESPACE}/${name}`] = 'error';
    }
  }
  return { name: `${PLUGIN_NAMESPACE}/${level}`, plugins: { [PLUGIN_NAMESPACE]: plugin }, rules: enabled };
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
