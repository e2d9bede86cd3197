// The rule registry: rule name (= file name = docs/rules/<name>.md) → rule, alphabetical, one line each.
import type { Linter } from '@typescript-eslint/utils/ts-eslint';

export const rules = {
} satisfies Linter.PluginRules;

export type RuleName = keyof typeof rules;
