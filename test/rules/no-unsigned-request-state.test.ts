import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../../rules/no-unsigned-request-state.js';

const ruleTester = new RuleTester();

ruleTester.run('no-unsigned-request-state', rule, {
  valid: [
    // Valid because: sealed by our continuation helper.
    `return inputRequired({ inputRequests, requestState: await continuation.seal(ctx, { step: 'confirm', bind }) });`,
    // Valid because: `seal` imported from the continuation helper, called bare.
    `return inputRequired({ inputRequests, requestState: await seal(ctx, { step }) });`,
    // Valid because: minted by the SDK codec created in this file.
    `
const codec = createRequestStateCodec({ key, ttlSeconds: 600 });
async function h(ctx) {
  return inputRequired({ inputRequests, requestState: await codec.mint({ tool: 'x' }, ctx) });
}`,
    // Valid because: a codec imported from elsewhere cannot be seen; `mint` on it is trusted.
    `import { codec } from './state.js';\nreturn inputRequired({ inputRequests, requestState: await codec.mint(p, ctx) });`,
    // Valid because: sealed through a local variable.
    `const state = await continuation.seal(ctx, { step: 'pick' });\nreturn inputRequired({ inputRequests, requestState: state });`,
    // Valid because: shorthand property holding a sealed value.
    `const requestState = await continuation.seal(ctx, s);\nreturn inputRequired({ inputRequests, requestState });`,
    // Valid because: sealed by a small helper in the same file, on every return path.
    `
async function sealStep(ctx, step) {
  if (!step) return continuation.seal(ctx, { step: 'first' });
  return continuation.seal(ctx, { step });
}
return inputRequired({ inputRequests, requestState: await sealStep(ctx, 'a') });`,
    // Valid because: a sealer named in the options.
    {
      code: `return inputRequired({ inputRequests, requestState: await vault.wrap(ctx, payload) });`,
      options: [{ sealers: ['vault.wrap'] }],
    },
    // Valid because: the value comes from a parameter; its origin is not visible, so the rule stays quiet.
    `function ask(state) { return inputRequired({ inputRequests, requestState: state }); }`,
    // Valid because (known false negative, TODO): `mint` on a local object that is not a codec cannot be told
    // from a codec without following object methods; the rule stays quiet rather than guess.
    `const codec = { mint: (s) => btoa(s) };\nreturn inputRequired({ inputRequests, requestState: await codec.mint(s) });`,
    // Valid because: a local signer HMACs the payload: what the helper does seals it, whatever it is called.
    `
import { createHmac } from 'node:crypto';
function encodeState(payload: object): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const mac = createHmac('sha256', STATE_KEY).update(body).digest('base64url');
  return \`\${body}.\${mac}\`;
}
export function ask(step: string) {
  return { resultType: 'input_required', inputRequests, requestState: encodeState({ step, exp: Date.now() + 60_000 }) };
}`,
    // Valid because: the MAC is computed inline (WebCrypto) and joined to the body.
    `
async function ask(body: string) {
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(body));
  return inputRequired({ inputRequests, requestState: body + '.' + toBase64(mac) });
}`,
    // Valid because: a JWT signed with jose.
    `const state = await new SignJWT({ step }).setExpirationTime('5m').sign(secret);\nreturn inputRequired({ inputRequests, requestState: state });`,
    // Valid because: an inner result's state passed through is not the client's value (only the request's own field is).
    `const inner = await runStep(args);\nreturn { ...inner, inputRequests: inner.inputRequests, requestState: inner.requestState };`,
    // Valid because: a hand-built result in a wrapper, sealed with the SDK codec.
    `return wrap({ inputRequests, requestState: await stateCodec.mint({ step: 'dates' }, ctx) });`,
    // Valid because: an imported function whose name says it protects is trusted, like an imported codec.
    `import { encodeSignedState } from './state.js';\nreturn wrap({ inputRequests, requestState: encodeSignedState(next) });`,
    // Valid because: no requestState at all.
    `return inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: 'ok?', requestedSchema }) } });`,
    // Valid because: a builder call is not the result factory.
    `inputRequired.elicit({ message: 'x', requestState: 'not-a-result-field' });`,
    // Valid because: an object that is not an input_required result may hold any requestState.
    `const row = { resultType: 'complete', requestState: 'abc' };`,
  ],
  invalid: [
    // Invalid because: an imported encoder inside a wrapper other than inputRequired(...): base64 JSON, by its name.
    {
      code: `import { encodeState } from './shims.js';\nreturn wrap({ inputRequests, requestState: encodeState(next) });`,
      errors: [{ messageId: 'unsignedRequestState', line: 2, column: 30, data: { what: 'an encoding (`encodeState()`)' } }],
    },
    // Invalid because: the state the seam decoded, echoed back as the new state, is sent unsealed.
    {
      code: `return inputRequired({ inputRequests, requestState: ctx.mcpReq.requestState() });`,
      errors: [{ messageId: 'clientValueAsState', line: 1, column: 39, data: { what: '`ctx.mcpReq.requestState()`' }, suggestions: [] }],
    },
    // Invalid because: a hand-written server echoes the client's own requestState field.
    {
      code: `handlers['tools/call'] = (params) => ({ resultType: 'input_required', inputRequests, requestState: params.requestState });`,
      errors: [{ messageId: 'clientValueAsState', line: 1, column: 86, data: { what: 'the incoming `params.requestState`' } }],
    },
    // Invalid because: destructured from the client's retry, then handed back.
    {
      code: `const { inputResponses, requestState } = readMrtr(args);\nreturn wrap({ inputRequests, requestState });`,
      errors: [{ messageId: 'clientValueAsState', line: 2, column: 30, data: { what: 'the incoming `requestState`' } }],
    },
    // Invalid because: a value taken from an answer is the client's choice.
    {
      code: `return inputRequired({ inputRequests, requestState: ctx.mcpReq.inputResponses.resume.content.state as string });`,
      errors: [{ messageId: 'clientValueAsState', line: 1, column: 39, data: { what: 'read from `inputResponses`' } }],
    },
    // Invalid because: a plain string literal; reported at the requestState property.
    {
      code: `return inputRequired({ inputRequests, requestState: 'step-2' });`,
      errors: [{ messageId: 'unsignedRequestState', line: 1, column: 39, data: { what: 'a plain string' } }],
    },
    // Invalid because: JSON.stringify is readable and forgeable.
    {
      code: `return inputRequired({\n  inputRequests,\n  requestState: JSON.stringify({ step: 'confirm', orderId }),\n});`,
      errors: [{ messageId: 'unsignedRequestState', line: 3, column: 3, data: { what: 'JSON.stringify output' } }],
    },
    // Invalid because: base64 is an encoding, not a seal (Buffer form).
    {
      code: `return inputRequired({ inputRequests, requestState: Buffer.from(JSON.stringify(s)).toString('base64url') });`,
      errors: [{ messageId: 'unsignedRequestState', line: 1, column: 39, data: { what: 'a base64 encoding' } }],
    },
    // Invalid because: btoa is base64.
    {
      code: `return inputRequired({ inputRequests, requestState: btoa(JSON.stringify(s)) });`,
      errors: [{ messageId: 'unsignedRequestState', data: { what: 'a base64 encoding' } }],
    },
    // Invalid because: hex encoding.
    {
      code: `return inputRequired({ inputRequests, requestState: Buffer.from(raw).toString('hex') });`,
      errors: [{ messageId: 'unsignedRequestState', data: { what: 'a hex encoding' } }],
    },
    // Invalid because: a template literal.
    {
      code: 'return inputRequired({ inputRequests, requestState: `${step}:${orderId}` });',
      errors: [{ messageId: 'unsignedRequestState', data: { what: 'a template literal' } }],
    },
    // Invalid because: the unsealed value travels through a local variable; reported at the property, not the variable.
    {
      code: `const state = JSON.stringify({ step });\nreturn inputRequired({\n  inputRequests,\n  requestState: state,\n});`,
      errors: [{ messageId: 'unsignedRequestState', line: 4, column: 3, data: { what: 'JSON.stringify output (held in `state`)' } }],
    },
    // Invalid because: shorthand property; the variable holds a concatenation.
    {
      code: `const requestState = 'confirm:' + orderId;\nreturn inputRequired({ inputRequests, requestState });`,
      errors: [{ messageId: 'unsignedRequestState', line: 2, column: 39 }],
    },
    // Invalid because: a small helper in the same file encodes instead of sealing.
    {
      code: `
const encodeState = (s) => Buffer.from(JSON.stringify(s)).toString('base64');
async function handler(ctx) {
  return inputRequired({ inputRequests, requestState: encodeState({ step: 1 }) });
}`,
      errors: [{ messageId: 'unsignedRequestState', line: 4, column: 41, data: { what: 'a base64 encoding (returned by `encodeState()`)' } }],
    },
    // Invalid because: one arm of a conditional is plain text.
    {
      code: `return inputRequired({ inputRequests, requestState: first ? await continuation.seal(ctx, s) : 'retry' });`,
      errors: [{ messageId: 'unsignedRequestState', data: { what: 'a plain string' } }],
    },
    // Invalid because: a variable reassigned with a plain string on some path.
    {
      code: `let state = await continuation.seal(ctx, s);\nif (again) state = 'again';\nreturn inputRequired({ inputRequests, requestState: state });`,
      errors: [{ messageId: 'unsignedRequestState', line: 3, column: 39 }],
    },
    // Invalid because: a hand-built input_required result with a JSON state.
    {
      code: `return { resultType: 'input_required', inputRequests, requestState: JSON.stringify({ step }) };`,
      errors: [{ messageId: 'unsignedRequestState', line: 1, column: 55 }],
    },
    // Invalid because: the spec object is built in a const first; reported where requestState is written in it.
    {
      code: `const spec = { inputRequests, requestState: \`\${a}\` };\nreturn inputRequired(spec);`,
      errors: [{ messageId: 'unsignedRequestState', line: 1, column: 31 }],
    },
    // Invalid because: String(...) only converts; it does not seal.
    {
      code: `return inputRequired({ inputRequests, requestState: String(step) });`,
      errors: [{ messageId: 'unsignedRequestState', data: { what: 'a plain string' } }],
    },
    // Invalid because: JSON in an async handler of a file that imports the continuation helper; the suggestion seals the payload.
    {
      code: `import { continuation } from './mrtr-continuation.js';
server.registerTool('t', {}, async (args, ctx) => {
  return inputRequired({ inputRequests, requestState: btoa(JSON.stringify({ step: 'confirm', bind })) });
});`,
      errors: [
        {
          messageId: 'unsignedRequestState',
          line: 3,
          column: 41,
          data: { what: 'a base64 encoding' },
          suggestions: [
            {
              messageId: 'sealWithContinuation',
              data: { continuation: 'continuation', ctx: 'ctx' },
              output: `import { continuation } from './mrtr-continuation.js';
server.registerTool('t', {}, async (args, ctx) => {
  return inputRequired({ inputRequests, requestState: await continuation.seal(ctx, { step: 'confirm', bind }) });
});`,
            },
          ],
        },
      ],
    },
    // Invalid because: same, but the handler is not async, so no suggestion (await would not parse).
    {
      code: `import { continuation } from './mrtr-continuation.js';
server.registerTool('t', {}, (args, ctx) => inputRequired({ inputRequests, requestState: JSON.stringify({ step }) }));`,
      errors: [{ messageId: 'unsignedRequestState', line: 2, column: 76, suggestions: [] }],
    },
    // Invalid because: \`Object.seal\` is not a sealer; what it wraps is a plain string.
    {
      code: `return inputRequired({ inputRequests, requestState: Object.seal('confirm') });`,
      errors: [{ messageId: 'unsignedRequestState', line: 1, column: 39, data: { what: 'a plain string' } }],
    },
  ],
});
