import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { createRule } from './create-rule.js';
import { calleeName, findProperty, outermostWrapper } from './lib/expressions.js';
import { isRequestStateAccessorCall, objectLiteral } from './lib/mrtr-shapes.js';
import { findVariable } from './lib/resolve.js';

export type Options = [
  {
    verifiers?: string[];
  },
];
export type MessageIds = 'unverifiedRequestState';

/**
 * Calls that check a raw state: the SDK codec's `verify(state, ctx)` and the continuation helper's
 * `open(ctx, bind)` (which reads `ctx.mcpReq.requestState()` itself, so passing the raw value is also fine).
 */
const DEFAULT_VERIFIERS = ['verify', 'open'];

export default createRule<Options, MessageIds>({
  name: 'require-request-state-verification',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require `ctx.mcpReq.requestState()` to be verified, by the server\'s verify seam or the codec, before it is used.',
      recommended: 'strict',
      requiresTypeChecking: false,
    },
    messages: {
      unverifiedRequestState:
        'ctx.mcpReq.requestState() returns the raw client-supplied string unless the server verifies it: configure `new McpServer(info, { requestState: { verify } })` (codec.verify or requestStateVerifier()), or read the state with `await continuation.open(ctx, bind)` / `await codec.verify(state, ctx)`.',
    },
    schema: [
      {
        type: 'object',
        properties: {
          verifiers: {
            type: 'array',
            items: { type: 'string' },
            uniqueItems: true,
            description: 'More callee names that verify a raw requestState passed to them (defaults `verify` and `open` always count).',
          },
        },
        additionalProperties: false,
      },
    ],
  },
  defaultOptions: [{ verifiers: [] }],
  create(context, [options]) {
    const sourceCode = context.sourceCode;
    // Most files never read the state: skip them before any listener runs.
    if (!sourceCode.text.includes('requestState')) return {};
    const verifiers = new Set([...DEFAULT_VERIFIERS, ...(options.verifiers ?? [])]);
    const accessorCalls: TSESTree.CallExpression[] = [];
    let seamConfigured = false;

    return {
      CallExpression(node): void {
        if (isRequestStateAccessorCall(node)) accessorCalls.push(node);
      },
      Property(node): void {
        if (!seamConfigured && isVerifySeam(node)) seamConfigured = true;
      },
      'Program:exit'(): void {
        if (seamConfigured) return;
        for (const call of accessorCalls) {
          if (!reachesVerifier(call)) context.report({ node: call, messageId: 'unverifiedRequestState' });
        }
      },
    };

    /** `requestState: { verify: ... }` in server options (also through a local const). */
    function isVerifySeam(node: TSESTree.Property): boolean {
      if (node.key.type !== AST_NODE_TYPES.Identifier || node.key.name !== 'requestState' || node.computed) {
        return false;
      }
      const options = objectLiteral(sourceCode, node.value);
      return options !== undefined && findProperty(options, 'verify') !== undefined;
    }

    /** Is the raw value handed to a verifier, directly or through the variable it is stored in? */
    function reachesVerifier(call: TSESTree.CallExpression): boolean {
      const outer = outermostWrapper(call);
      const parent = outer.parent;
      if (isVerifierArgument(outer)) return true;
      if (
        parent?.type === AST_NODE_TYPES.VariableDeclarator &&
        parent.init === outer &&
        parent.id.type === AST_NODE_TYPES.Identifier
      ) {
        const variable = findVariable(sourceCode, parent.id);
        return (variable?.references ?? []).some((ref) => ref.isRead() && isVerifierArgument(outermostWrapper(ref.identifier)));
      }
      return false;
    }

    function isVerifierArgument(node: TSESTree.Node): boolean {
      const parent = node.parent;
      if (parent?.type !== AST_NODE_TYPES.CallExpression || !parent.arguments.includes(node as TSESTree.CallExpressionArgument)) {
        return false;
      }
      const name = calleeName(parent);
      return name !== undefined && verifiers.has(name);
    }
  },
});
