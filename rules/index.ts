// The rule registry: rule name (= file name = docs/rules/<name>.md) → rule, alphabetical, one line each.
import type { Linter } from '@typescript-eslint/utils/ts-eslint';
import noUnresolvedPortMarker from './no-unresolved-port-marker.js';

export const rules = {
  'no-unresolved-port-marker': noUnresolvedPortMarker,
} satisfies Linter.PluginRules;

export type RuleName = keyof typeof rules;
