import type { TSESTree } from '@typescript-eslint/utils';
import { PREFILTER_NAMES } from '../src/vocabulary.js';
import { isEraGuarded } from './lib/era-guard.js';
import { isUrlElicitationThrow, legacyCallOf } from './lib/legacy-call-shape.js';
import { isClientOnlyProgram, isOutsideServerRequests } from './lib/site-scope.js';
import { createRule } from './create-rule.js';

export type Options = [];
export type MessageIds = 'legacyRequest' | 'urlElicitationError';

export default createRule<Options, MessageIds>({
  name: 'no-legacy-server-requests',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow push-style server-to-client requests that fail on 2026-07-28 requests.',
      recommended: 'recommended',
      requiresTypeChecking: false,
    },
    messages: {
      legacyRequest:
        "`{{callee}}(...)` sends a push-style {{kind}} request, which fails on 2026-07-28 requests. Return `inputRequired(...)` and read the answer on the next round instead: `npx mrtr-port port` rewrites it (or guard it with `era === 'legacy'` next to an MRTR arm).",
      urlElicitationError:
        "`throw new UrlElicitationRequiredError(...)` only works on 2025-era requests. Return `inputRequired({ inputRequests: { k: inputRequired.elicitUrl({ message, url }) } })` instead: `npx mrtr-port port` rewrites it.",
    },
    schema: [],
  },
  defaultOptions: [],
  create(context) {
    const { sourceCode } = context;
    // The analyzer's plain-text prefilter: a file naming none of the legacy vocabulary holds no site.
    if (!PREFILTER_NAMES.some((name) => sourceCode.text.includes(name))) return {};
    // A file that imports only the client SDK answers these requests; it never sends them.
    if (isClientOnlyProgram(sourceCode.ast)) return {};
    return {
      CallExpression(node): void {
        const match = legacyCallOf(sourceCode, node);
        if (!match || isEraGuarded(node) || isOutsideServerRequests(node)) return;
        context.report({
          node,
          messageId: 'legacyRequest',
          data: { callee: calleeText(node), kind: match.kind },
        });
      },
      ThrowStatement(node): void {
        if (!isUrlElicitationThrow(node) || isEraGuarded(node) || isOutsideServerRequests(node)) return;
        context.report({ node, messageId: 'urlElicitationError' });
      },
    };

    function calleeText(node: TSESTree.CallExpression): string {
      const text = sourceCode.getText(node.callee);
      return text.length > 60 ? `…${text.slice(-59)}` : text;
    }
  },
});
