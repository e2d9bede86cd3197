import type { TSESTree } from '@typescript-eslint/utils';
import { REASONS } from '../src/analyzer/reasons.js';
import { INELIGIBLE_ENTRY_POINTS, PREFILTER_NAMES } from '../src/vocabulary.js';
import { lastCalleeName } from './lib/callee-name.js';
import { isEraGuarded } from './lib/era-guard.js';
import { FLOW_HINT, flowExportOf } from './lib/flow-runtime.js';
import { NamedHandlerRoles, REGISTRATION_NAMES, enclosingRole, insideTimer } from './lib/handler-registration.js';
import type { IneligibleReason } from './lib/handler-registration.js';
import { isUrlElicitationThrow, legacyCallOf } from './lib/legacy-call-shape.js';
import { isClientOnlyProgram, isOutsideServerRequests } from './lib/site-scope.js';
import { createRule } from './create-rule.js';

export type Options = [];
export type MessageIds = 'legacyRequest' | 'urlElicitationError' | 'legacyRequestUnportable' | 'legacyRequestOutsideHandler';

/** Where a legacy site is, as far as one file shows: which message it gets. */
type SiteClass = { kind: 'eligible' } | { kind: 'unportable'; why: IneligibleReason | 'timer'; where: string } | { kind: 'unknown' };

interface Site {
  readonly node: TSESTree.CallExpression | TSESTree.ThrowStatement;
  /** `kind` of the request for calls; undefined for a thrown UrlElicitationRequiredError. */
  readonly kind?: string;
}

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
      legacyRequestUnportable:
        '{{what}} in this {{where}}, which fails on 2026-07-28 requests and cannot become an MRTR round there: {{advice}}',
      legacyRequestOutsideHandler:
        "{{what}}, which fails on 2026-07-28 requests. No handler registration is visible here: where this code serves a tool call, prompt or resource read, `npx mrtr-port port` rewrites it into an MRTR round; anywhere else (a notification, a timer, start-up) ask from a tool instead.",
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
    const usesFlow = sourceCode.text.includes(FLOW_HINT);
    const named = new NamedHandlerRoles(sourceCode);
    // Classified at the end: a handler may be registered by name below the code that asks.
    const sites: Site[] = [];
    return {
      CallExpression(node): void {
        const name = lastCalleeName(node.callee);
        if (name !== undefined && REGISTRATION_NAMES.has(name)) named.collect(node);
        // The port's runtime (`elicit`, `request`, … from ./mrtr-flow.js) is the MRTR way to ask.
        if (usesFlow && flowExportOf(sourceCode, node.callee) !== undefined) return;
        const match = legacyCallOf(sourceCode, node);
        if (!match || isEraGuarded(node) || isOutsideServerRequests(node)) return;
        sites.push({ node, kind: match.kind });
      },
      AssignmentExpression(node): void {
        const target = lastCalleeName(node.left);
        if (target !== undefined && INELIGIBLE_ENTRY_POINTS.lifecycleHooks.includes(target)) named.collect(node);
      },
      ThrowStatement(node): void {
        if (!isUrlElicitationThrow(sourceCode, node) || isEraGuarded(node) || isOutsideServerRequests(node)) return;
        sites.push({ node });
      },
      'Program:exit'(): void {
        for (const site of sites) report(site, classify(site.node));
      },
    };

    function classify(node: TSESTree.Node): SiteClass {
      if (insideTimer(node, named)) return { kind: 'unportable', why: 'timer', where: 'timer callback' };
      const role = enclosingRole(node, named);
      if (!role) return { kind: 'unknown' };
      return role.eligible ? { kind: 'eligible' } : { kind: 'unportable', why: role.why, where: role.serves };
    }

    function report(site: Site, where: SiteClass): void {
      const { node } = site;
      const what =
        node.type === 'ThrowStatement'
          ? '`throw new UrlElicitationRequiredError(...)` asks for a URL elicitation push-style'
          : `\`${calleeText(node)}(...)\` sends a push-style ${site.kind} request`;
      if (where.kind === 'eligible') {
        if (node.type === 'ThrowStatement') context.report({ node, messageId: 'urlElicitationError' });
        else context.report({ node, messageId: 'legacyRequest', data: { callee: calleeText(node), kind: site.kind } });
      } else if (where.kind === 'unportable') {
        context.report({ node, messageId: 'legacyRequestUnportable', data: { what, where: where.where, advice: REASONS[where.why].advice } });
      } else {
        context.report({ node, messageId: 'legacyRequestOutsideHandler', data: { what } });
      }
    }

    function calleeText(node: TSESTree.CallExpression): string {
      const text = sourceCode.getText(node.callee);
      return text.length > 60 ? `…${text.slice(-59)}` : text;
    }
  },
});
