import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RuleTester } from '@typescript-eslint/rule-tester';
import { afterAll } from 'vitest';
import rule from '../../rules/require-request-state-verification.js';

// Two throw-away projects: one with no seam anywhere, one whose seam is configured in another file
// than the handlers (the rule searches the sources of the nearest package.json).
const work = mkdtempSync(join(tmpdir(), 'mrtr-seam-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const bare = project('bare', {});
const seamed = project('seamed', {
  'src/server.ts': `const codec = createRequestStateCodec({ key: process.env.KEY!, ttlSeconds: 600 });\nexport const server = new McpServer(info, { requestState: { verify: codec.verify } });`,
});

function project(name: string, files: Record<string, string>): string {
  const root = join(work, name);
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'package.json'), '{ "name": "x", "private": true }');
  for (const [file, text] of Object.entries(files)) writeFileSync(join(root, file), text);
  return root;
}

const ruleTester = new RuleTester({ defaultFilenames: { ts: join(bare, 'src', 'handler.ts'), tsx: join(bare, 'src', 'view.tsx') } });

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
    // Valid because: the seam is configured in another file of the same project (server.ts), where the server is built.
    {
      code: `server.registerTool('t', {}, async (args, ctx) => { const st = ctx.mcpReq.requestState<{ step: string }>(); return done(st); });`,
      filename: join(seamed, 'src', 'tools.ts'),
    },
    // Valid because: the option says the seam is configured where the rule cannot see it.
    { code: `const st = ctx.mcpReq.requestState();`, options: [{ seam: 'configured' }] },
    // Valid because: the SDK's own seam: the raw value is handed to its verify step (a verify-named method).
    `
const raw: unknown = ctx.mcpReq.requestState();
if (typeof raw === 'string') decoded = await this._verifyRequestState(raw, ctx, method);`,
    // Valid because: a pass-through accessor (a context wrapper) hands the value on; its callers are where it is used.
    `
const view = { requestState: <T,>() => ctx.mcpReq.requestState<T>() };
function stateOf(ctx) { return ctx.mcpReq.requestState(); }`,
    // Valid because: a hand-written server checks the HMAC before it parses (a local verifier, by what it does).
    `
function verifyState(raw: string) {
  const { data, mac } = JSON.parse(raw);
  return createHmac('sha256', KEY).update(data).digest('hex') === mac ? JSON.parse(data) : null;
}
handlers['tools/call'] = (params) => {
  const requestState = params.requestState as string | undefined;
  const state = requestState ? verifyState(requestState) : null;
  return state ? done(state) : ask();
};`,
    // Valid because: a raw state only tested for presence, or forwarded whole, is not trusted here.
    `if (params.requestState && params.inputResponses) forward(params.requestState);`,
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
    // Invalid because: a hand-written JSON-RPC server parses the raw requestState it was sent; reported at each decode.
    {
      code: `
handlers['tools/call'] = (params) => {
  const requestState = params.requestState as string | undefined;
  if (requestState && params.inputResponses?.confirm) {
    const state = JSON.parse(requestState);
    return done(state);
  }
  const { requestState: again } = params;
  return decodeState(again) ?? ask();
};`,
      errors: [
        { messageId: 'unverifiedRawState', line: 5, column: 19, data: { decoder: 'JSON.parse' } },
        { messageId: 'unverifiedRawState', line: 9, column: 10, data: { decoder: 'decodeState' } },
      ],
    },
    // Invalid because: a back-compat shim hands the raw state over in the tool arguments; decoding it trusts what the client sent.
    {
      code: `
server.registerTool('book', {}, async ({ _mrtr }) => {
  const { inputResponses, requestState } = readMrtr({ _mrtr });
  const prior = decodeState(requestState) ?? {};
  return prior.from ? done(prior) : ask(inputResponses);
});`,
      errors: [{ messageId: 'unverifiedRawState', line: 4, column: 17, data: { decoder: 'decodeState' } }],
    },
    // Invalid because: the raw field read straight off the request body.
    {
      code: `const state = JSON.parse(Buffer.from(req.body.params.requestState, 'base64url').toString());`,
      errors: [{ messageId: 'unverifiedRawState', line: 1, column: 26, data: { decoder: 'Buffer.from' } }],
    },
    // Invalid because: a seam the rule is told about does not make a hand decode of the raw field safe.
    {
      code: `const st = ctx.mcpReq.requestState();\nconst raw = JSON.parse(params.requestState);`,
      options: [{ seam: 'configured' }],
      errors: [{ messageId: 'unverifiedRawState', line: 2, column: 13 }],
    },
    // Invalid because: \`seam: 'file'\` does not look at other files, so the seam in server.ts does not count.
    {
      code: `const st = ctx.mcpReq.requestState();`,
      filename: join(seamed, 'src', 'tools.ts'),
      options: [{ seam: 'file' }],
      errors: [{ messageId: 'unverifiedRequestState', line: 1, column: 12 }],
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
