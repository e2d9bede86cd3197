import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { MRTR_API } from '../src/vocabulary.js';
import { createRule } from './create-rule.js';
import { calleeName, memberPath, propertyName, unwrapAwait } from './lib/expressions.js';
import { objectLiteral } from './lib/mrtr-shapes.js';
import { findVariable, singleValueOf } from './lib/resolve.js';

export type Options = [
  {
    signOnlyCodecs?: string[];
    secretWords?: string[];
    allowedKeys?: string[];
  },
];
export type MessageIds = 'secretInSignedState' | 'removeSecret';

/** The SDK codec's sealing call: it signs (HMAC) but does not encrypt, so the payload is readable. */
const CODEC_MINT = 'mint';
/** The continuation helper's sealing call; sign-only when the helper is the SDK-codec variant (`port --codec sdk`). */
const CONTINUATION_SEAL = 'seal';
/** The module name `port --codec sdk` writes (src/runtime/template.ts): its `seal` is the HMAC codec underneath. */
const SIGN_ONLY_CONTINUATION_MODULE = /(^|\/)mrtr-continuation-sdk(\.[cm]?[jt]s)?$/;
/** Words that make a key look secret, compared against the key's camelCase/snake_case words. */
const SECRET_WORDS = [
  'token',
  'password',
  'passwd',
  'passphrase',
  'secret',
  'apikey',
  'authorization',
  'cookie',
  'cookies',
  'credential',
  'credentials',
  'bearer',
  'jwt',
];
/** Two-word secrets: `apiKey`, `api_key`, `privateKey`. */
const SECRET_PAIRS: readonly (readonly [string, string])[] = [
  ['api', 'key'],
  ['private', 'key'],
];
/** Words that turn `token` into a measure or a property of one (`maxTokens`, `tokenCount`, `tokenType`), not a secret. */
const TOKEN_MEASURES = new Set(['max', 'min', 'count', 'budget', 'limit', 'usage', 'total', 'used', 'type', 'expiry', 'expires', 'ttl']);
const MAX_DEPTH = 6;

export default createRule<Options, MessageIds>({
  name: 'no-secrets-in-request-state',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow secret-looking keys in a requestState payload sealed with the sign-only SDK codec.',
      recommended: 'recommended',
      requiresTypeChecking: false,
    },
    hasSuggestions: true,
    messages: {
      secretInSignedState:
        "'{{key}}' looks secret, but {{sealer}} only signs requestState: the client can read the payload (base64url JSON). Keep the secret server-side and seal a reference to it, or seal with the continuation helper (AES-GCM), which encrypts.",
      removeSecret: "Remove '{{key}}' from the signed payload.",
    },
    schema: [
      {
        type: 'object',
        properties: {
          signOnlyCodecs: {
            type: 'array',
            items: { type: 'string' },
            uniqueItems: true,
            description:
              'Receivers of `.mint(...)` to treat as sign-only codecs when their creation is not in the file (e.g. an imported `stateCodec`), by name or dotted path ending the receiver.',
          },
          secretWords: {
            type: 'array',
            items: { type: 'string' },
            uniqueItems: true,
            description: 'More words that make a key look secret (matched against its camelCase/snake_case words, case-insensitive).',
          },
          allowedKeys: {
            type: 'array',
            items: { type: 'string' },
            uniqueItems: true,
            description: 'Exact key names never to report (e.g. `tokenCount`).',
          },
        },
        additionalProperties: false,
      },
    ],
  },
  defaultOptions: [{ signOnlyCodecs: [], secretWords: [], allowedKeys: [] }],
  create(context, [options]) {
    const sourceCode = context.sourceCode;
    // Most files never mint or seal: skip them before any listener runs.
    if (!sourceCode.text.includes(CODEC_MINT) && !sourceCode.text.includes(CONTINUATION_SEAL)) return {};
    const secretWords = new Set([...SECRET_WORDS, ...(options.secretWords ?? []).map((w) => w.toLowerCase())]);
    const allowedKeys = new Set(options.allowedKeys ?? []);
    const namedCodecs = (options.signOnlyCodecs ?? []).map((c) => c.split('.'));

    return {
      CallExpression(node): void {
        const payload = signOnlyPayload(node);
        if (!payload) return;
        const object = objectLiteral(sourceCode, payload);
        const sealer = calleeName(node) === CODEC_MINT ? 'createRequestStateCodec(...).mint' : 'the SDK-codec continuation helper (mrtr-continuation-sdk)';
        if (object) checkObject(object, sealer, 0, new Set());
      },
    };

    /** The payload argument of `codec.mint(payload, ctx)` or of the SDK-variant `continuation.seal(ctx, payload)`. */
    function signOnlyPayload(call: TSESTree.CallExpression): TSESTree.Node | undefined {
      const name = calleeName(call);
      if (name === CODEC_MINT && call.callee.type === AST_NODE_TYPES.MemberExpression) {
        return isSignOnlyCodec(call.callee.object) ? call.arguments[0] : undefined;
      }
      if (name === CONTINUATION_SEAL && importedFromSdkContinuation(call.callee)) return call.arguments[1];
      return undefined;
    }

    /** `continuation.seal` / `seal` whose root name is imported from the SDK-codec continuation module. */
    function importedFromSdkContinuation(callee: TSESTree.Node): boolean {
      let root = unwrapAwait(callee);
      while (root.type === AST_NODE_TYPES.MemberExpression) root = unwrapAwait(root.object);
      if (root.type !== AST_NODE_TYPES.Identifier) return false;
      const def = findVariable(sourceCode, root)?.defs[0];
      if (def?.type !== 'ImportBinding' || def.parent.type !== AST_NODE_TYPES.ImportDeclaration) return false;
      return SIGN_ONLY_CONTINUATION_MODULE.test(def.parent.source.value);
    }

    function isSignOnlyCodec(receiver: TSESTree.Node): boolean {
      const path = memberPath(receiver);
      if (namedCodecs.some((c) => c.length <= path.length && c.every((s, i) => path[path.length - c.length + i] === s))) {
        return true;
      }
      let value = unwrapAwait(receiver);
      if (value.type === AST_NODE_TYPES.Identifier) {
        const init = singleValueOf(sourceCode, value);
        if (!init) return false;
        value = unwrapAwait(init);
      }
      return value.type === AST_NODE_TYPES.CallExpression && calleeName(value) === MRTR_API.codecFactory;
    }

    /** Every key of the payload, nested object literals and spread locals included. */
    function checkObject(object: TSESTree.ObjectExpression, sealer: string, depth: number, seen: Set<TSESTree.Node>): void {
      if (depth > MAX_DEPTH || seen.has(object)) return;
      seen.add(object);
      for (const prop of object.properties) {
        if (prop.type === AST_NODE_TYPES.SpreadElement) {
          const spread = objectLiteral(sourceCode, prop.argument);
          if (spread) checkObject(spread, sealer, depth + 1, seen);
          continue;
        }
        const key = propertyName(prop.key, prop.computed);
        if (key !== undefined && looksSecret(key)) {
          context.report({
            node: prop.key,
            messageId: 'secretInSignedState',
            data: { key, sealer },
            suggest: [{ messageId: 'removeSecret', data: { key }, fix: (fixer) => removeProperty(fixer, prop) }],
          });
          continue;
        }
        const nested = objectLiteral(sourceCode, prop.value);
        if (nested) checkObject(nested, sealer, depth + 1, seen);
      }
    }

    function looksSecret(key: string): boolean {
      if (allowedKeys.has(key)) return false;
      const words = splitWords(key);
      if (words.length === 1 && words[0] === 'tokens') return true;
      if (words.some((w) => secretWords.has(w) && !(w === 'token' && words.some((m) => TOKEN_MEASURES.has(m))))) return true;
      return words.some((w, i) => SECRET_PAIRS.some(([a, b]) => w === a && words[i + 1] === b));
    }

    /** The property and the comma that separates it from its neighbour. */
    function removeProperty(fixer: TSESLint.RuleFixer, prop: TSESTree.Property): TSESLint.RuleFix {
      const after = sourceCode.getTokenAfter(prop);
      if (after && after.value === ',') {
        const next = sourceCode.getTokenAfter(after, { includeComments: true });
        return fixer.removeRange([prop.range[0], next ? next.range[0] : after.range[1]]);
      }
      const before = sourceCode.getTokenBefore(prop);
      if (before && before.value === ',') return fixer.removeRange([before.range[0], prop.range[1]]);
      return fixer.remove(prop);
    }
  },
});

/** `accessToken` → `['access', 'token']`, `API_KEY` → `['api', 'key']`, `x-api-key` → `['x', 'api', 'key']`. */
function splitWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_\-.]+/)
    .filter((w) => w.length > 0)
    .map((w) => w.toLowerCase());
}
