// The rule registry: rule name (= file name = docs/rules/<name>.md) → rule, alphabetical, one line each.
import type { Linter } from '@typescript-eslint/utils/ts-eslint';
import noSecretsInRequestState from './no-secrets-in-request-state.js';
import noUnresolvedPortMarker from './no-unresolved-port-marker.js';
import noUnsignedRequestState from './no-unsigned-request-state.js';
import requireRequestStateVerification from './require-request-state-verification.js';

export const rules = {
  'no-secrets-in-request-state': noSecretsInRequestState,
  'no-unresolved-port-marker': noUnresolvedPortMarker,
  'no-unsigned-request-state': noUnsignedRequestState,
  'require-request-state-verification': requireRequestStateVerification,
} satisfies Linter.PluginRules;

export type RuleName = keyof typeof rules;
