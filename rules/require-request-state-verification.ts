import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { MRTR_API } from '../src/vocabulary.js';
import { createRule } from './create-rule.js';
import { calleeName, endsWith, findProperty, memberPath, outermostWrapper, propertyName, unwrap } from './lib/expressions.js';
import { isRequestStateAccessorCall, objectLiteral } from './lib/mrtr-shapes.js';
import { configuresSeam, seamConfiguredInProject } from './lib/project-seam.js';
import { findVariable, localFunction } from './lib/resolve.js';
import { functionVerifies } from './lib/state-crypto.js';

export type Options = [
  {
    verifiers?: string[];
    seam?: 'project' | 'file' | 'configured';
  },
];
export type MessageIds = 'unverifiedRequestState' | 'unverifiedRawState';

/**
 * Callee names that verify a raw state passed to them: the SDK codec's `verify(state, ctx)`, the
 * continuation helper's `open(ctx, bind)`, and the names such functions are given (`verifyState`,
 * `_verifyRequestState`, `openState`, `unsealState`).
 */
const VERIFIER_NAME = /^_*(verify|open|unseal|decrypt|jwtVerify)/i;
/** Decoding a raw state by hand (the value is then trusted): `JSON.parse`, base64, `decodeState`, … */
const DECODER_NAME = /^(parse|decode|deserialize|atob|fromBase64|unpack)/i;
/** Names a raw JSON-RPC request is held in by hand-written servers. */
const REQUEST_ROOTS = new Set(['request', 'req', 'body', 'msg', 'message', 'rpc']);
const STATE_FIELD = 'requestState';

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
        'ctx.mcpReq.requestState() returns the raw client-supplied string unless the server verifies it, and no verify seam is configured in this project: configure `new McpServer(info, { requestState: { verify } })` (codec.verify or requestStateVerifier()), or read the state with `await continuation.open(ctx, bind)` / `await codec.verify(state, ctx)`.',
      unverifiedRawState:
        '`{{decoder}}(...)` trusts the requestState the client sent back without checking it: anyone can forge or edit it. Verify its MAC or seal first (e.g. `createRequestStateCodec(...).verify(state, ctx)`), and ask again when it does not verify.',
    },
    schema: [
      {
        type: 'object',
        properties: {
          verifiers: {
            type: 'array',
            items: { type: 'string' },
            uniqueItems: true,
            description: 'More callee names that verify a raw requestState passed to them (`verify*`, `open*`, `unseal*`, `decrypt*` always count, and local functions that check a MAC).',
          },
          seam: {
            type: 'string',
            enum: ['project', 'file', 'configured'],
            description:
              'Where to look for the verify seam: `project` (default: this file, then the sources of the nearest package.json), `file` (this file only), `configured` (the seam is configured where the rule cannot see it).',
          },
        },
        additionalProperties: false,
      },
    ],
  },
  defaultOptions: [{ verifiers: [], seam: 'project' }],
  create(context, [options]) {
    const sourceCode = context.sourceCode;
    // Most files never read the state: skip them before any listener runs.
    if (!sourceCode.text.includes(STATE_FIELD)) return {};
    const extraVerifiers = new Set(options.verifiers ?? []);
    const accessorCalls: TSESTree.CallExpression[] = [];
    const rawReads: TSESTree.Node[] = [];
    let seamConfigured = false;

    return {
      CallExpression(node): void {
        if (isRequestStateAccessorCall(node)) accessorCalls.push(node);
      },
      MemberExpression(node): void {
        if (isRawStateRead(node)) rawReads.push(node);
      },
      Property(node): void {
        if (!seamConfigured && isVerifySeam(node)) seamConfigured = true;
        if (node.parent.type === AST_NODE_TYPES.ObjectPattern && isDestructuredRawState(node)) rawReads.push(node.value);
      },
      'Program:exit'(): void {
        if (accessorCalls.length > 0 && !seamVisible()) {
          for (const call of accessorCalls) {
            if (!isPassThrough(call) && !reachesVerifier(call)) context.report({ node: call, messageId: 'unverifiedRequestState' });
          }
        }
        // A raw field decoded by hand is trusted whether or not the SDK's seam exists: it is checked either way.
        const reported = new Set<TSESTree.Node>();
        for (const read of rawReads) {
          for (const decode of unverifiedDecodes(read)) {
            if (reported.has(decode)) continue;
            reported.add(decode);
            context.report({ node: decode, messageId: 'unverifiedRawState', data: { decoder: calleeText(decode) } });
          }
        }
      },
    };

    /** Is the seam configured: said by the option, in this file, or (by default) in the project's sources? */
    function seamVisible(): boolean {
      if (options.seam === 'configured' || seamConfigured) return true;
      return options.seam !== 'file' && seamConfiguredInProject(context.filename, context.cwd);
    }

    /** `requestState: { verify: ... }` in server options (also through a local const). */
    function isVerifySeam(node: TSESTree.Property): boolean {
      if (propertyName(node.key, node.computed) !== STATE_FIELD || node.parent.type !== AST_NODE_TYPES.ObjectExpression) return false;
      const options = objectLiteral(sourceCode, node.value);
      if (options !== undefined) return findProperty(options, 'verify') !== undefined;
      return configuresSeam(sourceCode.getText(node));
    }

    /**
     * `return ctx.mcpReq.requestState()` (or an arrow's body): the accessor handed on to the caller, as
     * context wrappers do; the caller's use is where verification matters.
     */
    function isPassThrough(call: TSESTree.CallExpression): boolean {
      const outer = outermostWrapper(call);
      const parent = outer.parent;
      if (parent?.type === AST_NODE_TYPES.ReturnStatement) return true;
      return parent?.type === AST_NODE_TYPES.ArrowFunctionExpression && parent.body === outer;
    }

    /** Is the raw value handed to a verifier, directly or through the variable it is stored in? */
    function reachesVerifier(call: TSESTree.CallExpression): boolean {
      return usesOf(call).some((use) => isVerifierArgument(use) || isPassThrough(use as TSESTree.CallExpression));
    }

    /** The value itself and, when stored in a local (`const raw = …`), the local's reads. */
    function usesOf(node: TSESTree.Node): TSESTree.Node[] {
      const outer = outermostWrapper(node);
      const parent = outer.parent;
      if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.init === outer && parent.id.type === AST_NODE_TYPES.Identifier) {
        return readsOf(parent.id);
      }
      if (node.type === AST_NODE_TYPES.Identifier && node.parent?.type === AST_NODE_TYPES.Property && node.parent.value === node) {
        return readsOf(node);
      }
      return [outer];
    }

    function readsOf(id: TSESTree.Identifier): TSESTree.Node[] {
      const variable = findVariable(sourceCode, id);
      return (variable?.references ?? []).filter((ref) => ref.isRead()).map((ref) => outermostWrapper(ref.identifier));
    }

    function isVerifierArgument(node: TSESTree.Node): boolean {
      const parent = node.parent;
      if (parent?.type !== AST_NODE_TYPES.CallExpression || !parent.arguments.includes(node as TSESTree.CallExpressionArgument)) {
        return false;
      }
      const name = calleeName(parent);
      if (name !== undefined && (VERIFIER_NAME.test(name) || extraVerifiers.has(name))) return true;
      // A local function that checks a MAC verifies, whatever it is called.
      const helper = localFunction(sourceCode, unwrap(parent.callee));
      return helper !== undefined && functionVerifies(sourceCode, helper);
    }

    /** `params.requestState`, `req.body.params.requestState`: the raw field of a request a hand-written server reads. */
    function isRawStateRead(node: TSESTree.MemberExpression): boolean {
      if (propertyName(node.property, node.computed) !== STATE_FIELD) return false;
      const parent = node.parent;
      if (parent?.type === AST_NODE_TYPES.CallExpression && parent.callee === node) return false;
      if (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.left === node) return false;
      const path = memberPath(node);
      return path.includes('params') || REQUEST_ROOTS.has(path[0]);
    }

    /**
     * `const { requestState } = params` (or `req.params`, or a shim's `readMrtr(args)`): the raw field,
     * destructured from anything but the SDK context, whose `requestState` is the accessor method.
     */
    function isDestructuredRawState(prop: TSESTree.Property): boolean {
      if (propertyName(prop.key, prop.computed) !== STATE_FIELD || prop.value.type !== AST_NODE_TYPES.Identifier) return false;
      const declarator = prop.parent.parent;
      if (declarator?.type !== AST_NODE_TYPES.VariableDeclarator || !declarator.init) return false;
      const path = memberPath(declarator.init);
      return !endsWith(path, MRTR_API.requestStatePath.slice(0, -1));
    }

    /** Decoding calls the raw value reaches without passing a verifier first. */
    function unverifiedDecodes(read: TSESTree.Node): TSESTree.CallExpression[] {
      const uses = usesOf(read);
      const decodes: TSESTree.CallExpression[] = [];
      for (const use of uses) {
        const call = use.parent;
        if (call?.type !== AST_NODE_TYPES.CallExpression || !call.arguments.includes(use as TSESTree.CallExpressionArgument)) continue;
        if (isVerifierArgument(use)) continue;
        const name = decoderName(call);
        if (name !== undefined) decodes.push(call);
      }
      return decodes;
    }

    /** `JSON.parse`, `Buffer.from`, `atob`, `decodeState` (a local one that checks a MAC is a verifier instead). */
    function decoderName(call: TSESTree.CallExpression): string | undefined {
      const path = memberPath(call.callee);
      const name = path.at(-1);
      if (path.join('.') === 'Buffer.from') return 'Buffer.from';
      return name !== undefined && DECODER_NAME.test(name) ? name : undefined;
    }

    function calleeText(call: TSESTree.CallExpression): string {
      return memberPath(call.callee).join('.').replaceAll('?', '…');
    }
  },
});
