import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../../rules/require-request-state-binding.js';

const ruleTester = new RuleTester();

ruleTester.run('require-request-state-binding', rule, {
  valid: [
    // Valid because: a codec that binds (method and principal), a secret key from the environment, ctx given to mint.
    `
const codec = createRequestStateCodec({ key: process.env.MCP_STATE_KEY!, ttlSeconds: 600, bind: (ctx) => \`\${ctx.mcpReq.method}\\0\${ctx.http?.authInfo?.clientId ?? ''}\` });
async function ask(ctx) {
  return inputRequired({ inputRequests, requestState: await codec.mint({ step: 'confirm' }, ctx) });
}`,
    // Valid because: no bind on the codec, but the payload carries the tool and an argument digest.
    `
const codec = createRequestStateCodec({ key: env.STATE_KEY });
const requestState = await codec.mint({ step: 'confirm', tool: 'refund', argsDigest: digestOf(args) });`,
    // Valid because: a per-process random key is not a constant (it is only useless across replicas).
    `const codec = createRequestStateCodec({ key: crypto.getRandomValues(new Uint8Array(32)), bind: (ctx) => ctx.http?.authInfo?.clientId ?? '' });`,
    // Valid because: a bind that reads the method and something else (a digest computed by a helper) may bind the request.
    `const codec = createRequestStateCodec({ key: env.KEY, bind: ({ mcpReq }) => mcpReq.method + requestDigest(mcpReq) });`,
    // Valid because: the continuation helper binds the principal itself and the request through \`bind\`.
    `
import { bindRequest, continuation } from './mrtr-continuation.js';
const requestState = await continuation.seal(ctx, { step: 'confirm', bind: bindRequest(ctx, 'refund', args) });`,
    // Valid because: a hand-written signer that seals an expiry and the request it answers.
    `
function signState(payload, ctx) {
  const body = JSON.stringify({ ...payload, exp: Date.now() + 300_000, principal: ctx.authInfo?.clientId, tool: payload.tool });
  return body + '.' + createHmac('sha256', process.env.STATE_KEY).update(body).digest('base64url');
}
const r = { resultType: 'input_required', inputRequests, requestState: signState({ step: 1, tool: 'deploy' }, ctx) };`,
    // Valid because: a codec passed in (its options are elsewhere) is not judged.
    `async function ask(codec, ctx) { return inputRequired({ inputRequests, requestState: await codec.mint({ step: 'x' }) }); }`,
  ],
  invalid: [
    // Invalid because: a bind that returns only the method binds nothing: every tools/call has the same method.
    {
      code: `
const codec = createRequestStateCodec({ key: env.MRTR_REQUEST_STATE_KEY, bind: ({ mcpReq }) => mcpReq.method });
const other = createRequestStateCodec({ key: env.KEY, bind: function (ctx) { return ctx.mcpReq.method; } });`,
      errors: [
        { messageId: 'methodOnlyBind', line: 2, column: 74 },
        { messageId: 'methodOnlyBind', line: 3, column: 55 },
      ],
    },
    // Invalid because: the SDK's sample shape: mint with no ctx on a codec with no bind: a bearer token for any caller and tool.
    {
      code: `
const stateCodec = createRequestStateCodec({ key: crypto.getRandomValues(new Uint8Array(32)), ttlSeconds: 600 });
async function ask(env) {
  return inputRequired({ inputRequests, requestState: await stateCodec.mint({ step: 'confirm', env }) });
}`,
      errors: [
        {
          messageId: 'unboundState',
          line: 4,
          column: 61,
        },
      ],
    },
    // Invalid because: the codec binds, so mint without ctx throws.
    {
      code: `
const codec = createRequestStateCodec({ key: process.env.KEY!, bind: (ctx) => ctx.http?.authInfo?.clientId ?? '' });
const requestState = await codec.mint({ step: 'amount' });`,
      errors: [{ messageId: 'mintWithoutContext', line: 3, column: 28, data: { codec: 'codec' } }],
    },
    // Invalid because: constant keys: fixed bytes, a literal, and a fallback literal when the secret is not set.
    {
      code: `
const a = createRequestStateCodec({ key: new Uint8Array(32).fill(17), bind });
const SECRET = 'not-so-secret-development-key-0123456789';
const b = createRequestStateCodec({ key: SECRET, bind });
const c = createRequestStateCodec({ key: process.env.KEY ?? 'dev-key-dev-key-dev-key-dev-key-00', bind });`,
      errors: [
        { messageId: 'constantKey', line: 2, column: 42, data: { what: 'a constant key (fixed bytes)' } },
        { messageId: 'constantKey', line: 4, column: 42, data: { what: 'a constant key (a literal), held in `SECRET`' } },
        { messageId: 'constantKey', line: 5, column: 42, data: { what: 'a key that falls back to a constant when the secret is not set' } },
      ],
    },
    // Invalid because: a hand-written HMAC signer with no expiry and nothing that binds the request (the MAC's digest() is no request digest).
    {
      code: `
const SECRET = 'conformance-secret-' + randomUUID();
function signState(payload) {
  const data = JSON.stringify(payload);
  const hmac = createHmac('sha256', SECRET).update(data).digest('hex');
  return JSON.stringify({ data, hmac });
}
handlers['tools/call'] = (params) => ({ resultType: 'input_required', inputRequests, requestState: signState({ kind: 'confirm', nonce: randomUUID() }) });`,
      errors: [
        { messageId: 'noExpiry', line: 8, column: 100, data: { signer: 'signState' } },
        { messageId: 'unboundState', line: 8, column: 100 },
      ],
    },
    // Invalid because: a signer keyed with a constant.
    {
      code: `
function seal(p) { const body = JSON.stringify({ ...p, exp: Date.now() + 60000, tool: 'x' }); return body + createHmac('sha256', 'hunter2').update(body).digest('hex'); }
return inputRequired({ inputRequests, requestState: seal({ step: 1 }) });`,
      errors: [{ messageId: 'constantKey', line: 2, column: 130, data: { what: 'a constant key (a literal)' } }],
    },
    // Invalid because: the continuation helper's seal given no bind.
    {
      code: `import { continuation } from './mrtr-continuation.js';\nconst s = await continuation.seal(ctx, { step: 'confirm' });`,
      errors: [{ messageId: 'unboundState', line: 2, column: 17 }],
    },
  ],
});
