import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../../rules/require-capability-check.js';

const ruleTester = new RuleTester();
const ELICIT = `{ method: 'elicitation/create', params: { message: 'Name?', requestedSchema } }`;

ruleTester.run('require-capability-check', rule, {
  valid: [
    // Valid because: built with the SDK's builders: the SDK server checks each request against the capabilities.
    `
server.registerTool('t', {}, async (args, ctx) => {
  return inputRequired({ inputRequests: { name: inputRequired.elicit({ message: 'Name?', requestedSchema }) } });
});`,
    // Valid because: a hand-written server reads the per-request capabilities and falls back without elicitation.
    `
handlers['tools/call'] = (params) => {
  const caps = params._meta?.['io.modelcontextprotocol/clientCapabilities'];
  if (!caps?.elicitation) return { content: [{ type: 'text', text: 'Using the default name.' }] };
  return { resultType: 'input_required', inputRequests: { name: ${ELICIT} } };
};`,
    // Valid because: the capability check lives in a local helper the handler calls.
    `
function canAsk(meta) { return Boolean(meta?.['io.modelcontextprotocol/clientCapabilities']?.sampling); }
server.registerTool('t', {}, async (args, ctx) => {
  if (!canAsk(ctx.mcpReq._meta)) return fallback();
  return { resultType: 'input_required', inputRequests: { draft: { method: 'sampling/createMessage', params: p } } };
});`,
    // Valid because: the SDK's result factory given hand-written entries is still the SDK's result, checked by its server.
    `return inputRequired({ inputRequests: { name: ${ELICIT} } });`,
    // Valid because: the server's own capabilities declaration is not a read of the client's.
    `
const server = new Server(info, { capabilities: { tools: {} } });
server.setRequestHandler('tools/call', async (req) => ({ resultType: 'input_required', inputRequests: { n: inputRequired.elicit(q) } }));`,
    // Valid because: entries whose request cannot be seen (a parameter) are not judged.
    `function asked(requests) { return { resultType: 'input_required', inputRequests: requests }; }`,
  ],
  invalid: [
    // Invalid because: a hand-written JSON-RPC server asks for elicitation without looking at the client capabilities.
    {
      code: `
handlers['tools/call'] = (params) => {
  if (params.inputResponses?.name) return done();
  return { resultType: 'input_required', inputRequests: { name: ${ELICIT} } };
};`,
      errors: [{ messageId: 'uncheckedCapability', line: 4, column: 59, data: { capability: 'elicitation', key: 'name', builder: 'elicit' } }],
    },
    // Invalid because: a raw JSON-RPC response whose result asks for sampling and roots; each entry is reported.
    {
      code: `
app.post('/mcp', (req, res) => {
  res.json({
    jsonrpc: '2.0',
    id: req.body.id,
    result: {
      resultType: 'input_required',
      inputRequests: {
        draft: { method: 'sampling/createMessage', params: { messages, maxTokens: 100 } },
        roots: { method: 'roots/list' },
      },
    },
  });
});`,
      errors: [
        { messageId: 'uncheckedCapability', line: 9, column: 9, data: { capability: 'sampling', key: 'draft', builder: 'createMessage' } },
        { messageId: 'uncheckedCapability', line: 10, column: 9, data: { capability: 'roots', key: 'roots', builder: 'listRoots' } },
      ],
    },
    // Invalid because: a wrapper of its own around a hand-built result, with the request made by a local helper.
    {
      code: `
function elicitForm(params) { return { method: 'elicitation/create', params }; }
server.registerTool('weather', {}, async ({ location }) => {
  return wrap({ inputRequests: { units: elicitForm({ message: 'Which units?', requestedSchema }) } });
});`,
      errors: [{ messageId: 'uncheckedCapability', line: 4, column: 34, data: { capability: 'elicitation', key: 'units', builder: 'elicit' } }],
    },
    // Invalid because: a check in another handler does not cover this one.
    {
      code: `
server.registerTool('a', {}, async (args, ctx) => (ctx.mcpReq.clientCapabilities?.elicitation ? ask() : skip()));
server.registerTool('b', {}, async (args, ctx) => ({ resultType: 'input_required', inputRequests: { name: ${ELICIT} } }));`,
      errors: [{ messageId: 'uncheckedCapability', line: 3, column: 101 }],
    },
  ],
});
