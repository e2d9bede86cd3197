import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { MRTR_API } from '../src/vocabulary.js';
import { createRule } from './create-rule.js';
import { calleeName, findProperty, memberPath, propertyName, staticString, unwrap, unwrapAwait } from './lib/expressions.js';
import { inputRequiredSpec, isInputRequiredCall, isInputRequiredObject, objectLiteral } from './lib/mrtr-shapes.js';
import type { FunctionNode } from './lib/resolve.js';
import { childNodes, findVariable, localFunction, singleValueOf, valuesOf } from './lib/resolve.js';
import { functionProtects, keyArgument, protectingCalls } from './lib/state-crypto.js';

export type Options = [{ bindingKeys?: string[]; expiryKeys?: string[] }];
export type MessageIds = 'unboundState' | 'mintWithoutContext' | 'noExpiry' | 'constantKey' | 'methodOnlyBind';

/** Payload keys and names that bind a state to its request: the tool, a digest of the arguments, the caller. */
const BINDING_NAMES = [
  'bind', 'binding', 'bindTag', 'digest', 'requestDigest', 'argsDigest', 'argumentsDigest', 'argsHash', 'requestHash',
  'principal', 'sub', 'subject', 'clientId', 'userId', 'user', 'aud', 'audience', 'authInfo', 'tool', 'toolName', 'method',
];
/** Payload keys and names that give a state an expiry. */
const EXPIRY_NAMES = [
  'exp', 'expires', 'expiresAt', 'expiresIn', 'expiry', 'expiration', 'ttl', 'ttlSeconds', 'notAfter', 'validUntil',
  'deadline', 'maxAge', 'setExpirationTime',
];
/** The continuation helper `port` writes: its `seal(ctx, payload)` binds the principal itself, the request through `payload.bind`. */
const CONTINUATION_MODULE = /(^|\/)mrtr-continuation(-sdk)?(\.[cm]?[jt]s)?$/;
const MAX_DEPTH = 5;
/** What a `bind` may read and still bind nothing: every `tools/call` request has the same method. */
const SAME_FOR_EVERY_CALL = new Set(['mcpReq', 'method', 'jsonrpc']);
const STATE_HINTS = ['requestState', MRTR_API.codecFactory, 'mrtr-continuation'];

export default createRule<Options, MessageIds>({
  name: 'require-request-state-binding',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require a sealed requestState to be bound to its request and caller, to expire, and to be sealed with a secret key.',
      recommended: 'recommended',
      requiresTypeChecking: false,
    },
    messages: {
      unboundState:
        '{{what}}: the state is bound to neither the request nor its caller, so it is a bearer token any caller can replay on any tool until it expires. {{fix}}',
      mintWithoutContext:
        "`{{codec}}.mint(...)` is called without the handler's ctx, but the codec binds (`bind`): mint throws a TypeError here. Pass ctx: `{{codec}}.mint(payload, ctx)`.",
      noExpiry:
        'The state sealed by `{{signer}}()` never expires: a captured state can be replayed for ever. Put an expiry (`exp`) in the sealed payload and reject the state after it when verifying.',
      methodOnlyBind:
        "The codec's `bind` returns only the request method, the same for every tools/call: a state minted for one tool, arguments and caller still verifies for any other. Bind the tool name, a digest of the arguments and the caller (for example `ctx.http?.authInfo?.clientId`).",
      constantKey:
        'requestState is protected with {{what}}: anyone who reads the source can mint a state that verifies. Load the key from a secret (for example `process.env.MCP_STATE_KEY`, at least 32 bytes, the same on every replica).',
    },
    schema: [
      {
        type: 'object',
        additionalProperties: false,
        properties: {
          bindingKeys: {
            type: 'array',
            items: { type: 'string' },
            uniqueItems: true,
            description: 'More payload keys (or names in a signer) that bind a state to its request or caller, e.g. `tenant`.',
          },
          expiryKeys: {
            type: 'array',
            items: { type: 'string' },
            uniqueItems: true,
            description: 'More payload keys (or names in a signer) that give a state its expiry, e.g. `staleAfter`.',
          },
        },
      },
    ],
  },
  defaultOptions: [{}],
  create(context, [options]) {
    const { sourceCode } = context;
    // Only files that seal a requestState (or make the SDK codec, or use the continuation helper) can get this wrong.
    if (!STATE_HINTS.some((hint) => sourceCode.text.includes(hint))) return {};
    const binding = new Set([...BINDING_NAMES, ...(options.bindingKeys ?? [])].map((n) => n.toLowerCase()));
    const expiry = new Set([...EXPIRY_NAMES, ...(options.expiryKeys ?? [])].map((n) => n.toLowerCase()));
    const judgedSigners = new Set<FunctionNode>();
    const checkedStates = new Set<TSESTree.Property>();

    return {
      CallExpression(node): void {
        const name = calleeName(node);
        if (name === MRTR_API.codecFactory) checkCodecKey(node);
        else if (name === 'mint' && node.callee.type === AST_NODE_TYPES.MemberExpression) checkMint(node, node.callee.object);
        else if (name === 'seal') checkContinuationSeal(node);
        if (isInputRequiredCall(node)) {
          const spec = inputRequiredSpec(sourceCode, node);
          if (spec) checkStateProperty(spec);
        }
      },
      ObjectExpression(node): void {
        if (isInputRequiredObject(node) || (findProperty(node, 'inputRequests') && findProperty(node, 'requestState'))) checkStateProperty(node);
      },
    };

    /** `createRequestStateCodec({ key, bind })`: the key must not be a constant, nor the bind the method alone. */
    function checkCodecKey(call: TSESTree.CallExpression): void {
      const options = call.arguments[0] ? objectLiteral(sourceCode, call.arguments[0]) : undefined;
      const key = options ? findProperty(options, 'key') : undefined;
      if (key) reportConstantKey(key.value);
      const bind = options ? findProperty(options, 'bind') : undefined;
      if (bind && bindsMethodOnly(bind.value)) context.report({ node: bind, messageId: 'methodOnlyBind' });
    }

    /** `bind: ({ mcpReq }) => mcpReq.method`: a function that reads nothing but the method and calls nothing. */
    function bindsMethodOnly(value: TSESTree.Node): boolean {
      const fn = unwrap(value);
      if (fn.type !== AST_NODE_TYPES.ArrowFunctionExpression && fn.type !== AST_NODE_TYPES.FunctionExpression) return false;
      let readsMethod = false;
      const queue: TSESTree.Node[] = [fn.body];
      while (queue.length > 0) {
        const node = queue.pop() as TSESTree.Node;
        if (node.type === AST_NODE_TYPES.CallExpression || node.type === AST_NODE_TYPES.NewExpression) return false;
        if (node.type === AST_NODE_TYPES.MemberExpression) {
          const name = propertyName(node.property, node.computed);
          if (name === undefined || !SAME_FOR_EVERY_CALL.has(name)) return false;
          if (name === 'method') readsMethod = true;
          queue.push(node.object);
          continue;
        }
        // Any other variable (a tool name, a digest computed outside) may bind more.
        if (node.type === AST_NODE_TYPES.Identifier && !isParameterOf(node, fn)) return false;
        queue.push(...childNodes(node));
      }
      return readsMethod;
    }

    function isParameterOf(id: TSESTree.Identifier, fn: FunctionNode): boolean {
      const def = findVariable(sourceCode, id)?.defs[0];
      return def?.type === 'Parameter' && def.node === fn;
    }

    /** `codec.mint(payload, ctx?)` on a codec created in this file. */
    function checkMint(call: TSESTree.CallExpression, receiver: TSESTree.Node): void {
      const codecOptions = codecOptionsOf(receiver);
      if (!codecOptions) return;
      const codec = sourceCode.getText(receiver);
      const hasBind = findProperty(codecOptions, 'bind') !== undefined;
      const spreads = codecOptions.properties.some((p) => p.type === AST_NODE_TYPES.SpreadElement);
      const withContext = call.arguments.length >= 2;
      if (hasBind && !withContext) {
        context.report({ node: call, messageId: 'mintWithoutContext', data: { codec } });
        return;
      }
      if (hasBind || spreads || !call.arguments[0] || payloadBinds(call.arguments[0])) return;
      context.report({
        node: call,
        messageId: 'unboundState',
        data: {
          what: withContext
            ? `\`${codec}.mint(...)\` is given ctx, but the codec has no \`bind\` to use it`
            : `\`${codec}.mint(...)\` is called without ctx, on a codec with no \`bind\``,
          fix: 'Give the codec `bind: (ctx) => `${ctx.mcpReq.method}\\0${principal}`` and pass ctx to mint, and put the tool name and a digest of the arguments in the payload (or seal with the continuation helper `mrtr-port` writes, which binds all of them).',
        },
      });
    }

    /** `continuation.seal(ctx, payload)` of the helper `port` writes: the payload carries the request through `bind`. */
    function checkContinuationSeal(call: TSESTree.CallExpression): void {
      if (!importedFromContinuation(call.callee)) return;
      const payload = call.arguments[1] ? objectLiteral(sourceCode, call.arguments[1]) : undefined;
      if (!payload || payload.properties.some((p) => p.type === AST_NODE_TYPES.SpreadElement) || findProperty(payload, 'bind')) return;
      context.report({
        node: call,
        messageId: 'unboundState',
        data: {
          what: '`seal(ctx, payload)` is given a payload with no `bind`',
          fix: "Add `bind: bindRequest(ctx, '<tool>', args)` to the payload and open the state with the same bind.",
        },
      });
    }

    /** The `requestState` of a result: when a local signer (HMAC, AEAD, JWT) makes it, check what it binds. */
    function checkStateProperty(result: TSESTree.ObjectExpression): void {
      const prop = findProperty(result, 'requestState');
      if (!prop || checkedStates.has(prop)) return;
      checkedStates.add(prop);
      for (const call of stateCalls(prop.value, 0, new Set())) {
        const signer = localFunction(sourceCode, unwrap(call.callee));
        if (!signer || judgedSigners.has(signer) || !functionProtects(sourceCode, signer)) continue;
        judgedSigners.add(signer);
        judgeSigner(signer, call);
      }
    }

    /** Calls whose result is the state, through locals, `await` and conditional arms. */
    function stateCalls(node: TSESTree.Node, depth: number, seen: Set<TSESTree.Node>): TSESTree.CallExpression[] {
      if (depth > MAX_DEPTH || seen.has(node)) return [];
      seen.add(node);
      const n = unwrapAwait(node);
      if (n.type === AST_NODE_TYPES.CallExpression) return [n];
      if (n.type === AST_NODE_TYPES.ConditionalExpression) return [...stateCalls(n.consequent, depth + 1, seen), ...stateCalls(n.alternate, depth + 1, seen)];
      if (n.type === AST_NODE_TYPES.LogicalExpression) return [...stateCalls(n.left, depth + 1, seen), ...stateCalls(n.right, depth + 1, seen)];
      if (n.type === AST_NODE_TYPES.Identifier) return (valuesOf(sourceCode, n) ?? []).flatMap((v) => stateCalls(v, depth + 1, seen));
      return [];
    }

    /** A hand-written signer: its key, whether the payload expires, whether anything binds it. */
    function judgeSigner(signer: FunctionNode, call: TSESTree.CallExpression): void {
      for (const protecting of protectingCalls(signer)) {
        const key = keyArgument(protecting);
        if (key) reportConstantKey(key);
      }
      const name = calleeName(call) ?? 'signer';
      const scopes: TSESTree.Node[] = [signer.body, ...call.arguments];
      if (!scopes.some((scope) => mentions(scope, expiry, 0))) {
        context.report({ node: call, messageId: 'noExpiry', data: { signer: name } });
      }
      if (!scopes.some((scope) => mentions(scope, binding, 0))) {
        context.report({
          node: call,
          messageId: 'unboundState',
          data: {
            what: `The state sealed by \`${name}()\` carries no request digest or caller`,
            fix: 'Seal the method, the tool name, a digest of the arguments and the principal with the payload, and compare them when verifying.',
          },
        });
      }
    }

    /** Does a payload (object literal, local const, spread) carry a binding key? */
    function payloadBinds(node: TSESTree.Node): boolean {
      const object = objectLiteral(sourceCode, node);
      if (!object) return true; // not visible: do not guess
      return object.properties.some((p) => p.type === AST_NODE_TYPES.SpreadElement || binding.has((propertyName(p.key, p.computed) ?? '').toLowerCase()));
    }

    /** Does a name in `node` (identifier, property key or member name; locals followed once) belong to `names`? */
    function mentions(node: TSESTree.Node, names: ReadonlySet<string>, depth: number): boolean {
      if (node.type === AST_NODE_TYPES.Identifier) {
        if (names.has(node.name.toLowerCase())) return true;
        const value = depth < 2 ? singleValueOf(sourceCode, node) : undefined;
        return value !== undefined && mentions(value, names, depth + 1);
      }
      if (node.type === AST_NODE_TYPES.Literal && typeof node.value === 'string' && node.parent?.type === AST_NODE_TYPES.Property) {
        return names.has(node.value.toLowerCase());
      }
      // A method name is not data: `hmac.digest('hex')` says nothing about a request digest.
      if (node.type === AST_NODE_TYPES.CallExpression && node.callee.type === AST_NODE_TYPES.MemberExpression && !node.callee.computed) {
        return [node.callee.object, ...node.arguments].some((child) => mentions(child, names, depth));
      }
      return childNodes(node).some((child) => mentions(child, names, depth));
    }

    /** The options object of the `createRequestStateCodec(...)` a receiver holds, when created in this file. */
    function codecOptionsOf(receiver: TSESTree.Node): TSESTree.ObjectExpression | undefined {
      let value = unwrapAwait(receiver);
      if (value.type === AST_NODE_TYPES.Identifier) {
        const init = singleValueOf(sourceCode, value);
        if (!init) return undefined;
        value = unwrapAwait(init);
      }
      if (value.type !== AST_NODE_TYPES.CallExpression || calleeName(value) !== MRTR_API.codecFactory || !value.arguments[0]) return undefined;
      return objectLiteral(sourceCode, value.arguments[0]);
    }

    function importedFromContinuation(callee: TSESTree.Node): boolean {
      let root = unwrap(callee);
      while (root.type === AST_NODE_TYPES.MemberExpression) root = unwrap(root.object);
      if (root.type !== AST_NODE_TYPES.Identifier) return false;
      const def = findVariable(sourceCode, root)?.defs[0];
      return def?.type === 'ImportBinding' && def.parent.type === AST_NODE_TYPES.ImportDeclaration && CONTINUATION_MODULE.test(def.parent.source.value);
    }

    function reportConstantKey(key: TSESTree.Node): void {
      const what = constantKey(key, 0);
      if (what) context.report({ node: key, messageId: 'constantKey', data: { what } });
    }

    /** What makes a key expression a constant, or undefined when it is not (or not visibly) one. */
    function constantKey(node: TSESTree.Node, depth: number): string | undefined {
      if (depth > MAX_DEPTH) return undefined;
      const n = unwrap(node);
      switch (n.type) {
        case AST_NODE_TYPES.Literal:
          return typeof n.value === 'string' || typeof n.value === 'number' ? 'a constant key (a literal)' : undefined;
        case AST_NODE_TYPES.TemplateLiteral:
          return n.expressions.length === 0 ? 'a constant key (a literal)' : undefined;
        case AST_NODE_TYPES.Identifier: {
          const value = singleValueOf(sourceCode, n);
          const found = value ? constantKey(value, depth + 1) : undefined;
          return found ? `${found}, held in \`${n.name}\`` : undefined;
        }
        case AST_NODE_TYPES.LogicalExpression:
          if (n.operator === '&&') return undefined;
          return constantKey(n.right, depth + 1) ? 'a key that falls back to a constant when the secret is not set' : undefined;
        case AST_NODE_TYPES.ConditionalExpression:
          return constantKey(n.consequent, depth + 1) || constantKey(n.alternate, depth + 1)
            ? 'a key that is a constant on one branch'
            : undefined;
        case AST_NODE_TYPES.NewExpression:
        case AST_NODE_TYPES.CallExpression:
          return fixedBytes(n, depth) ? 'a constant key (fixed bytes)' : undefined;
        default:
          return undefined;
      }
    }

    /**
     * `new Uint8Array(32)`, `new Uint8Array(32).fill(17)`, `Buffer.alloc(32, 1)`, `Buffer.from('secret')`,
     * `new TextEncoder().encode('secret')`, `'k'.repeat(32)`: bytes that are the same in every process.
     */
    function fixedBytes(node: TSESTree.CallExpression | TSESTree.NewExpression, depth: number): boolean {
      const path = memberPath(node.callee);
      const name = path.at(-1);
      const args = node.arguments;
      const allConstant = args.every((a) => isLiteralData(a) || constantKey(a, depth + 1) !== undefined);
      if (node.type === AST_NODE_TYPES.NewExpression) {
        return /^(Uint8Array|Int8Array|Uint8ClampedArray|ArrayBuffer|Buffer)$/.test(name ?? '') && allConstant;
      }
      if (node.callee.type !== AST_NODE_TYPES.MemberExpression) return false;
      const receiver = unwrap(node.callee.object);
      if (name === 'fill' || name === 'repeat') {
        const base =
          receiver.type === AST_NODE_TYPES.NewExpression || receiver.type === AST_NODE_TYPES.CallExpression
            ? fixedBytes(receiver, depth + 1)
            : constantKey(receiver, depth + 1) !== undefined;
        return base && allConstant;
      }
      if ((path.join('.') === 'Buffer.from' || path.join('.') === 'Buffer.alloc' || path.join('.') === 'Uint8Array.from') && allConstant) return true;
      return name === 'encode' && receiver.type === AST_NODE_TYPES.NewExpression && memberPath(receiver.callee).at(-1) === 'TextEncoder' && allConstant;
    }

    function isLiteralData(node: TSESTree.Node): boolean {
      const n = unwrap(node);
      if (n.type === AST_NODE_TYPES.Literal) return true;
      if (n.type === AST_NODE_TYPES.ArrayExpression) return n.elements.every((e) => e !== null && e.type !== AST_NODE_TYPES.SpreadElement && isLiteralData(e));
      return staticString(n) !== undefined;
    }
  },
});
