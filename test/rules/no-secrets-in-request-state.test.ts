import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../../rules/no-secrets-in-request-state.js';

const ruleTester = new RuleTester();

const codec = `const codec = createRequestStateCodec({ key, ttlSeconds: 600 });\n`;

ruleTester.run('no-secrets-in-request-state', rule, {
  valid: [
    // Valid because: nothing secret in the signed payload.
    `${codec}await codec.mint({ tool: 'refund', orderId, step: 'confirm' }, ctx);`,
    // Valid because: our continuation helper encrypts (AES-GCM), so secrets stay unreadable.
    `await continuation.seal(ctx, { step: 'pay', apiKey });`,
    // Valid because: `maxTokens` counts tokens; it is not a token.
    `${codec}await codec.mint({ maxTokens: 512, tokenBudget: 3 }, ctx);`,
    // Valid because: an imported codec is not known to be sign-only unless named in the options.
    `import { codec } from './state.js';\nawait codec.mint({ password }, ctx);`,
    // Valid because: `mint` on something that is not the SDK codec.
    `const nft = makeNft();\nawait nft.mint({ secret: 1 });`,
    // Valid because: the key is allowed by the options.
    {
      code: `${codec}await codec.mint({ tokenCount: 3 }, ctx);`,
      options: [{ allowedKeys: ['tokenCount'] }],
    },
    // Valid because: the payload is not an object literal the rule can see.
    `${codec}await codec.mint(payload, ctx);`,
    // Valid because: the default continuation helper encrypts (AES-GCM), imported by its usual name.
    `import { continuation } from './mrtr-continuation.js';\nawait continuation.seal(ctx, { step: 'pay', bind, apiKey });`,
  ],
  invalid: [
    // Invalid because: a token in the readable payload; reported at the key, suggestion removes it.
    {
      code: `${codec}await codec.mint({ step: 'confirm', accessToken: ctx.http?.authInfo?.token }, ctx);`,
      errors: [
        {
          messageId: 'secretInSignedState',
          line: 2,
          column: 37,
          data: { key: 'accessToken', sealer: 'createRequestStateCodec(...).mint' },
          suggestions: [
            {
              messageId: 'removeSecret',
              data: { key: 'accessToken', sealer: 'createRequestStateCodec(...).mint' },
              output: `${codec}await codec.mint({ step: 'confirm' }, ctx);`,
            },
          ],
        },
      ],
    },
    // Invalid because: shorthand `password`, and an `api_key` in a nested object.
    {
      code: `${codec}const state = await codec.mint({ password, user: { name, api_key: k } }, ctx);`,
      errors: [
        {
          messageId: 'secretInSignedState',
          line: 2,
          column: 34,
          suggestions: [
            { messageId: 'removeSecret', output: `${codec}const state = await codec.mint({ user: { name, api_key: k } }, ctx);` },
          ],
        },
        {
          messageId: 'secretInSignedState',
          line: 2,
          column: 58,
          suggestions: [
            { messageId: 'removeSecret', output: `${codec}const state = await codec.mint({ password, user: { name } }, ctx);` },
          ],
        },
      ],
    },
    // Invalid because: the payload is built in a local first; reported at the key where it is written.
    {
      code: `${codec}const payload = {\n  step: 'pay',\n  authorization: header,\n};\nawait codec.mint(payload, ctx);`,
      errors: [
        {
          messageId: 'secretInSignedState',
          line: 4,
          column: 3,
          suggestions: [{ messageId: 'removeSecret', output: `${codec}const payload = {\n  step: 'pay',\n  };\nawait codec.mint(payload, ctx);` }],
        },
      ],
    },
    // Invalid because: a spread of a local object carrying a cookie.
    {
      code: `${codec}const session = { Cookie: c };\nawait codec.mint({ ...session, step }, ctx);`,
      errors: [{ messageId: 'secretInSignedState', line: 2, column: 19, suggestions: [{ messageId: 'removeSecret', output: `${codec}const session = {  };\nawait codec.mint({ ...session, step }, ctx);` }] }],
    },
    // Invalid because: the codec is created inline.
    {
      code: `await createRequestStateCodec({ key }).mint({ clientSecret: s }, ctx);`,
      errors: [{ messageId: 'secretInSignedState', line: 1, column: 47, suggestions: [{ messageId: 'removeSecret', output: `await createRequestStateCodec({ key }).mint({  }, ctx);` }] }],
    },
    // Invalid because: an imported codec named in the options, and an extra secret word.
    {
      code: `import { stateCodec } from './state.js';\nawait stateCodec.mint({ pin }, ctx);`,
      options: [{ signOnlyCodecs: ['stateCodec'], secretWords: ['pin'] }],
      errors: [{ messageId: 'secretInSignedState', line: 2, column: 25, suggestions: [{ messageId: 'removeSecret', output: `import { stateCodec } from './state.js';\nawait stateCodec.mint({  }, ctx);` }] }],
    },
    // Invalid because: a quoted key `x-api-key` and `credentials`.
    {
      code: `${codec}await codec.mint({ 'x-api-key': k, credentials: c }, ctx);`,
      errors: [
        { messageId: 'secretInSignedState', line: 2, column: 20, suggestions: [{ messageId: 'removeSecret', output: `${codec}await codec.mint({ credentials: c }, ctx);` }] },
        { messageId: 'secretInSignedState', line: 2, column: 36, suggestions: [{ messageId: 'removeSecret', output: `${codec}await codec.mint({ 'x-api-key': k }, ctx);` }] },
      ],
    },
    // Invalid because: \`port --codec sdk\` writes a continuation helper that only signs; its seal payload is the second argument.
    {
      code: `import { continuation } from './mrtr-continuation-sdk.js';\nawait continuation.seal(ctx, { step: 'pay', bind, refreshToken });`,
      errors: [
        {
          messageId: 'secretInSignedState',
          line: 2,
          column: 51,
          data: { key: 'refreshToken', sealer: 'the SDK-codec continuation helper (mrtr-continuation-sdk)' },
          suggestions: [{ messageId: 'removeSecret', output: `import { continuation } from './mrtr-continuation-sdk.js';\nawait continuation.seal(ctx, { step: 'pay', bind });` }],
        },
      ],
    },
  ],
});
