// The rule registry: rule name (= file name = docs/rules/<name>.md) → rule, alphabetical, one line each.
import type { Linter } from '@typescript-eslint/utils/ts-eslint';
import noInputRequiredOutsideEligibleHandlers from './no-input-required-outside-eligible-handlers.js';
import noLegacyServerRequests from './no-legacy-server-requests.js';
import noSecretsInRequestState from './no-secrets-in-request-state.js';
import noSideEffectsBeforeLastAnswer from './no-side-effects-before-last-answer.js';
import noTrustUrlElicitationAccept from './no-trust-url-elicitation-accept.js';
import noUnresolvedPortMarker from './no-unresolved-port-marker.js';
import noUnsignedRequestState from './no-unsigned-request-state.js';
import requireAtMostOnceFinalRound from './require-at-most-once-final-round.js';
import requireCapabilityCheck from './require-capability-check.js';
import requireDeclineCancelBranches from './require-decline-cancel-branches.js';
import requireRequestStateBinding from './require-request-state-binding.js';
import requireRequestStateVerification from './require-request-state-verification.js';

export const rules = {
  'no-input-required-outside-eligible-handlers': noInputRequiredOutsideEligibleHandlers,
  'no-legacy-server-requests': noLegacyServerRequests,
  'no-secrets-in-request-state': noSecretsInRequestState,
  'no-side-effects-before-last-answer': noSideEffectsBeforeLastAnswer,
  'no-trust-url-elicitation-accept': noTrustUrlElicitationAccept,
  'no-unresolved-port-marker': noUnresolvedPortMarker,
  'no-unsigned-request-state': noUnsignedRequestState,
  'require-at-most-once-final-round': requireAtMostOnceFinalRound,
  'require-capability-check': requireCapabilityCheck,
  'require-decline-cancel-branches': requireDeclineCancelBranches,
  'require-request-state-binding': requireRequestStateBinding,
  'require-request-state-verification': requireRequestStateVerification,
} satisfies Linter.PluginRules;

export type RuleName = keyof typeof rules;
