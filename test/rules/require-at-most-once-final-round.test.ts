import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../../rules/require-at-most-once-final-round.js';

const ruleTester = new RuleTester();
const ASK = `inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: 'ok?', requestedSchema: {} }) } })`;

ruleTester.run('require-at-most-once-final-round', rule, {
  valid: [
    // Valid because: the final round is claimed before the refund; a replay gets false and returns.
    `
server.registerTool('refund', {}, async ({ orderId }, ctx) => {
  const opened = await continuation.openState(ctx, bind);
  const answer = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
  if (!opened || answer.kind !== 'elicit') return ${ASK};
  if (answer.action !== 'accept') return { content: [] };
  if (!(await claimOnce(opened))) return { isError: true, content: [] };
  await payments.refund(orderId);
  return { content: [] };
});`,
    // Valid because: the claim's result is stored and branched on; the effect is only on the claimed branch.
    `
async function h(args: Args, ctx: Ctx) {
  const answer = acceptedContent(ctx.mcpReq.inputResponses, 'confirm');
  if (!answer) return ${ASK};
  const first = await claimOnce(opened);
  if (first) {
    await mailer.sendReceipt(args.to);
  }
  return { content: [] };
}`,
    // Valid because: the resumable runtime claims the final round itself (docs/engine.md).
    `
import { elicit, resumable } from './mrtr-flow.js';
server.registerTool('refund', {}, resumable('refund', async ({ orderId }, ctx) => {
  const answer = await elicit({ message: 'Refund?', requestedSchema });
  if (answer.action !== 'accept') return { content: [] };
  await payments.refund(orderId);
  refunds.push(orderId);
  return { content: [] };
}));`,
    // Valid because: an idempotency key makes the provider drop the second charge.
    `
async function h(args: Args, ctx: Ctx) {
  const ok = ctx.mcpReq.inputResponses?.confirm;
  if (!ok) return ${ASK};
  await stripe.charges.create({ amount: args.amount }, { idempotencyKey: args.requestId });
  await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': args.requestId } });
  return { content: [] };
}`,
    // Valid because: setting, deleting and a "list changed" notification leave the same state when repeated.
    `
async function h(args: Args, ctx: Ctx) {
  const answer = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
  if (answer.kind !== 'elicit') return ${ASK};
  settings[args.key] = args.value;
  delete cache[args.key];
  await kv.set(args.key, args.value);
  await fs.promises.writeFile(args.path, args.text);
  await store.removeItem(args.id);
  await fetch(url, { method: 'PUT', body });
  await server.sendResourceListChanged();
  return { content: [] };
}`,
    // Valid because: idempotentCallees lists a helper that makes its callback repeat-safe, and a keyed upsert.
    {
      code: `
async function h(args: Args, ctx: Ctx) {
  if (!ctx.mcpReq.inputResponses?.confirm) return ${ASK};
  await withIdempotency(args.requestId, () => ledger.insert(args.entry));
  await orders.placeOrder(args.order);
  return { content: [] };
}`,
      options: [{ idempotentCallees: ['withIdempotency', 'orders.placeOrder'] }],
    },
    // Valid because: claimCallees names the project's own claim, which throws on a replay.
    {
      code: `
async function h(args: Args, ctx: Ctx) {
  if (!ctx.mcpReq.inputResponses?.confirm) return ${ASK};
  await claims.assertFirstCompletion(ctx);
  await ledger.insert(args.entry);
  return { content: [] };
}`,
      options: [{ claimCallees: ['claims.assertFirstCompletion'] }],
    },
    // Valid because: effects before the ask are no-side-effects-before-last-answer's business, not this rule's.
    `
async function h(ctx: Ctx) {
  await audit.record('asked');
  if (!acceptedContent(ctx.mcpReq.inputResponses, 'confirm')) return ${ASK};
  return { content: [] };
}`,
    // Valid because: a function that never asks has no final round.
    `async function h(ctx: Ctx) { const a = ctx.mcpReq.inputResponses?.x; await db.insert(a); return {}; }`,
    // Valid because: a path that returns before any answer is read is an ordinary call, not a final round.
    `
async function h(args: Args, ctx: Ctx) {
  if (args.force) { await db.insert(args.row); return { content: [] }; }
  const answer = ctx.mcpReq.inputResponses?.confirm;
  if (!answer) return ${ASK};
  return { content: [] };
}`,
    // Valid because: the local helpers called on the final round only read, or only set values; the one that appends runs after the claim.
    `
function describe(id: string) { return labels.get(id) ?? id; }
function remember(id: string, v: string) { seen[id] = v; }
function log(id: string) { history.push(id); }
async function h(args: Args, ctx: Ctx) {
  const answer = acceptedContent(ctx.mcpReq.inputResponses, 'confirm');
  if (!answer) return ${ASK};
  remember(args.id, describe(args.id));
  if (!(await claimOnce(opened))) return { content: [] };
  log(args.id);
  return { content: [] };
}`,
  ],
  invalid: [
    // Invalid because: the refund after the last answer is not claimed: a replayed final round refunds twice.
    {
      code: `
server.registerTool('refund', {}, async ({ orderId }, ctx) => {
  const state = await continuation.open(ctx, bind);
  const answer = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
  if (state?.step !== 'confirm' || answer.kind !== 'elicit') return ${ASK};
  if (answer.action === 'decline') return { content: [] };
  await payments.refund(orderId);
  refunds.push(orderId);
  counter++;
  return { content: [] };
});`,
      errors: [
        { messageId: 'unclaimedFinalEffect', line: 7, column: 9, data: { what: 'awaited call `payments.refund(...)`', answerLine: '4' } },
        { messageId: 'unclaimedFinalEffect', line: 8, column: 3, data: { what: 'mutating call `refunds.push(...)` on state outside the handler', answerLine: '4' } },
        { messageId: 'unclaimedFinalEffect', line: 9, column: 3, data: { what: 'update of `counter`', answerLine: '4' } },
      ],
    },
    // Invalid because: claimOnce's result is dropped, so a replay still charges.
    {
      code: `
async function h(args: Args, ctx: Ctx) {
  const answer = acceptedContent(ctx.mcpReq.inputResponses, 'confirm');
  if (!answer) return ${ASK};
  await claimOnce(opened);
  await billing.chargeCard(args.card);
  return { content: [] };
}`,
      errors: [{ messageId: 'claimResultIgnored', line: 6, column: 9, data: { what: 'awaited call `billing.chargeCard(...)`', claimLine: '5' } }],
    },
    // Invalid because: the claim is on one branch only; the other branch reaches the insert unclaimed.
    {
      code: `
async function h(args: Args, ctx: Ctx) {
  const answer = ctx.mcpReq.inputResponses?.confirm;
  if (!answer) return ${ASK};
  if (args.strict && !(await claimOnce(opened))) return { content: [] };
  await db.insert(args.row);
  return { content: [] };
}`,
      errors: [{ messageId: 'unclaimedFinalEffect', line: 6, column: 9, data: { what: 'write `db.insert(...)`', answerLine: '3' } }],
    },
    // Invalid because: a hand-written JSON-RPC server reads params.inputResponses; the mail after it is sent again on a replay.
    {
      code: `
async function callTool(params: Params) {
  const { inputResponses } = params;
  if (!inputResponses?.confirm) return { resultType: 'input_required', inputRequests: { confirm: req } };
  await mailer.sendInvoice(params.arguments.to);
  total = total + params.arguments.amount;
  return { content: [] };
}`,
      errors: [
        { messageId: 'unclaimedFinalEffect', line: 5, column: 9, data: { what: 'awaited call `mailer.sendInvoice(...)`', answerLine: '4' } },
        { messageId: 'unclaimedFinalEffect', line: 6, column: 3, data: { what: 'assignment to `total`', answerLine: '4' } },
      ],
    },
    // Invalid because: the effect inside a callback the handler awaits runs on the final round too; POST is not idempotent.
    {
      code: `
async function h(args: Args, ctx: Ctx) {
  const answer = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
  if (answer.kind !== 'elicit') return ${ASK};
  await Promise.all(args.ids.map(async (id) => { await fetch(url + id, { method: 'POST' }); }));
  return { content: [] };
}`,
      errors: [{ messageId: 'unclaimedFinalEffect', line: 5, column: 56, data: { what: '`fetch(...)` with method POST', answerLine: '3' } }],
    },
    // Invalid because: the final round calls a local helper that calls another one bumping a module counter: a replay adds the tasks again.
    {
      code: `
let nextId = 1;
function addTask(title: string) { const task = { id: nextId++, title }; tasks.set(task.id, task); return task; }
server.registerTool('brainstorm', {}, async (args, ctx) => {
  const finish = async (text: string) => ({ content: [{ type: 'text', text: String(text.split('\\n').map((t) => addTask(t)).length) }] });
  const state = ctx.mcpReq.requestState<{ step: string }>();
  if (state?.step !== 'ideas') return inputRequired({ inputRequests: { ideas: req }, requestState: await codec.mint({ step: 'ideas' }, ctx) });
  return finish(sampledText(ctx.mcpReq.inputResponses?.['ideas']));
});`,
      errors: [
        {
          messageId: 'unclaimedFinalEffectInHelper',
          line: 8,
          column: 10,
          data: { callee: 'finish', answerLine: '8', what: 'update of `nextId`', effectLine: '3' },
        },
      ],
    },
    // Invalid because: effectCallees makes a read-named call an effect here too.
    {
      code: `
async function h(args: Args, ctx: Ctx) {
  if (!ctx.mcpReq.inputResponses?.confirm) return ${ASK};
  await accounts.getOrCreate(args.user);
  return { content: [] };
}`,
      options: [{ effectCallees: ['getOrCreate*'] }],
      errors: [{ messageId: 'unclaimedFinalEffect', line: 4, column: 9, data: { what: 'call `accounts.getOrCreate(...)`', answerLine: '3' } }],
    },
  ],
});
