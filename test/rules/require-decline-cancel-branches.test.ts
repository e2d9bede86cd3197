import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../../rules/require-decline-cancel-branches.js';

const ruleTester = new RuleTester();

/** The question the cases ask: `confirm`, an elicitation. */
const ASK = `inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: 'Sure?', requestedSchema }) } })`;

ruleTester.run('require-decline-cancel-branches', rule, {
  valid: [
    // Valid because: the shape the port writes: ask on first round / foreign answer, then decline and cancel each return.
    `
server.registerTool('refund', {}, async ({ orderId }, ctx) => {
  const state = await continuation.open(ctx, bind);
  const answer = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
  if (state?.step !== 'confirm' || answer.kind !== 'elicit') {
    return inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: 'Refund?', requestedSchema }) }, requestState: await continuation.seal(ctx, { step: 'confirm', bind }) });
  }
  if (answer.action === 'decline') return { content: [{ type: 'text', text: 'Refund declined.' }] };
  if (answer.action === 'cancel') return { content: [{ type: 'text', text: 'Refund cancelled.' }] };
  return refund(orderId);
});`,
    // Valid because: one non-accept branch handles decline and cancel; the later re-ask (invalid content) is only reached after an accept.
    `
async function handler({ path }, ctx) {
  const askConfirm = () => ${ASK};
  const answer = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
  if (answer.kind !== 'elicit') return askConfirm();
  if (answer.action !== 'accept') return { content: [{ type: 'text', text: 'Not deleted' }] };
  const content = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', schema);
  if (content === undefined) return askConfirm();
  return remove(path);
}`,
    // Valid because: a switch over the action with decline and cancel cases.
    `
function h(ctx) {
  const answer = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
  if (answer.kind !== 'elicit') return ${ASK};
  switch (answer.action) {
    case 'accept': return go();
    case 'decline': return declined();
    case 'cancel': return cancelled();
  }
}`,
    // Valid because: a raw answer read; missing asks, decline/cancel return.
    `
function h(ctx) {
  const r = ctx.mcpReq.inputResponses?.confirm as ElicitResult | undefined;
  if (!r) return ${ASK};
  if (r.action !== 'accept') return stop(r.action);
  return go(r.content);
}`,
    // Valid because: the continuation helper's reader: undefined means missing or invalid (ask), decline/cancel return.
    `
function h(ctx) {
  const answer = elicitationAnswer(ctx.mcpReq.inputResponses, 'confirm', requestedSchema);
  if (!answer) return ${ASK};
  if (answer.action === 'decline') return declined();
  if (answer.action === 'cancel') return cancelled();
  return go(answer.content);
}`,
    // Valid because: a sampling answer has no decline or cancel.
    `
function h(ctx) {
  const summary = inputResponse(ctx.mcpReq.inputResponses, 'summary');
  if (summary.kind !== 'sampling') return inputRequired({ inputRequests: { summary: inputRequired.createMessage(params) } });
  return done(summary.result);
}`,
    // Valid because: a decline leads to a different question (why?), not the same one.
    `
function h(ctx) {
  const answer = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
  if (answer.kind !== 'elicit') return ${ASK};
  if (answer.action === 'decline') return inputRequired({ inputRequests: { reason: inputRequired.elicit({ message: 'Why?', requestedSchema }) } });
  if (answer.action === 'cancel') return cancelled();
  return go();
}`,
    // Valid because: the action is destructured and compared with accept.
    `
function h(ctx) {
  const answer = elicitationAnswer(ctx.mcpReq.inputResponses, 'confirm', s);
  if (answer === undefined) return ${ASK};
  const { action, content } = answer;
  if (action !== 'accept') return stop();
  return go(content);
}`,
    // Valid because: decline and cancel handled together with includes().
    `
function h(ctx) {
  const answer = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
  if (answer.kind === 'missing') return ${ASK};
  if (['decline', 'cancel'].includes(answer.action)) return stop();
  return go();
}`,
    // Valid because: a re-ask under a condition that does not depend on the answer is not certain to follow a decline.
    `
function h(ctx) {
  const answer = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
  if (answer.kind === 'elicit' && answer.action !== 'accept') return stop();
  if (needsConfirm(ctx)) return ${ASK};
  return go();
}`,
    // Valid because: the port's shape: the read is guarded by the state step, missing asks, and the result carries the action.
    `
server.registerTool('confirm', {}, async ({ what }, ctx) => {
  const state = await continuation.open(ctx, bind);
  const answer = state?.step === 'answer' ? elicitationAnswer(ctx.mcpReq.inputResponses, 'answer', schema) : undefined;
  if (answer === undefined) return inputRequired({ inputRequests: { answer: inputRequired.elicit(req) }, requestState: await continuation.seal(ctx, { step: 'answer', bind }) });
  return { content: [{ type: 'text', text: answer.action }] };
});`,
    // Valid because: the view is re-wrapped as \`{ action }\` (the port's URL-elicitation shape) and that action is checked.
    `
async function h(ctx) {
  const view = state?.step === 'done' ? inputResponse(ctx.mcpReq.inputResponses, 'done') : undefined;
  const done = view?.kind === 'elicit' ? { action: view.action } : undefined;
  if (done === undefined) return inputRequired({ inputRequests: { done: inputRequired.elicitUrl({ message: 'Pay', url }) } });
  if (done.action !== 'accept') return { content: [{ type: 'text', text: \`Payment \${done.action}\` }] };
  return paid();
}`,
    // Valid because: a multi-step handler assigns the answer to a \`let\` (earlier rounds' answer comes from the state); non-accept returns.
    `
async function h(ctx) {
  let amount;
  if (state?.step === 'confirm') {
    amount = state.amount;
  } else {
    amount = state?.step === 'amount' ? elicitationAnswer(ctx.mcpReq.inputResponses, 'amount', schema) : undefined;
    if (amount === undefined) return inputRequired({ inputRequests: { amount: inputRequired.elicit(req) } });
  }
  if (amount.action !== 'accept') return { content: [{ type: 'text', text: \`No refund (\${amount.action})\` }] };
  return go(amount.content);
}`,
    // Valid because (a known false negative, on purpose): the answer is handed whole to a helper, which may branch on it.
    `
function h(ctx) {
  const answer = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
  if (answer.kind !== 'elicit') return ${ASK};
  return finish(answer);
}`,
    // Valid because: a re-ask inside a loop body is not certain to run (the loop may not iterate); decline is handled first anyway.
    `
function h(ctx, items) {
  const answer = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
  if (answer.kind === 'elicit' && answer.action !== 'accept') return stop();
  for (const item of items) {
    if (answer.kind !== 'elicit') return ${ASK};
  }
  return go();
}`,
    // Valid because: a presence check comes first, so an undefined acceptedContent after it is a decline or a cancel, refused.
    `
async function h(args, ctx) {
  const responses = ctx.mcpReq.inputResponses ?? {};
  if (!('confirm' in responses)) return ${ASK};
  const content = acceptedContent(responses, 'confirm', schema);
  if (!content) return { content: [{ type: 'text', text: 'Not confirmed.' }] };
  return go(content);
}`,
    // Valid because: the ported shape: the runtime's elicit() answer is an ElicitResult, and non-accept returns.
    `
import { elicit, resumable } from './mrtr-flow.js';
server.registerTool('refund', {}, resumable('refund', async ({ orderId }, ctx) => {
  const answer = await elicit({ message: 'Refund?', requestedSchema });
  if (answer.action !== 'accept') return declined(answer.action);
  return refund(orderId, answer.content);
}));`,
    // Valid because: legacy elicitInput answers are not this rule's (no-legacy-server-requests reports the call).
    `
server.registerTool('t', {}, async (args, ctx) => {
  const r = await ctx.mcpReq.elicitInput({ message: 'Go?', requestedSchema });
  console.log(r.action);
  return go(r.content);
});`,
    // Valid because: a hand-written server reads through an alias of the responses map and checks the action.
    `
handlers['tools/call'] = (params) => {
  const inputResponses = params.inputResponses as Record<string, ElicitResult> | undefined;
  const answer = inputResponses?.['confirm'];
  if (!answer) return { resultType: 'input_required', inputRequests: { confirm: { method: 'elicitation/create', params: q } } };
  if (answer.action !== 'accept') return { content: [{ type: 'text', text: 'Not done.' }] };
  return done();
};`,
    // Valid because: a runtime elicit() whose answer is handed whole to a helper (it may branch there).
    `
import { elicit } from './mrtr-flow.js';
async function ask(q) { const a = await elicit(q); return finish(a); }`,
    // Valid because: a generic accessor reads whatever key its caller names; the callers handle (or not) each answer.
    `
export function createInputs(mcpReq) {
  const responses = mcpReq?.inputResponses;
  return { accepted: (key: string, schema?: Schema) => (schema === undefined ? acceptedContent(responses, key) : acceptedContent(responses, key, schema)) };
}`,
    // Valid because: the answer is only shown in the result (a fallback, the action through a cast local): a decline ends in that reply and nothing acts on it.
    `
import { elicit, resumable } from './mrtr-flow.js';
server.registerPrompt('standup', {}, resumable('standup', async (ctx) => {
  const answer = await elicit({ message: 'What did you do yesterday?', requestedSchema });
  return { messages: [{ role: 'user', content: { type: 'text', text: \`Yesterday: \${String(answer.content?.text ?? '')}\` } }] };
}));
server.registerTool('card', {}, resumable('card', async ({ title }, ctx) => {
  const answer = await elicit({ message: \`Render \${title}?\`, requestedSchema });
  const verdict = answer.action as string;
  return { content: [{ type: 'text', text: \`\${title}: \${verdict}\` }] };
}));`,
    // Valid because (Unreal_mcp, after the port): the action is read into a local first, then each
    // action gets its branch through that local.
    `
import { elicit } from './mrtr-flow.js';
export async function askMissing(params: object, opts: { alternate?: () => unknown }) {
  const res = await elicit(params);
  const action = res?.action;
  if (action === 'accept') return { ok: true, value: res.content };
  if (action === 'decline' || action === 'cancel') return opts.alternate ? opts.alternate() : { ok: false, reason: action };
  return { ok: false, reason: 'unknown' };
}`,
  ],
  invalid: [
    // Invalid because: a hand-written server reads the answer through a local alias of the map: a decline is truthy, so it is taken as yes.
    {
      code: `
handlers['tools/call'] = (params) => {
  const inputResponses = params.inputResponses as Record<string, unknown> | undefined;
  if (inputResponses?.['user_name']) return { content: [{ type: 'text', text: 'Hello!' }] };
  return { resultType: 'input_required', inputRequests: { user_name: { method: 'elicitation/create', params: { message: 'Name?', requestedSchema } } } };
};`,
      errors: [{ messageId: 'declineIsTruthy', line: 4, column: 7, data: { key: 'user_name', missing: 'decline or cancel' } }],
    },
    // Invalid because: the same in a tool handler (4-space file): the guard reads the answer the same way, at the file's indentation.
    {
      code: `
server.registerTool('greet', {}, async (args, ctx) => {
    const responses = ctx.mcpReq.inputResponses;
    if (responses?.units) {
        return { content: [{ type: 'text', text: 'ok' }] };
    }
    return wrap({ inputRequests: { units: elicitForm({ message: 'Units?', requestedSchema }) } });
});
function elicitForm(params) {
    return { method: 'elicitation/create', params };
}`,
      errors: [
        {
          messageId: 'declineIsTruthy',
          line: 4,
          column: 9,
          data: { key: 'units', missing: 'decline or cancel' },
          suggestions: [
            {
              messageId: 'returnOnDeclineOrCancel',
              data: { key: 'units' },
              output: `
server.registerTool('greet', {}, async (args, ctx) => {
    const responses = ctx.mcpReq.inputResponses;
    if ((responses?.units as { action?: string } | undefined)?.action === 'decline' || (responses?.units as { action?: string } | undefined)?.action === 'cancel') {
        return { content: [{ type: 'text', text: \`Not done (\${(responses?.units as { action?: string } | undefined)?.action}).\` }] };
    }
    if (responses?.units) {
        return { content: [{ type: 'text', text: 'ok' }] };
    }
    return wrap({ inputRequests: { units: elicitForm({ message: 'Units?', requestedSchema }) } });
});
function elicitForm(params) {
    return { method: 'elicitation/create', params };
}`,
            },
          ],
        },
      ],
    },
    // Invalid because: a ported handler's elicit() answer is an ElicitResult like the legacy one: a decline must not fall through to the accept path.
    {
      code: `
import { elicit, resumable } from './mrtr-flow.js';
server.registerTool('del', {}, resumable('del', async ({ path }, ctx) => {
    const answer = await elicit({ message: \`Delete \${path}?\`, requestedSchema });
    if (answer.content?.confirm) await fs.rm(path);
    return { content: [{ type: 'text', text: 'ok' }] };
}));`,
      errors: [
        {
          messageId: 'missingDeclineCancel',
          line: 4,
          column: 26,
          data: { key: 'answer', missing: 'decline or cancel' },
          suggestions: [
            {
              messageId: 'returnOnDeclineOrCancel',
              data: { key: 'answer' },
              output: `
import { elicit, resumable } from './mrtr-flow.js';
server.registerTool('del', {}, resumable('del', async ({ path }, ctx) => {
    const answer = await elicit({ message: \`Delete \${path}?\`, requestedSchema });
    if (answer?.action === 'decline' || answer?.action === 'cancel') {
        return { content: [{ type: 'text', text: \`Not done (\${answer?.action}).\` }] };
    }
    if (answer.content?.confirm) await fs.rm(path);
    return { content: [{ type: 'text', text: 'ok' }] };
}));`,
            },
          ],
        },
      ],
    },
    // Invalid because: a runtime elicit() answer that handles decline but lets a cancel through.
    {
      code: `
import { elicit } from './mrtr-flow.js';
async function confirmStep(message) {
  const r = await elicit({ message, requestedSchema });
  if (r.action === 'decline') return declined();
  return go(r.content);
}`,
      errors: [{ messageId: 'missingDeclineCancel', line: 4, column: 19, data: { key: 'r', missing: 'cancel' } }],
    },
    // Invalid because: a made-up fallback shown as the user's answer: a declined "which scope?" reads "Wiped all".
    {
      code: `
import { elicit, resumable } from './mrtr-flow.js';
server.registerTool('wipe', {}, resumable('wipe', async (args, ctx) => {
  const answer = await elicit({ message: 'Which scope?', requestedSchema });
  return { content: [{ type: 'text', text: \`Wiped \${answer.content?.scope ?? 'all'}\` }] };
}));`,
      errors: [
        {
          messageId: 'missingDeclineCancel',
          line: 4,
          column: 24,
          data: { key: 'answer', missing: 'decline or cancel' },
          suggestions: [
            {
              messageId: 'returnOnDeclineOrCancel',
              data: { key: 'answer' },
              output: `
import { elicit, resumable } from './mrtr-flow.js';
server.registerTool('wipe', {}, resumable('wipe', async (args, ctx) => {
  const answer = await elicit({ message: 'Which scope?', requestedSchema });
  if (answer?.action === 'decline' || answer?.action === 'cancel') {
    return { content: [{ type: 'text', text: \`Not done (\${answer?.action}).\` }] };
  }
  return { content: [{ type: 'text', text: \`Wiped \${answer.content?.scope ?? 'all'}\` }] };
}));`,
            },
          ],
        },
      ],
    },
    // Invalid because: the fallback of a declined answer is handed to a call, not just shown: a decline deletes everything.
    {
      code: `
import { elicit, resumable } from './mrtr-flow.js';
server.registerTool('purge', {}, resumable('purge', async (args, ctx) => {
  const answer = await elicit({ message: 'Which scope?', requestedSchema });
  return { content: [{ type: 'text', text: String(await purge(answer.content?.scope ?? 'all')) }] };
}));`,
      errors: [
        {
          messageId: 'missingDeclineCancel',
          line: 4,
          column: 24,
          data: { key: 'answer', missing: 'decline or cancel' },
          suggestions: [
            {
              messageId: 'returnOnDeclineOrCancel',
              data: { key: 'answer' },
              output: `
import { elicit, resumable } from './mrtr-flow.js';
server.registerTool('purge', {}, resumable('purge', async (args, ctx) => {
  const answer = await elicit({ message: 'Which scope?', requestedSchema });
  if (answer?.action === 'decline' || answer?.action === 'cancel') {
    return { content: [{ type: 'text', text: \`Not done (\${answer?.action}).\` }] };
  }
  return { content: [{ type: 'text', text: String(await purge(answer.content?.scope ?? 'all')) }] };
}));`,
            },
          ],
        },
      ],
    },
    // Invalid because: a presence check does not help when the refusal is missing: after it, a decline re-asks.
    {
      code: `
async function h(ctx) {
  const responses = ctx.mcpReq.inputResponses ?? {};
  const content = acceptedContent(responses, 'confirm', schema);
  if ('confirm' in responses && content) return go(content);
  return ${ASK};
}`,
      errors: [{ messageId: 'reaskOnDecline', line: 4, column: 19, data: { key: 'confirm', line: 6 } }],
    },
    // Invalid because: the pattern \`if (!accepted) return inputRequired(...)\` re-asks forever after a decline; reported at the read.
    {
      code: `
function h(ctx) {
  const content = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', schema);
  if (!content) return ${ASK};
  return go(content);
}`,
      errors: [{ messageId: 'reaskOnDecline', line: 3, column: 19, data: { key: 'confirm', line: 4 } }],
    },
    // Invalid because: acceptedContent alone cannot tell decline from cancel from missing.
    {
      code: `
function h(ctx) {
  const content = acceptedContent(ctx.mcpReq.inputResponses, 'confirm');
  if (content?.ok === true) return go();
  return { content: [] };
}`,
      errors: [{ messageId: 'acceptedContentOnly', line: 3, column: 19 }],
    },
    // Invalid because: only decline is checked; a cancel falls through to the accept path.
    {
      code: `
function h(ctx) {
  const answer = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
  if (answer.kind !== 'elicit') return ${ASK};
  if (answer.action === 'decline') return declined();
  return go(answer.content);
}`,
      errors: [{ messageId: 'missingDeclineCancel', line: 3, column: 18, data: { key: 'confirm', missing: 'cancel' } }],
    },
    // Invalid because: a not-accepted answer goes to a local helper that asks the same question again.
    {
      code: `
function h(ctx) {
  const askConfirm = () => ${ASK};
  const answer = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
  if (answer.kind !== 'elicit' || answer.action !== 'accept') return askConfirm();
  return go();
}`,
      errors: [{ messageId: 'reaskOnDecline', line: 4, column: 18, data: { key: 'confirm', line: 5 } }],
    },
    // Invalid because: a raw read; anything but accept asks again. Reported at the raw read.
    {
      code: `
function h(ctx) {
  const r = ctx.mcpReq.inputResponses?.confirm;
  if (r?.action !== 'accept') return ${ASK};
  return go();
}`,
      errors: [{ messageId: 'reaskOnDecline', line: 3, column: 13 }],
    },
    // Invalid because: the state step check is unknown, but once it passes, a decline (content undefined) asks again.
    {
      code: `
async function h(ctx) {
  const state = await continuation.open(ctx, bind);
  if (state?.step !== 'confirm') return ${ASK};
  const content = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', schema);
  if (content === undefined) {
    return ${ASK};
  }
  return go(content);
}`,
      errors: [{ messageId: 'reaskOnDecline', line: 5, column: 19, data: { key: 'confirm', line: 7 } }],
    },
    // Invalid because: the continuation reader, but a not-accepted answer re-asks.
    {
      code: `
function h(ctx) {
  const a = elicitationAnswer(ctx.mcpReq.inputResponses, 'confirm', s);
  if (a?.action !== 'accept') return ${ASK};
  return go();
}`,
      errors: [{ messageId: 'reaskOnDecline', line: 3, column: 13 }],
    },
    // Invalid because: in a tool handler, decline and cancel are never checked; the suggestion adds an early return.
    {
      code: `
server.registerTool('t', {}, async (args, ctx) => {
  const answer = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
  if (answer.kind === 'missing') return ${ASK};
  return go(answer.content);
});`,
      errors: [
        {
          messageId: 'missingDeclineCancel',
          line: 3,
          column: 18,
          data: { key: 'confirm', missing: 'decline or cancel' },
          suggestions: [
            {
              messageId: 'returnOnDeclineOrCancel',
              output: `
server.registerTool('t', {}, async (args, ctx) => {
  const answer = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
  if (answer.kind === 'elicit' && answer.action !== 'accept') {
    return { content: [{ type: 'text', text: \`Not done (\${answer.action}).\` }] };
  }
  if (answer.kind === 'missing') return ${ASK};
  return go(answer.content);
});`,
            },
          ],
        },
      ],
    },
    // Invalid because: in a tool handler, the re-ask comes first; the suggestion puts the guard in front of it.
    {
      code: `
server.registerTool('t', {}, async (args, ctx) => {
  const answer = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
  if (answer.kind !== 'elicit' || answer.action !== 'accept') {
    return ${ASK};
  }
  return go();
});`,
      errors: [
        {
          messageId: 'reaskOnDecline',
          line: 3,
          column: 18,
          suggestions: [
            {
              messageId: 'returnOnDeclineOrCancel',
              output: `
server.registerTool('t', {}, async (args, ctx) => {
  const answer = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
  if (answer.kind === 'elicit' && answer.action !== 'accept') {
    return { content: [{ type: 'text', text: \`Not done (\${answer.action}).\` }] };
  }
  if (answer.kind !== 'elicit' || answer.action !== 'accept') {
    return ${ASK};
  }
  return go();
});`,
            },
          ],
        },
      ],
    },
    // Invalid because: a switch that covers accept and decline only; cancel is not handled.
    {
      code: `
function h(ctx) {
  const answer = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
  if (answer.kind !== 'elicit') return ${ASK};
  switch (answer.action) {
    case 'accept': return go();
    case 'decline': return stop();
  }
}`,
      errors: [{ messageId: 'missingDeclineCancel', line: 3, column: 18, data: { key: 'confirm', missing: 'cancel' } }],
    },
    // Invalid because: two answers, each judged on its own: 'name' is handled, 'confirm' re-asks.
    {
      code: `
function h(ctx) {
  const name = inputResponse(ctx.mcpReq.inputResponses, 'name');
  const ok = acceptedContent(ctx.mcpReq.inputResponses, 'confirm');
  if (name.kind === 'elicit' && name.action !== 'accept') return stop();
  if (!ok) return inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: 'Sure?', requestedSchema }) } });
  return go();
}`,
      errors: [{ messageId: 'reaskOnDecline', line: 4, column: 14, data: { key: 'confirm', line: 6 } }],
    },
    // Invalid because: the action is only logged, not branched on or returned.
    {
      code: `
function h(ctx) {
  const answer = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
  if (answer.kind !== 'elicit') return ${ASK};
  console.log(answer.action);
  return go();
}`,
      errors: [{ messageId: 'missingDeclineCancel', line: 3, column: 18, data: { key: 'confirm', missing: 'decline or cancel' } }],
    },
    // Invalid because: assigned to a \`let\`, then anything but accept asks the same question again.
    {
      code: `
function h(ctx) {
  let answer;
  answer = elicitationAnswer(ctx.mcpReq.inputResponses, 'confirm', s);
  if (answer?.action !== 'accept') return ${ASK};
  return go();
}`,
      errors: [{ messageId: 'reaskOnDecline', line: 4, column: 12, data: { key: 'confirm', line: 5 } }],
    },
    // Invalid because: inside try/finally the re-ask still runs on a decline.
    {
      code: `
async function h(ctx) {
  try {
    const content = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', schema);
    if (content === undefined) return ${ASK};
    return await go(content);
  } finally {
    release();
  }
}`,
      errors: [{ messageId: 'reaskOnDecline', line: 4, column: 21, data: { key: 'confirm', line: 5 } }],
    },
    // Invalid because: the decline case of a switch asks the same question again.
    {
      code: `
function h(ctx) {
  const answer = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
  switch (answer.kind === 'elicit' ? answer.action : 'missing') {
    case 'accept': return go();
    case 'cancel': return stop();
    case 'decline':
    default:
      return ${ASK};
  }
}`,
      errors: [{ messageId: 'reaskOnDecline', line: 3, column: 18, data: { key: 'confirm', line: 9 } }],
    },
    // Invalid because: the bug pattern in a tool handler; the suggestion reads the view first (importing inputResponse) and returns on decline and cancel.
    {
      code: `import { McpServer, inputRequired } from '@modelcontextprotocol/server';
server.registerTool('t', {}, async (args, ctx) => {
  const content = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', schema);
  if (!content) return ${ASK};
  return go(content);
});`,
      errors: [
        {
          messageId: 'reaskOnDecline',
          line: 3,
          column: 19,
          suggestions: [
            {
              messageId: 'returnOnDeclineOrCancel',
              output: `import { McpServer, inputRequired, inputResponse } from '@modelcontextprotocol/server';
server.registerTool('t', {}, async (args, ctx) => {
  const confirmAnswer = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
  if (confirmAnswer.kind === 'elicit' && confirmAnswer.action !== 'accept') {
    return { content: [{ type: 'text', text: \`Not done (\${confirmAnswer.action}).\` }] };
  }
  const content = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', schema);
  if (!content) return ${ASK};
  return go(content);
});`,
            },
          ],
        },
      ],
    },
    // Invalid because: acceptedContent only, inputResponse already imported (aliased): the suggestion uses the alias.
    {
      code: `import { inputResponse as view, acceptedContent } from '@modelcontextprotocol/server';
server.registerTool('t', {}, async (args, ctx) => {
  const c = acceptedContent(ctx.mcpReq.inputResponses, 'ok');
  return c ? go(c) : stop();
});`,
      errors: [
        {
          messageId: 'acceptedContentOnly',
          line: 3,
          column: 13,
          suggestions: [
            {
              messageId: 'returnOnDeclineOrCancel',
              output: `import { inputResponse as view, acceptedContent } from '@modelcontextprotocol/server';
server.registerTool('t', {}, async (args, ctx) => {
  const okAnswer = view(ctx.mcpReq.inputResponses, 'ok');
  if (okAnswer.kind === 'elicit' && okAnswer.action !== 'accept') {
    return { content: [{ type: 'text', text: \`Not done (\${okAnswer.action}).\` }] };
  }
  const c = acceptedContent(ctx.mcpReq.inputResponses, 'ok');
  return c ? go(c) : stop();
});`,
            },
          ],
        },
      ],
    },
  ],
});
