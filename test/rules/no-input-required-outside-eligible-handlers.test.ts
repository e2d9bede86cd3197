import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../../rules/no-input-required-outside-eligible-handlers.js';

const ruleTester = new RuleTester();
const ASK = `inputRequired({ inputRequests: { q: inputRequired.elicit({ message: 'm', requestedSchema: {} }) } })`;

ruleTester.run('no-input-required-outside-eligible-handlers', rule, {
  valid: [
    // Valid because: registerTool / registerPrompt / registerResource callbacks serve eligible requests.
    `
server.registerTool('t', {}, async (args, ctx) => ${ASK});
server.registerPrompt('p', {}, async (args, ctx) => { return ${ASK}; });
server.registerResource('r', 'file:///x', {}, async (uri, ctx) => ${ASK});`,
    // Valid because: v1-style tool() with the callback last is a tools/call handler.
    `server.tool('t', { a: z.string() }, async (args, extra) => ${ASK});`,
    // Valid because: low-level handlers for the three eligible methods, by string and by v1 schema.
    `
server.server.setRequestHandler('tools/call', async (req, ctx) => ${ASK});
low.setRequestHandler(GetPromptRequestSchema, async (req, extra) => ${ASK});
low.setRequestHandler(types.ReadResourceRequestSchema, async (req, extra) => ${ASK});`,
    // Valid because: a handler registered by name for an eligible method.
    `
async function callTool(req: unknown, ctx: unknown) { return ${ASK}; }
server.server.setRequestHandler('tools/call', callTool);`,
    // Valid because: a helper outside any registration may be called from an eligible handler.
    `const askAgain = () => ${ASK};`,
    // Valid because: the request method is not statically known; nothing is claimed.
    `server.server.setRequestHandler(method, async () => ${ASK});`,
    // Valid because: the resource read callback of a template registration is eligible; only list/complete are not.
    `server.registerResource('r', new ResourceTemplate('file:///{p}', { list: undefined }), {}, async (uri, vars, ctx) => ${ASK});`,
    // Valid because: a hand-written JSON-RPC server's method map: tools/call may return input_required.
    `
const handlers: Record<string, Handler> = {};
handlers['tools/call'] = (params) => ({ resultType: 'input_required', inputRequests: { q: { method: 'elicitation/create', params: q } } });
const routes = { 'prompts/get': async (p) => ${ASK} };`,
    // Valid because: the port's wrapper hands the handler on unchanged: it still serves tools/call.
    `
import { resumable } from './mrtr-flow.js';
server.registerTool('t', {}, resumable('t', async (args, ctx) => ${ASK}));`,
    // Valid because: a map key that is not a request method says nothing about the handler.
    `const table = { confirm: () => ${ASK}, 'a b': () => ${ASK} };`,
  ],
  invalid: [
    // Invalid because: a method-keyed handler map of a hand-written server: tools/list cannot ask (object result and builder).
    {
      code: `
const handlers: Record<string, Handler> = {};
handlers['tools/list'] = () => ({
  resultType: 'input_required',
  inputRequests: { bogus: { method: 'elicitation/create', params } },
});
const dispatch = { 'prompts/list': async () => ${ASK} };`,
      errors: [
        { messageId: 'ineligibleHandler', line: 3, column: 33, data: { handler: '`tools/list` handler' } },
        { messageId: 'ineligibleHandler', line: 7, column: 48, data: { handler: '`prompts/list` handler' } },
      ],
    },
    // Invalid because: handlers stored by name in a method map, and in a Map used as one.
    {
      code: `
function listTools() { return ${ASK}; }
async function discover() { return ${ASK}; }
const handlers = { 'tools/list': listTools };
const routes = new Map();
routes.set('server/discover', discover);`,
      errors: [
        { messageId: 'ineligibleHandler', line: 2, column: 31, data: { handler: '`tools/list` handler' } },
        { messageId: 'ineligibleHandler', line: 3, column: 36, data: { handler: '`server/discover` handler' } },
      ],
    },
    // Invalid because: tools/list cannot return input_required; reported at the inputRequired(...) call.
    {
      code: `server.server.setRequestHandler('tools/list', async () => {\n  return ${ASK};\n});`,
      errors: [{ messageId: 'ineligibleHandler', line: 2, column: 10, data: { handler: '`tools/list` handler' } }],
    },
    // Invalid because: the v1 schema form of tools/list.
    {
      code: `low.setRequestHandler(ListToolsRequestSchema, async () => ${ASK});`,
      errors: [{ messageId: 'ineligibleHandler', line: 1, column: 59, data: { handler: '`tools/list` handler' } }],
    },
    // Invalid because: notification handlers answer nothing at all.
    {
      code: `server.server.setNotificationHandler('notifications/initialized', async () => { ${ASK}; });`,
      errors: [{ messageId: 'ineligibleHandler', line: 1, column: 81, data: { handler: 'notification handler' } }],
    },
    // Invalid because: completion callbacks (completable) serve completion/complete, even inside registerPrompt.
    {
      code: `
server.registerPrompt('p', { argsSchema: z.object({ lang: completable(z.string(), async (value) => {
  return ${ASK};
}) }) }, async () => ({ messages: [] }));`,
      errors: [{ messageId: 'ineligibleHandler', line: 3, column: 10, data: { handler: 'completion callback (`completion/complete`)' } }],
    },
    // Invalid because: a resource template's list and complete callbacks serve resources/list and completion/complete.
    {
      code: `
new ResourceTemplate('file:///{p}', {
  list: async () => ${ASK},
  complete: { p: async () => ${ASK} },
});`,
      errors: [
        { messageId: 'ineligibleHandler', line: 3, column: 21, data: { handler: 'resource template `list` callback (`resources/list`)' } },
        { messageId: 'ineligibleHandler', line: 4, column: 30, data: { handler: 'resource template `complete` callback (`completion/complete`)' } },
      ],
    },
    // Invalid because: a handler registered by name (declared after use) for a custom method.
    {
      code: `
server.server.setRequestHandler('custom/thing', { params: P }, handleThing);
async function handleThing() {
  const make = () => ${ASK};
  return make();
}`,
      errors: [{ messageId: 'ineligibleHandler', line: 4, column: 22, data: { handler: '`custom/thing` handler' } }],
    },
    // Invalid because: a lifecycle hook is not a request handler.
    {
      code: `server.server.oninitialized = () => { const r = ${ASK}; };`,
      errors: [{ messageId: 'ineligibleHandler', line: 1, column: 49, data: { handler: '`oninitialized` hook' } }],
    },
    // Invalid because: a hand-built input_required object in a prompts/list handler; reported at the object.
    {
      code: `server.server.setRequestHandler('prompts/list', async () => ({ resultType: 'input_required', requestState: s }));`,
      errors: [{ messageId: 'ineligibleHandler', line: 1, column: 62, data: { handler: '`prompts/list` handler' } }],
    },
    // Invalid because: a cast on the callback does not hide where it is registered.
    {
      code: `server.server.setRequestHandler('resources/list', (async () => ${ASK}) as Handler);`,
      errors: [{ messageId: 'ineligibleHandler', line: 1, column: 64 }],
    },
  ],
});
