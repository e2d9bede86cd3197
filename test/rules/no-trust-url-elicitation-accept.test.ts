import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../../rules/no-trust-url-elicitation-accept.js';

const ruleTester = new RuleTester();

ruleTester.run('no-trust-url-elicitation-accept', rule, {
  valid: [
    // Valid because: after the accept the handler asks its own token store (awaited) whether the sign-in happened.
    `
server.registerTool('link', {}, async ({ provider }, ctx) => {
  const result = await ctx.mcpReq.elicitInput({ mode: 'url', message: 'Sign in', url: signInUrl(provider), elicitationId: id });
  if (result.action !== 'accept') return { content: [{ type: 'text', text: 'Sign-in ' + result.action }] };
  if (!(await tokens.has(provider))) return { isError: true, content: [{ type: 'text', text: 'sign-in not finished' }] };
  return { content: [{ type: 'text', text: 'Linked.' }] };
});`,
    // Valid because: MRTR: on an accept the server checks its callback's record and asks again while it is missing.
    `
server.registerTool('pay', {}, async (args, ctx) => {
  const paid = ctx.mcpReq.inputResponses?.['pay'];
  if (paid?.action !== 'accept') {
    return inputRequired({ inputRequests: { pay: inputRequired.elicitUrl({ message: 'Pay', url: checkoutUrl }) } });
  }
  if (!completedCheckouts.has(args.orderId)) {
    return inputRequired({ inputRequests: { pay: inputRequired.elicitUrl({ message: 'Finish paying', url: checkoutUrl }) } });
  }
  return { content: [{ type: 'text', text: 'Paid.' }] };
});`,
    // Valid because: a form-mode elicitation's accept carries the answer itself; trusting it is right.
    `
server.registerTool('name', {}, async (args, ctx) => {
  const r = await ctx.mcpReq.elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: {} } });
  if (r.action !== 'accept') return { content: [] };
  return { content: [{ type: 'text', text: 'Hi ' + r.content.name }] };
});`,
    // Valid because: the accept test also reads the server's own record: the check is in the condition.
    `
server.registerTool('link', {}, async (args, ctx) => {
  const auth = inputResponse(ctx.mcpReq.inputResponses, 'auth');
  if (auth.kind === 'elicit' && auth.action === 'accept' && sessions.isSignedIn(args.user)) return { content: [{ type: 'text', text: 'ok' }] };
  return inputRequired({ inputRequests: { auth: inputRequired.elicitUrl({ message: 'Sign in', url }) } });
});`,
    // Valid because: the answer is handed to a function of the server's that decides what it means.
    `
server.registerTool('link', {}, async (args, ctx) => {
  const result = await ctx.mcpReq.elicitInput({ mode: 'url', message: 'Sign in', url, elicitationId: id });
  return finishLink(result, id);
});`,
    // Valid because: a helper that only asks and returns the answer; its callers decide.
    `
async function askToOpen(ctx: Ctx, url: string) {
  return ctx.mcpReq.elicitInput({ mode: 'url', message: 'Open this', url, elicitationId: newId() });
}`,
    // Valid because: the URL question's accept path asks again (another URL step) rather than finishing.
    `
server.registerTool('two-step', {}, async (args, ctx) => {
  const first = ctx.mcpReq.inputResponses?.first;
  if (!first) return inputRequired({ inputRequests: { first: inputRequired.elicitUrl({ message: 'Step 1', url: a }) } });
  return inputRequired({ inputRequests: { second: inputRequired.elicitUrl({ message: 'Step 2', url: b }) } });
});`,
  ],
  invalid: [
    // Invalid because (the SDK's URL-mode guide shape): the accept is taken as "linked" with no check.
    {
      code: `
server.registerTool('link-account', {}, async ({ provider }, ctx) => {
  const result = await ctx.mcpReq.elicitInput({
    mode: 'url',
    message: 'Sign in to link your account',
    url: 'https://billing.example.com/connect/' + provider,
    elicitationId: crypto.randomUUID(),
  });
  if (result.action !== 'accept') {
    return { content: [{ type: 'text', text: 'Sign-in ' + result.action }] };
  }
  return { content: [{ type: 'text', text: 'Linked ' + provider }] };
});`,
      errors: [{ messageId: 'trustedUrlAccept', line: 3, data: { line: '12' } }],
    },
    // Invalid because (the SDK's MRTR deploy example shape): the raw answer's accept ends the flow.
    {
      code: `
server.registerTool('deploy', {}, async ({ env }, ctx) => {
  const auth = ctx.mcpReq.inputResponses?.['auth'] as { action?: string } | undefined;
  if (auth?.action !== 'accept') {
    return inputRequired({ inputRequests: { auth: inputRequired.elicitUrl({ message: 'Sign in', url: 'https://example.com/auth' }) } });
  }
  return { content: [{ type: 'text', text: 'deployed to ' + env }] };
});`,
      errors: [{ messageId: 'trustedUrlAccept', line: 3, data: { line: '7' } }],
    },
    // Invalid because: the ported runtime's elicit in URL mode, accept tested positively, then a sync side effect and the result.
    {
      code: `
import { elicit, resumable } from './mrtr-flow.js';
server.registerTool('connect', {}, resumable('connect', async (args, ctx) => {
  const params = { mode: 'url', message: 'Grant access', url: consentUrl, elicitationId: id };
  const answer = await elicit(params);
  if (answer.action === 'accept') {
    markConnected(args.user);
    return { content: [{ type: 'text', text: 'Connected.' }] };
  }
  return { content: [{ type: 'text', text: 'Not connected.' }] };
}));`,
      errors: [{ messageId: 'trustedUrlAccept', line: 5, data: { line: '8' } }],
    },
    // Invalid because: the accept decides the text of the result in place.
    {
      code: `
async function link(provider: string, ctx: Ctx) {
  const result = await ctx.mcpReq.elicitInput({ mode: 'url', message: 'Sign in', url: authorizeUrl(provider), elicitationId: id });
  return { content: [{ type: 'text', text: result.action === 'accept' ? 'linked ' + provider : 'link ' + result.action }] };
}`,
      errors: [{ messageId: 'trustedUrlAccept', line: 3, data: { line: '4' } }],
    },
    // Invalid because: the SDK view (inputResponse) of a URL question, tested by kind and action.
    {
      code: `
server.registerTool('signin', {}, async (args, ctx) => {
  const view = inputResponse(ctx.mcpReq.inputResponses, 'signin');
  if (view.kind !== 'elicit' || view.action !== 'accept') {
    return inputRequired({ inputRequests: { signin: inputRequired.elicitUrl({ message: 'Sign in to continue', url }) } });
  }
  return { content: [{ type: 'text', text: 'Signed in.' }] };
});`,
      errors: [{ messageId: 'trustedUrlAccept', line: 3, data: { line: '7' } }],
    },
    // Invalid because: the answer is not even read: the result follows the ask.
    {
      code: `
server.registerTool('open', {}, async (args, ctx) => {
  await ctx.mcpReq.elicitInput({ mode: 'url', message: 'Enter your API key there', url: keyPage, elicitationId: id });
  return { content: [{ type: 'text', text: 'API key stored.' }] };
});`,
      errors: [{ messageId: 'trustedUrlAccept', line: 3, data: { line: '4' } }],
    },
    // Invalid because: a switch on the action whose accept case finishes.
    {
      code: `
server.registerTool('pay', {}, async (args, ctx) => {
  const r = await server.server.elicitInput({ mode: 'url', message: 'Pay here', url: payUrl, elicitationId: id });
  switch (r.action) {
    case 'accept':
      return { content: [{ type: 'text', text: 'Payment received.' }] };
    default:
      return { content: [{ type: 'text', text: 'No payment.' }] };
  }
});`,
      errors: [{ messageId: 'trustedUrlAccept', line: 3, data: { line: '6' } }],
    },
  ],
});
