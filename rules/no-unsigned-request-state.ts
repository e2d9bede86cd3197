import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { MRTR_API } from '../src/vocabulary.js';
import { createRule } from './create-rule.js';
import { calleeName, endsWith, findProperty, memberPath, propertyName, staticString, unwrapAwait } from './lib/expressions.js';
import { inputRequiredSpec, isInputRequiredCall, isInputRequiredObject, isRequestStateAccessorCall } from './lib/mrtr-shapes.js';
import { enclosingFunction, findVariable, localFunction, returnedExpressions, singleValueOf, valuesOf } from './lib/resolve.js';
import { containsProtection, functionProtects } from './lib/state-crypto.js';

export type Options = [
  {
    sealers?: string[];
  },
];
export type MessageIds = 'unsignedRequestState' | 'clientValueAsState' | 'sealWithContinuation';

/** Our continuation helper's sealing call (`continuation.seal(ctx, payload)`, or `seal` imported from it). */
const CONTINUATION_SEAL = 'seal';
/** The helper module `port` writes (src/runtime/template.ts), and the object it exports. */
const CONTINUATION_MODULE = /(^|\/)mrtr-continuation(-sdk)?(\.[cm]?[jt]s)?$/;
const CONTINUATION_EXPORT = 'continuation';
/** The SDK codec's sealing call (`createRequestStateCodec(...).mint(payload, ctx)`). */
const CODEC_MINT = 'mint';
/** How far the rule follows variables and helper functions before it gives up (and stays quiet). */
const MAX_DEPTH = 6;

const ENCODINGS: Readonly<Record<string, string>> = {
  base64: 'a base64 encoding',
  base64url: 'a base64 encoding',
  hex: 'a hex encoding',
};

/**
 * Names of imported functions that only encode (`encodeState`, `serializeState`, `toBase64`): their body is
 * not visible, but the name says what they do. A name that also says it protects is trusted instead.
 */
const ENCODER_NAME = /^(encode|serialize|stringify|pack|toBase64|base64|b64)/i;
const PROTECTOR_NAME = /seal|sign|encrypt|hmac|mac|mint|protect|jwt|jwe|jws/i;
/** Where the client's own values come in: echoing them back as the state lets the client choose it. */
const CLIENT_STATE = ['requestState'];
/** Names a raw JSON-RPC request is held in by hand-written servers. */
const REQUEST_ROOTS = new Set(['request', 'req', 'body', 'msg', 'message', 'rpc']);
const INPUT_RESPONSES = MRTR_API.inputResponsesPath[MRTR_API.inputResponsesPath.length - 1];

type Verdict =
  | { kind: 'sealed' }
  | { kind: 'unsealed'; what: string; fromClient?: boolean }
  | { kind: 'unknown' };

export default createRule<Options, MessageIds>({
  name: 'no-unsigned-request-state',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require `requestState` to come from a sealing call, never a plain or merely encoded string.',
      recommended: 'recommended',
      requiresTypeChecking: false,
    },
    hasSuggestions: true,
    messages: {
      sealWithContinuation: 'Seal this payload with `{{continuation}}.seal({{ctx}}, ...)` instead (it must carry its `step` and `bind`).',
      unsignedRequestState:
        'requestState is {{what}}: the client can read and change it and send it back. Seal it with `await continuation.seal(ctx, payload)` or `await codec.mint(payload, ctx)` from createRequestStateCodec, and verify it on re-entry.',
      clientValueAsState:
        'requestState is {{what}}, a value the client sent: returned as the new state unsealed, it is whatever the client chose. Seal a payload you build with `await continuation.seal(ctx, payload)` or `await codec.mint(payload, ctx)`.',
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
        // A hand-built result, also passed through a wrapper of its own (`wrap({ inputRequests, requestState })`).
        if (isInputRequiredObject(node) || (findProperty(node, 'inputRequests') && findProperty(node, 'requestState'))) {
          checkStateProperty(node);
        }
      },
    };

    function checkStateProperty(object: TSESTree.ObjectExpression): void {
      const prop = findProperty(object, 'requestState');
      if (!prop || checked.has(prop)) return;
      checked.add(prop);
      const verdict = classify(prop.value as TSESTree.Expression, 0, new Set());
      if (verdict.kind === 'unsealed') {
        context.report({
          node: prop,
          messageId: verdict.fromClient ? 'clientValueAsState' : 'unsignedRequestState',
          data: { what: verdict.what },
          suggest: verdict.fromClient ? [] : sealSuggestion(prop.value as TSESTree.Expression),
        });
      }
    }

    /**
     * `JSON.stringify(payload)` (also under base64) in an async handler of a file that imports the
     * continuation helper: offer `await continuation.seal(ctx, payload)`. A suggestion only: the payload
     * still needs its step and bind, and the state must then be opened on re-entry.
     */
    function sealSuggestion(value: TSESTree.Expression): TSESLint.ReportSuggestionArray<MessageIds> {
      const payload = stringifiedPayload(value);
      const fn = enclosingFunction(value);
      const continuationName = importedContinuation();
      const ctxParam = fn?.params[fn.params.length - 1];
      if (!payload || !fn?.async || !continuationName || ctxParam?.type !== AST_NODE_TYPES.Identifier) return [];
      const replacement = `await ${continuationName}.${CONTINUATION_SEAL}(${ctxParam.name}, ${sourceCode.getText(payload)})`;
      return [
        {
          messageId: 'sealWithContinuation',
          data: { continuation: continuationName, ctx: ctxParam.name },
          fix: (fixer) => fixer.replaceText(value, replacement),
        },
      ];
    }

    /** The `x` of `JSON.stringify(x)`, `btoa(JSON.stringify(x))`, `Buffer.from(JSON.stringify(x)).toString(enc)`. */
    function stringifiedPayload(value: TSESTree.Node): TSESTree.Node | undefined {
      const n = unwrapAwait(value);
      if (n.type !== AST_NODE_TYPES.CallExpression) return undefined;
      const path = memberPath(n.callee).join('.');
      if (path === 'JSON.stringify') return n.arguments[0];
      if (path === 'btoa' && n.arguments[0]) return stringifiedPayload(n.arguments[0]);
      if (n.callee.type === AST_NODE_TYPES.MemberExpression && calleeName(n) === 'toString') {
        const inner = unwrapAwait(n.callee.object);
        if (inner.type === AST_NODE_TYPES.CallExpression && memberPath(inner.callee).join('.') === 'Buffer.from' && inner.arguments[0]) {
          return stringifiedPayload(inner.arguments[0]);
        }
      }
      return undefined;
    }

    /** The local name of `continuation` imported from the helper module `port` writes, if any. */
    function importedContinuation(): string | undefined {
      for (const statement of sourceCode.ast.body) {
        if (statement.type !== AST_NODE_TYPES.ImportDeclaration || !CONTINUATION_MODULE.test(statement.source.value)) continue;
        for (const specifier of statement.specifiers) {
          if (
            specifier.type === AST_NODE_TYPES.ImportSpecifier &&
            specifier.imported.type === AST_NODE_TYPES.Identifier &&
            specifier.imported.name === CONTINUATION_EXPORT
          ) {
            return specifier.local.name;
          }
        }
      }
      return undefined;
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
        // `${body}.${mac}`: a hand-written signer joins the payload and its MAC; judge by what it computes.
        case AST_NODE_TYPES.TemplateLiteral:
          if (containsProtection(sourceCode, n)) return { kind: 'sealed' };
          return { kind: 'unsealed', what: 'a template literal' };
        case AST_NODE_TYPES.BinaryExpression:
          if (n.operator !== '+') return { kind: 'unknown' };
          if (containsProtection(sourceCode, n)) return { kind: 'sealed' };
          return { kind: 'unsealed', what: 'a string concatenation' };
        case AST_NODE_TYPES.MemberExpression:
          return clientValue(n) ?? { kind: 'unknown' };
        case AST_NODE_TYPES.ConditionalExpression:
          return worst([classify(n.consequent, depth + 1, seen), classify(n.alternate, depth + 1, seen)]);
        case AST_NODE_TYPES.LogicalExpression:
          return worst([classify(n.left, depth + 1, seen), classify(n.right, depth + 1, seen)]);
        case AST_NODE_TYPES.Identifier: {
          if (n.name === 'undefined') return { kind: 'unknown' };
          const values = valuesOf(sourceCode, n);
          if (!values || values.length === 0) return clientValue(n) ?? { kind: 'unknown' };
          const verdict = worst(values.map((v) => classify(v, depth + 1, seen)));
          return verdict.kind === 'unsealed' ? { ...verdict, what: `${verdict.what} (held in \`${n.name}\`)` } : verdict;
        }
        case AST_NODE_TYPES.CallExpression:
          return classifyCall(n, depth, seen);
        default:
          return { kind: 'unknown' };
      }
    }

    /**
     * The client's own values: `ctx.mcpReq.requestState()`, `params.requestState`, a destructured
     * `requestState` parameter, anything read from `inputResponses`.
     */
    function clientValue(node: TSESTree.Node): Verdict | undefined {
      const n = unwrapAwait(node);
      if (n.type === AST_NODE_TYPES.CallExpression && isRequestStateAccessorCall(n)) {
        return { kind: 'unsealed', what: '`ctx.mcpReq.requestState()`', fromClient: true };
      }
      const path = memberPath(n);
      if (path.includes(INPUT_RESPONSES)) return { kind: 'unsealed', what: 'read from `inputResponses`', fromClient: true };
      // `params.requestState`, `req.body.params.requestState`: the request's own field (not some inner result's).
      if (n.type === AST_NODE_TYPES.MemberExpression && endsWith(path, CLIENT_STATE) && (path.includes('params') || REQUEST_ROOTS.has(path[0]))) {
        return { kind: 'unsealed', what: `the incoming \`${path.join('.').replaceAll('?', '…')}\``, fromClient: true };
      }
      if (n.type === AST_NODE_TYPES.Identifier && destructuredKey(n) === CLIENT_STATE[0]) {
        return { kind: 'unsealed', what: `the incoming \`${n.name}\``, fromClient: true };
      }
      return undefined;
    }

    /** The key a local was destructured under: `const { requestState: s } = params` → `requestState`. */
    function destructuredKey(id: TSESTree.Identifier): string | undefined {
      const def = findVariable(sourceCode, id)?.defs[0];
      const property = def?.name.parent;
      if (!def || property?.type !== AST_NODE_TYPES.Property || property.value !== def.name) return undefined;
      return property.parent.type === AST_NODE_TYPES.ObjectPattern ? propertyName(property.key, property.computed) : undefined;
    }

    function classifyCall(call: TSESTree.CallExpression, depth: number, seen: Set<TSESTree.Node>): Verdict {
      const path = memberPath(call.callee);
      const name = calleeName(call);
      if (isRequestStateAccessorCall(call)) return clientValue(call) as Verdict;
      // `Object.seal` freezes an object's shape; it protects nothing from the client.
      if (path.join('.') === 'Object.seal') return call.arguments[0] ? classify(call.arguments[0], depth + 1, seen) : { kind: 'unknown' };
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
        // A local signer (createHmac, subtle.sign, jose, …) seals, whatever it is called.
        if (functionProtects(sourceCode, helper)) return { kind: 'sealed' };
        const verdict = worst(returnedExpressions(helper).map((r) => classify(r, depth + 1, seen)));
        return verdict.kind === 'unsealed' && name
          ? { ...verdict, what: `${verdict.what} (returned by \`${name}()\`)` }
          : verdict;
      }
      // An encoder whose body is elsewhere (`import { encodeState } from './shims.js'`): its name says it only encodes.
      if (name && ENCODER_NAME.test(name) && !PROTECTOR_NAME.test(name)) return { kind: 'unsealed', what: `an encoding (\`${name}()\`)` };
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
