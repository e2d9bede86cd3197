import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../../rules/require-request-state-verification.js';

const ruleTester = new RuleTester();

ruleTester.run('require-request-state-verification', rule, {
  valid: [
    // Valid because: the server's verify seam is configured in this file (codec.verify).
    `
const codec = createRequestStateCodec({ key, ttlSeconds: 600 });
const server = new McpServer(info, { requestState: { verify: codec.verify } });
server.registerTool('t', {}, async (args, ctx) => {
  const st = ctx.mcpReq.requestState<{ step: string }>();
  return { content: [] };
});`,
    // Valid because: the seam is configured with the continuation helper's verifier, through a local const.
    `
const stateOptions = { verify: requestStateVerifier() };
const server = new McpServer(info, { requestState: stateOptions });
const s = ctx.mcpReq.requestState();`,
    // Valid because: the raw value goes straight into the codec's verify.
    `const st = await codec.verify(ctx.mcpReq.requestState() as string, ctx);`,
    // Valid because: stored first, then verified.
    `const raw = ctx.mcpReq.requestState<string>();\nif (raw) payload = await codec.verify(raw, ctx);`,
    // Valid because: a verifier named in the options.
    {
      code: `const st = checkState(ctx.mcpReq.requestState());`,
      options: [{ verifiers: ['checkState'] }],
    },
    // Valid because: the continuation helper reads and verifies the state itself; no raw read here.
    `const state = await continuation.open(ctx, bind);`,
    // Valid because: `requestState` is not the MRTR accessor when not on mcpReq.
    `const s = store.requestState();`,
  ],
  invalid: [
    // Invalid because: no verify seam in the file and the raw value is used directly; reported at the call.
    {
      code: `
server.registerTool('t', {}, async (args, ctx) => {
  const st = ctx.mcpReq.requestState<{ step: string }>();
  if (st?.step === 'confirm') return done();
});`,
      errors: [{ messageId: 'unverifiedRequestState', line: 3, column: 14, endLine: 3, endColumn: 57 }],
    },
    // Invalid because: parsed by hand, not verified.
    {
      code: `const st = JSON.parse(ctx.mcpReq.requestState() as string);`,
      errors: [{ messageId: 'unverifiedRequestState', line: 1, column: 23 }],
    },
    // Invalid because: each unverified read is reported; the second is verified.
    {
      code: `const a = ctx.mcpReq.requestState();\nconst b = await codec.verify(ctx.mcpReq.requestState(), ctx);\nuse(extra.mcpReq.requestState());`,
      errors: [
        { messageId: 'unverifiedRequestState', line: 1, column: 11 },
        { messageId: 'unverifiedRequestState', line: 3, column: 5 },
      ],
    },
    // Invalid because: a `requestState` option without `verify` is not the seam.
    {
      code: `const server = new McpServer(info, { requestState: {} });\nconst s = ctx.mcpReq.requestState();`,
      errors: [{ messageId: 'unverifiedRequestState', line: 2, column: 11 }],
    },
    // Invalid because: a `requestState` property in an input_required result is not the seam either.
    {
      code: `return inputRequired({ inputRequests, requestState: await continuation.seal(ctx, p) });\nconst s = ctx.mcpReq.requestState();`,
      errors: [{ messageId: 'unverifiedRequestState', line: 2, column: 11 }],
    },
  ],
});
