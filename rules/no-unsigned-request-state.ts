import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { MRTR_API } from '../src/vocabulary.js';
import { createRule } from './create-rule.js';
import { calleeName, findProperty, memberPath, staticString, unwrapAwait } from './lib/expressions.js';
import { inputRequiredSpec, isInputRequiredCall, isInputRequiredObject } from './lib/mrtr-shapes.js';
import { localFunction, returnedExpressions, singleValueOf, valuesOf } from './lib/resolve.js';

export type Options = [
  {
    sealers?: string[];
  },
];
export type MessageIds = 'unsignedRequestState';

/** Our continuation helper's sealing call (`continuation.seal(ctx, payload)`, or `seal` imported from it). */
const CONTINUATION_SEAL = 'seal';
/** The SDK codec's sealing call (`createRequestStateCodec(...).mint(payload, ctx)`). */
const CODEC_MINT = 'mint';
/** How far the rule follows variables and helper functions before it gives up (and stays quiet). */
const MAX_DEPTH = 6;

const ENCODINGS: Readonly<Record<string, string>> = {
  base64: 'a base64 encoding',
  base64url: 'a base64 encoding',
  hex: 'a hex encoding',
};

type Verdict = { kind: 'sealed' } | { kind: 'unsealed'; what: string } | { kind: 'unknown' };

export default createRule<Options, MessageIds>({
  name: 'no-unsigned-request-state',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require `requestState` to come from a sealing call, never a plain or merely encoded string.',
      recommended: 'recommended',
      requiresTypeChecking: false,
    },
    messages: {
      unsignedRequestState:
        'requestState is {{what}}: the client can read and change it and send it back. Seal it with `await continuation.seal(ctx, payload)` or `await codec.mint(payload, ctx)` from createRequestStateCodec, and verify it on re-entry.',
    },
    schema: [
      {
        type: 'object',
        properties: {
          sealers: {
            type: 'array',
            items: { type: 'string' },
            uniqueItems: true,
            description:
              'More calls that seal requestState, by callee name (`sealState`) or dotted path ending the callee (`vault.seal`).',
          },
        },
        additionalProperties: false,
      },
    ],
  },
  defaultOptions: [{ sealers: [] }],
  create(context, [options]) {
    const sourceCode = context.sourceCode;
    // Most files never mention it: skip them before any listener runs.
    if (!sourceCode.text.includes('requestState')) return {};
    const extraSealers = (options.sealers ?? []).map((s) => s.split('.'));
    const checked = new Set<TSESTree.Property>();

    return {
      CallExpression(node): void {
        if (!isInputRequiredCall(node)) return;
        const spec = inputRequiredSpec(sourceCode, node);
        if (spec) checkStateProperty(spec);
      },
      ObjectExpression(node): void {
        if (isInputRequiredObject(node)) checkStateProperty(node);
      },
    };

    function checkStateProperty(object: TSESTree.ObjectExpression): void {
      const prop = findProperty(object, 'requestState');
      if (!prop || checked.has(prop)) return;
      checked.add(prop);
      const verdict = classify(prop.value as TSESTree.Expression, 0, new Set());
      if (verdict.kind === 'unsealed') {
        context.report({ node: prop, messageId: 'unsignedRequestState', data: { what: verdict.what } });
      }
    }

    /** What a value given as requestState is; `unknown` when its origin is not visible in this file. */
    function classify(node: TSESTree.Node, depth: number, seen: Set<TSESTree.Node>): Verdict {
      if (depth > MAX_DEPTH || seen.has(node)) return { kind: 'unknown' };
      seen.add(node);
      const n = unwrapAwait(node);
      switch (n.type) {
        case AST_NODE_TYPES.Literal:
          return typeof n.value === 'string' || typeof n.value === 'number'
            ? { kind: 'unsealed', what: 'a plain string' }
            : { kind: 'unknown' };
        case AST_NODE_TYPES.TemplateLiteral:
          return { kind: 'unsealed', what: 'a template literal' };
        case AST_NODE_TYPES.BinaryExpression:
          return n.operator === '+' ? { kind: 'unsealed', what: 'a string concatenation' } : { kind: 'unknown' };
        case AST_NODE_TYPES.ConditionalExpression:
          return worst([classify(n.consequent, depth + 1, seen), classify(n.alternate, depth + 1, seen)]);
        case AST_NODE_TYPES.LogicalExpression:
          return worst([classify(n.left, depth + 1, seen), classify(n.right, depth + 1, seen)]);
        case AST_NODE_TYPES.Identifier: {
          if (n.name === 'undefined') return { kind: 'unknown' };
          const values = valuesOf(sourceCode, n);
          if (!values || values.length === 0) return { kind: 'unknown' };
          const verdict = worst(values.map((v) => classify(v, depth + 1, seen)));
          return verdict.kind === 'unsealed' ? { kind: 'unsealed', what: `${verdict.what} (held in \`${n.name}\`)` } : verdict;
        }
        case AST_NODE_TYPES.CallExpression:
          return classifyCall(n, depth, seen);
        default:
          return { kind: 'unknown' };
      }
    }

    function classifyCall(call: TSESTree.CallExpression, depth: number, seen: Set<TSESTree.Node>): Verdict {
      const path = memberPath(call.callee);
      const name = calleeName(call);
      if (isSealer(path, call)) return { kind: 'sealed' };
      if (path.join('.') === 'JSON.stringify') return { kind: 'unsealed', what: 'JSON.stringify output' };
      if (name === 'btoa') return { kind: 'unsealed', what: 'a base64 encoding' };
      if (name === 'encodeURIComponent' || name === 'String') return { kind: 'unsealed', what: 'a plain string' };
      if (name === 'toString' && call.arguments.length > 0) {
        const encoding = staticString(call.arguments[0]);
        if (encoding && ENCODINGS[encoding]) return { kind: 'unsealed', what: ENCODINGS[encoding] };
      }
      const helper = localFunction(sourceCode, call.callee);
      if (helper) {
        const verdict = worst(returnedExpressions(helper).map((r) => classify(r, depth + 1, seen)));
        return verdict.kind === 'unsealed' && name
          ? { kind: 'unsealed', what: `${verdict.what} (returned by \`${name}()\`)` }
          : verdict;
      }
      return { kind: 'unknown' };
    }

    function isSealer(path: readonly string[], call: TSESTree.CallExpression): boolean {
      const name = path[path.length - 1];
      if (name === CONTINUATION_SEAL) return true;
      if (name === CODEC_MINT && path.length >= 2) return mintsWithCodec(call);
      return extraSealers.some(
        (sealer) => sealer.length <= path.length && sealer.every((s, i) => path[path.length - sealer.length + i] === s),
      );
    }

    /** `codec.mint(...)` seals when `codec` is a createRequestStateCodec(...) here, or comes from elsewhere (an import). */
    function mintsWithCodec(call: TSESTree.CallExpression): boolean {
      if (call.callee.type !== AST_NODE_TYPES.MemberExpression) return false;
      let receiver = unwrapAwait(call.callee.object);
      if (receiver.type === AST_NODE_TYPES.Identifier) {
        const value = singleValueOf(sourceCode, receiver);
        if (!value) return true;
        receiver = unwrapAwait(value);
      }
      return receiver.type === AST_NODE_TYPES.CallExpression
        ? calleeName(receiver) === MRTR_API.codecFactory
        : receiver.type === AST_NODE_TYPES.MemberExpression;
    }
  },
});

/** Unsealed wins over unknown, unknown over sealed: one plain-text arm is enough to forge the state. */
function worst(verdicts: readonly Verdict[]): Verdict {
  const unsealed = verdicts.find((v) => v.kind === 'unsealed');
  if (unsealed) return unsealed;
  if (verdicts.length > 0 && verdicts.every((v) => v.kind === 'sealed')) return { kind: 'sealed' };
  return { kind: 'unknown' };
}
