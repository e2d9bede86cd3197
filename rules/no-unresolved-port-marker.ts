import type { TSESTree } from '@typescript-eslint/utils';
import { REASONS, isReasonId } from '../src/analyzer/reasons.js';
import { findMarkers } from '../src/port/markers.js';
import { MARKERS } from '../src/vocabulary.js';
import { createRule } from './create-rule.js';

export type Options = [
  {
    includeAcknowledged?: boolean;
    includeSdkCodemodMarkers?: boolean;
  },
];
export type MessageIds = 'unresolvedMarker' | 'acknowledgedMarker' | 'sdkCodemodMarker';

export default createRule<Options, MessageIds>({
  name: 'no-unresolved-port-marker',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow `@mrtr-port-todo` markers left in code by `mrtr-port port`.',
      recommended: 'recommended',
      requiresTypeChecking: false,
    },
    messages: {
      unresolvedMarker:
        'Unresolved port marker ({{reason}}): {{advice}} Then delete the marker, or acknowledge it with `// {{ignore}} <why>` on the line above.',
      acknowledgedMarker:
        'Acknowledged port marker ({{reason}}) is still in the code: resolve it and delete both comments.',
      sdkCodemodMarker:
        'The official v1→v2 codemod left a marker here: migrate this call by hand, then delete the marker (and run `mrtr-port port` again).',
    },
    schema: [
      {
        type: 'object',
        properties: {
          includeAcknowledged: {
            type: 'boolean',
            description: 'Also report markers acknowledged by `// @mrtr-port-ignore` on the line above (default false).',
          },
          includeSdkCodemodMarkers: {
            type: 'boolean',
            description: 'Also report `@mcp-codemod-error` markers written by `@modelcontextprotocol/codemod` (default true).',
          },
        },
        additionalProperties: false,
      },
    ],
  },
  defaultOptions: [{ includeAcknowledged: false, includeSdkCodemodMarkers: true }],
  create(context, [options]) {
    const sourceCode = context.sourceCode;

    return {
      Program(): void {
        if (!sourceCode.text.includes(MARKERS.todo) && !sourceCode.text.includes(MARKERS.sdkCodemod)) return;
        for (const comment of sourceCode.getAllComments()) {
          if (comment.value.includes(MARKERS.todo)) reportTodo(comment);
          // A marker starts its comment; prose that mentions the name ("the codemod writes @mcp-codemod-error …") is none.
          else if (options.includeSdkCodemodMarkers !== false && comment.value.trimStart().startsWith(MARKERS.sdkCodemod)) {
            context.report({ loc: comment.loc, messageId: 'sdkCodemodMarker' });
          }
        }
      },
    };

    /**
     * One marker per comment, as `mrtr-port check` counts them (same parser: src/port/markers.ts): the
     * block form `port` writes, on its own line or trailing a statement, and the line form.
     */
    function reportTodo(comment: TSESTree.Comment): void {
      const [marker] = findMarkers(comment.type === 'Block' ? `/*${comment.value}*/` : `//${comment.value}`);
      if (!marker) return;
      const lineAbove = comment.loc.start.line >= 2 ? sourceCode.lines[comment.loc.start.line - 2] : '';
      if (lineAbove.includes(MARKERS.ignore)) {
        if (options.includeAcknowledged) {
          context.report({ loc: comment.loc, messageId: 'acknowledgedMarker', data: { reason: marker.reason } });
        }
        return;
      }
      // The marker's own text is specific to the site; the reason table is the fallback.
      const text = marker.message || (isReasonId(marker.reason) ? REASONS[marker.reason].advice : 'see the port report.');
      const advice = /[.!?:]$/.test(text) ? text : `${text}.`;
      context.report({
        loc: comment.loc,
        messageId: 'unresolvedMarker',
        data: { reason: marker.reason, advice, ignore: MARKERS.ignore },
      });
    }
  },
});
