import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../../rules/no-legacy-server-requests.js';

const ruleTester = new RuleTester();

ruleTester.run('no-legacy-server-requests', rule, {
  valid: [
    // Valid because: the MRTR shape itself (inputRequired + builders) is not a push-style request.
    `
server.registerTool('t', {}, async (args, ctx) => {
  const a = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
  if (a.kind !== 'elicit') return inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: 'ok?', requestedSchema: {} }) } });
  return { content: [] };
});`,
    // Valid because: createMessage/listRoots on something that is not a protocol Server (an LLM client).
    `const r = await openai.chat.createMessage({ model: 'x' }); await fsClient.listRoots();`,
    // Valid because: a raw send of a non-server→client method (a notification) is not a legacy request.
    `await ctx.mcpReq.send({ method: 'notifications/progress', params: {} });`,
    // Valid because: a raw request whose method is not statically known is not claimed.
    `await server.server.request({ method: someMethod, params: {} });`,
    // Valid because: a bare elicitInput that was not taken off a legacy receiver (some local function).
    `async function elicitInput(x: string) { return x; } await elicitInput('q');`,
    // Valid because: era-guarded arm, factory context `era === 'legacy'`.
    `
createMcpHandler((reqCtx) => {
  const server = new McpServer(info);
  server.registerTool('t', {}, async (args, ctx) => {
    if (reqCtx.era === 'legacy') {
      const r = await ctx.mcpReq.elicitInput({ message: 'ok?', requestedSchema: {} });
      return { content: [] };
    }
    return inputRequired({ inputRequests: { q: inputRequired.elicit({ message: 'ok?', requestedSchema: {} }) } });
  });
  return server;
});`,
    // Valid because: the whole legacy server is built in the factory's legacy arm (guards reach into handlers).
    `
createMcpHandler(({ era }) => {
  const server = new McpServer(info);
  if (era === 'legacy') {
    server.registerTool('t', {}, async (args, ctx) => { await ctx.mcpReq.elicitInput({ message: 'm', requestedSchema: {} }); return { content: [] }; });
  }
  return server;
});`,
    // Valid because: era-guarded by the missing envelope (2025 requests carry none), in the alternate of a modern test.
    `
async function h(args: unknown, ctx: Ctx) {
  if (ctx.mcpReq.envelope !== undefined) {
    return inputRequired({ inputRequests: { q: inputRequired.elicit({ message: 'm', requestedSchema: {} }) } });
  } else {
    await ctx.mcpReq.elicitInput({ message: 'm', requestedSchema: {} });
  }
}`,
    // Valid because: negated envelope test and optional chaining still mean "2025 era".
    `if (!ctx.mcpReq?.envelope) { await ctx.mcpReq.requestSampling({ messages: [], maxTokens: 5 }); }`,
    // Valid because: early exit for the modern era leaves the rest of the block legacy-only.
    `
async function h(ctx: Ctx, era: 'legacy' | 'modern') {
  if (era !== 'legacy') {
    return inputRequired({ inputRequests: { q: inputRequired.listRoots() } });
  }
  const roots = await server.server.listRoots();
  return roots;
}`,
    // Valid because: a conditional expression and a logical && guard.
    `
const a = era === 'legacy' ? await server.server.createMessage({ messages: [], maxTokens: 1 }) : undefined;
const b = ctx.mcpReq.envelope === undefined && (await ctx.mcpReq.elicitInput({ message: 'm', requestedSchema: {} }));`,
    // Valid because: a file importing only the client SDK answers these requests; it never sends them.
    `
import { Client } from '@modelcontextprotocol/client';
client.setRequestHandler('sampling/createMessage', async (req, extra) => extra.sendRequest({ method: 'roots/list' }, ListRootsResultSchema));`,
    // Valid because: inside a client-side handler for a server→client method (a gateway that is also a client).
    `
import { McpServer } from '@modelcontextprotocol/server';
upstream.setRequestHandler(CreateMessageRequestSchema, async (req, extra) => {
  return extra.sendRequest({ method: 'roots/list' }, ListRootsResultSchema);
});`,
    // Valid because: the protocol's own method asks through `this.request` (its own method): the
    // implementation of the ask, not a use of it.
    `
class ProtocolServer extends Protocol {
  async listRoots() { return this.request({ method: 'roots/list' }, ListRootsResultSchema); }
}`,
    // Valid because: a class calling its own wrapper (`this.elicitInput`, defined below) is not the ask;
    // the ask is inside the wrapper (and there it goes through a non-server, so nothing here is a site).
    `
class Tools {
  async elicitInput(q: string) { return prompt(q); }
  async run() { return this.elicitInput('name?'); }
}`,
    // Valid because: the URL error is constructed but not thrown in a 2026 arm: only throws are sites,
    // and this throw is era-guarded by typeof.
    `if (typeof ctx.mcpReq.envelope === 'undefined') { throw new UrlElicitationRequiredError([]); }`,
    // Valid because: the port's runtime asks the MRTR way: elicit / sample / listRoots / request from ./mrtr-flow.js.
    `
import { elicit, listRoots, request, resumable, sample } from './mrtr-flow.js';
server.registerTool('t', {}, resumable('t', async (args, ctx) => {
  const a = await elicit({ message: 'ok?', requestedSchema: {} });
  const s = await sample({ messages: [], maxTokens: 5 });
  const { roots } = await listRoots();
  const r = await request({ method: 'elicitation/create', params: { message: 'm', requestedSchema: {} } });
  return { content: [] };
}));`,
  ],
  invalid: [
    // Invalid because (simply-mcp-ts shape): a framework's own method named like the ask forwards to the
    // protocol server; its callers are the framework's users, so the call inside is a site.
    {
      code: `
class BuildServer {
  private server = new Server(info, {});
  async createMessage(messages: unknown[]) {
    return this.server.createMessage({ messages, maxTokens: 100 });
  }
}`,
      errors: [{ messageId: 'legacyRequestOutsideHandler', line: 5 }],
    },
    // Invalid because (Unreal_mcp shape): the method is read off the server and invoked with `.call`.
    {
      code: `
async function ask(server: unknown, params: object) {
  const method = (server as Record<string, unknown>)?.elicitInput;
  if (typeof method !== 'function') throw new Error('no elicitation');
  return (method as (p: object) => Promise<unknown>).call(server, params);
}`,
      errors: [{ messageId: 'legacyRequestOutsideHandler', line: 5 }],
    },
    // Invalid because (mcp-ts-template shape): `elicitInput` is a distinctive name: taken off any
    // context object in a server file and called later, it is the ask.
    {
      code: `
function wrapElicit(sdkContext: SdkContext) {
  if (typeof sdkContext.elicitInput !== 'function') return undefined;
  const fn = sdkContext.elicitInput;
  return (message: string, schema: object) => fn({ message, requestedSchema: schema });
}`,
      errors: [{ messageId: 'legacyRequestOutsideHandler', line: 5 }],
    },
    // Invalid because (gel-mcp-server shape): a helper of this file returns the bound method; the call
    // of what it returned is the ask.
    {
      code: `
function findAsk(server: McpServer) {
  const s = server as unknown as { server?: { elicitInput?: Function } };
  if (typeof s.server?.elicitInput === 'function') return s.server.elicitInput.bind(s.server);
  return null;
}
export async function run(server: McpServer, params: object) {
  const fn = findAsk(server);
  return fn ? await fn(params) : null;
}`,
      errors: [{ messageId: 'legacyRequestOutsideHandler', line: 9 }],
    },
    // Invalid because (linear-mcp-server shape): a local name for the low-level server read off
    // `.server` (with a fallback) sends a raw roots/list request.
    {
      code: `
export async function listClientRoots(server: McpServer) {
  const lowLevel = (server as any).server ?? server;
  return lowLevel.request({ method: 'roots/list' }, ListRootsResultSchema);
}`,
      errors: [{ messageId: 'legacyRequestOutsideHandler', line: 4 }],
    },
    // Invalid because (agents' McpAgent shape): a hand-built JSON-RPC elicitation/create written to the
    // transport, inside the class's own elicitInput: the push-style ask itself.
    {
      code: `
class Agent {
  async elicitInput(params: object) {
    const request = { jsonrpc: '2.0', id: nextId(), method: 'elicitation/create', params };
    await this.transport.send(request);
    return waitForAnswer(request.id);
  }
}`,
      errors: [{ messageId: 'legacyRequestOutsideHandler', line: 5 }],
    },
    // Invalid because (fastmcp shape): the protocol server kept in a private field.
    {
      code: `
class Session {
  #server: Server;
  async roots() { return this.#server.listRoots(); }
}`,
      errors: [{ messageId: 'legacyRequestOutsideHandler', line: 4 }],
    },
    // Invalid because (kyalabs shape): a module-level reference typed `Server | null`, set at start-up.
    {
      code: `
let serverRef: Server | null = null;
export function attach(server: Server) { serverRef = server; }
export async function summarize(text: string) {
  if (!serverRef) return undefined;
  return serverRef.createMessage({ messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 50 });
}`,
      errors: [{ messageId: 'legacyRequestOutsideHandler', line: 6 }],
    },
    // Invalid because (council-of-mine shape): a protocol client keyed by the spec method.
    {
      code: `
const sample = Effect.gen(function* () {
  const client = yield* getClient;
  return yield* client['sampling/createMessage']({ messages: [], maxTokens: 10 });
});`,
      errors: [{ messageId: 'legacyRequestOutsideHandler', line: 4 }],
    },
    // Invalid because: the spec method as a positional argument of another library's protocol layer.
    {
      code: `await peer.request('sampling/createMessage', { messages: [], maxTokens: 10 });`,
      errors: [{ messageId: 'legacyRequestOutsideHandler', line: 1 }],
    },
    // Invalid because: in a notification handler MRTR cannot serve the ask: the message says what to do instead (not "port rewrites it").
    {
      code: `
server.server.setNotificationHandler('notifications/initialized', async () => {
  await server.server.listRoots();
});`,
      errors: [
        {
          messageId: 'legacyRequestUnportable',
          line: 3,
          column: 9,
          data: {
            what: '`server.server.listRoots(...)` sends a push-style roots request',
            where: 'notification handler',
            advice: 'Asked from a notification handler: MRTR needs a client request to answer. Ask from a tool, prompt or resource handler instead, or drop the ask.',
          },
        },
      ],
    },
    // Invalid because: a lifecycle hook, a tools/list handler and a timer: each its own class and advice.
    {
      code: `
server.server.oninitialized = async () => { await server.server.listRoots(); };
server.server.setRequestHandler('tools/list', async (req, ctx) => { await ctx.mcpReq.elicitInput(q); return { tools }; });
server.registerTool('later', {}, async (args, ctx) => {
  setTimeout(async () => { await server.server.elicitInput(q); }, 1000);
  return { content: [] };
});`,
      errors: [
        { messageId: 'legacyRequestUnportable', line: 2, column: 51, data: { what: '`server.server.listRoots(...)` sends a push-style roots request', where: '`oninitialized` hook', advice: 'Asked from oninitialized/onclose or at start-up: there is no request to answer. Read the value from configuration, or ask lazily inside a tool.' } },
        { messageId: 'legacyRequestUnportable', line: 3, column: 75, data: { what: '`ctx.mcpReq.elicitInput(...)` sends a push-style elicitation request', where: '`tools/list` handler', advice: 'Asked while serving a request other than tools/call, prompts/get or resources/read (e.g. tools/list, completion): MRTR forbids input_required there. Precompute or move it into a tool.' } },
        { messageId: 'legacyRequestUnportable', line: 5, column: 34, data: { what: '`server.server.elicitInput(...)` sends a push-style elicitation request', where: 'timer callback', advice: 'Asked from a timer or background job: MRTR cannot push requests to the client. Move the ask into the tool call that needs it.' } },
      ],
    },
    // Invalid because: a tool handler registered by name below it, and a URL-elicitation throw in a tool handler.
    {
      code: `
async function deploy(args, ctx) {
  const ok = await ctx.mcpReq.elicitInput(q);
  if (!ok) throw new UrlElicitationRequiredError([]);
  return { content: [] };
}
server.registerTool('deploy', {}, deploy);`,
      errors: [
        { messageId: 'legacyRequest', line: 3, column: 20, data: { callee: 'ctx.mcpReq.elicitInput', kind: 'elicitation' } },
        { messageId: 'urlElicitationError', line: 4, column: 12 },
      ],
    },
    // Invalid because: the v2 context push-style elicitation; reported at the call, not at `await`.
    {
      code: `
server.registerTool('t', {}, async (args, ctx) => {
  const r = await ctx.mcpReq.elicitInput({ message: 'ok?', requestedSchema: {} });
  return { content: [] };
});`,
      errors: [{ messageId: 'legacyRequest', line: 3, column: 19, data: { callee: 'ctx.mcpReq.elicitInput', kind: 'elicitation' } }],
    },
    // Invalid because: sampling through the v2 context, and roots through the protocol server.
    {
      code: `await ctx.mcpReq.requestSampling({ messages: [], maxTokens: 5 });\nconst { roots } = await mcp.server.listRoots();`,
      errors: [
        { messageId: 'legacyRequestOutsideHandler', line: 1, column: 7, data: { what: '`ctx.mcpReq.requestSampling(...)` sends a push-style sampling request' } },
        { messageId: 'legacyRequestOutsideHandler', line: 2, column: 25, data: { what: '`mcp.server.listRoots(...)` sends a push-style roots request' } },
      ],
    },
    // Invalid because: casts, non-null assertions and parentheses are stripped from the callee chain.
    {
      code: `await ((ctx as any).mcpReq!).elicitInput({ message: 'm', requestedSchema: {} });`,
      errors: [{ messageId: 'legacyRequestOutsideHandler', line: 1, column: 7 }],
    },
    // Invalid because: a raw send of elicitation/create, with the method read through a local const object.
    {
      code: `
const METHODS = { elicit: 'elicitation/create' } as const;
async function ask(ctx: Ctx) {
  return ctx.mcpReq.send({ method: METHODS.elicit, params: { message: 'm', requestedSchema: {} } });
}`,
      errors: [{ messageId: 'legacyRequestOutsideHandler', line: 4, column: 10, data: { what: '`ctx.mcpReq.send(...)` sends a push-style elicitation request' } }],
    },
    // Invalid because: the request object itself is a local const holding the method literal.
    {
      code: `const req = { method: 'roots/list' }; await server.server.request(req);`,
      errors: [{ messageId: 'legacyRequestOutsideHandler', line: 1, column: 45, data: { what: '`server.server.request(...)` sends a push-style roots request' } }],
    },
    // Invalid because: v1 extra.sendRequest, with a method literal and with only the result schema.
    {
      code: `
await extra.sendRequest({ method: 'sampling/createMessage', params: p }, CreateMessageResultSchema);
await extra.sendRequest(req, types.ElicitResultSchema);`,
      errors: [
        { messageId: 'legacyRequestOutsideHandler', line: 2, column: 7, data: { what: '`extra.sendRequest(...)` sends a push-style sampling request' } },
        { messageId: 'legacyRequestOutsideHandler', line: 3, column: 7, data: { what: '`extra.sendRequest(...)` sends a push-style elicitation request' } },
      ],
    },
    // Invalid because: a low-level Server instance not named `server`, found by its construction.
    {
      code: `const low = new Server(info, opts);\nawait low.elicitInput({ message: 'm', requestedSchema: {} });`,
      errors: [{ messageId: 'legacyRequestOutsideHandler', line: 2, column: 7, data: { what: '`low.elicitInput(...)` sends a push-style elicitation request' } }],
    },
    // Invalid because: a class field typed Server, called through this.
    {
      code: `
class Tools {
  private proto: Server;
  constructor(p: Server) { this.proto = p; }
  async ask() { return this.proto.createMessage({ messages: [], maxTokens: 1 }); }
}`,
      errors: [{ messageId: 'legacyRequestOutsideHandler', line: 5, column: 24, data: { what: '`this.proto.createMessage(...)` sends a push-style sampling request' } }],
    },
    // Invalid because: bare calls destructured off the legacy receivers (local and parameter patterns).
    {
      code: `
const { elicitInput } = ctx.mcpReq;
await elicitInput({ message: 'm', requestedSchema: {} });
server.tool('t', async (args, { sendRequest }) => sendRequest({ method: 'roots/list' }, ListRootsResultSchema));
async function h(a: A, { mcpReq: { send } }: Ctx) { await send({ method: 'elicitation/create', params: {} }); }`,
      errors: [
        { messageId: 'legacyRequestOutsideHandler', line: 3, column: 7, data: { what: '`elicitInput(...)` sends a push-style elicitation request' } },
        { messageId: 'legacyRequest', line: 4, column: 51, data: { callee: 'sendRequest', kind: 'roots' } },
        { messageId: 'legacyRequestOutsideHandler', line: 5, column: 59, data: { what: '`send(...)` sends a push-style elicitation request' } },
      ],
    },
    // Invalid because: aliases of a legacy method (`const ask = ctx.mcpReq.elicitInput`, `.bind`) and a method passed on as a parameter.
    {
      code: `
const ask = ctx.mcpReq.elicitInput;
await ask({ message: 'm', requestedSchema: {} });
const sample = mcp.server.createMessage.bind(mcp.server);
await sample({ messages: [], maxTokens: 1 });
async function confirm(send: Send) { return send({ method: 'elicitation/create', params: {} }); }`,
      errors: [
        { messageId: 'legacyRequestOutsideHandler', line: 3, column: 7, data: { what: '`ask(...)` sends a push-style elicitation request' } },
        { messageId: 'legacyRequestOutsideHandler', line: 5, column: 7, data: { what: '`sample(...)` sends a push-style sampling request' } },
        { messageId: 'legacyRequestOutsideHandler', line: 6, column: 45, data: { what: '`send(...)` sends a push-style elicitation request' } },
      ],
    },
    // Invalid because: a client-capability check is not an era guard (a 2026 client can lack elicitation too).
    {
      code: `
if (server.server.getClientCapabilities()?.elicitation) {
  await ctx.mcpReq.elicitInput({ message: 'm', requestedSchema: {} });
}`,
      errors: [{ messageId: 'legacyRequestOutsideHandler', line: 3, column: 9 }],
    },
    // Invalid because: the legacy call sits in the MODERN arm of an era test.
    {
      code: `if (era === 'legacy') { doLegacy(); } else { await ctx.mcpReq.elicitInput({ message: 'm', requestedSchema: {} }); }`,
      errors: [{ messageId: 'legacyRequestOutsideHandler', line: 1, column: 52 }],
    },
    // Invalid because: the early return is for the LEGACY era, so what follows is the modern arm.
    {
      code: `
async function h(ctx: Ctx) {
  if (ctx.mcpReq.envelope === undefined) return legacy();
  return ctx.mcpReq.elicitInput({ message: 'm', requestedSchema: {} });
}`,
      errors: [{ messageId: 'legacyRequestOutsideHandler', line: 4, column: 10 }],
    },
    // Invalid because: an early exit that does not always exit does not guard what follows.
    {
      code: `
async function h(ctx: Ctx) {
  if (era !== 'legacy') { if (x) return modern(); }
  await ctx.mcpReq.elicitInput({ message: 'm', requestedSchema: {} });
}`,
      errors: [{ messageId: 'legacyRequestOutsideHandler', line: 4, column: 9 }],
    },
    // Invalid because: the 2025 URL-elicitation error, reported at the throw.
    {
      code: `async function h() {\n  throw new UrlElicitationRequiredError([{ mode: 'url', url: 'https://x', message: 'm', elicitationId: 'e' }]);\n}`,
      errors: [{ messageId: 'legacyRequestOutsideHandler', line: 2, column: 3, data: { what: '`throw new UrlElicitationRequiredError(...)` asks for a URL elicitation push-style' } }],
    },
  ],
});
