import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../../rules/no-side-effects-before-last-answer.js';

const ruleTester = new RuleTester();
const ASK = `inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: 'ok?', requestedSchema: {} }) } })`;

ruleTester.run('no-side-effects-before-last-answer', rule, {
  valid: [
    // Valid because (inspector test server shape): a counter folded into the requestState is a per-round
    // nonce: each asking round mints its own state on purpose.
    `
let mints = 0;
server.registerTool('t', {}, async (args, ctx) => {
  if (!ctx.mcpReq.inputResponses?.ok) {
    return inputRequired({ inputRequests: { ok: inputRequired.elicit({ message: 'ok?', requestedSchema }) }, requestState: \`step1:\${++mints}\` });
  }
  return { content: [] };
});`,
    // Valid because: the ported shape: reads before the ask, the write only after the last answer.
    `
server.registerTool('refund', {}, async ({ orderId, amount }, ctx) => {
  const order = await orders.get(orderId);
  const state = await continuation.open(ctx, bind);
  const answer = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
  if (state?.step !== 'confirm' || answer.kind !== 'elicit') {
    return inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: 'm', requestedSchema: {} }) },
      requestState: await continuation.seal(ctx, { step: 'confirm' }) });
  }
  if (answer.action === 'decline') return { content: [] };
  await payments.refund(order, amount);
  deleted.push(orderId);
  return { content: [] };
});`,
    // Valid because: a function that never returns input_required is not this rule's business.
    `async function save(x: number) { await db.insert(x); counter++; return x; }`,
    // Valid because: an early return after the effect means that path can no longer ask.
    `
async function h(ctx: Ctx) {
  const a = acceptedContent(ctx.mcpReq.inputResponses, 'confirm');
  if (a) { await db.insert(a); return { content: [] }; }
  return ${ASK};
}`,
    // Valid because: throwing paths are exempt: the effect is only followed by a throw.
    `
async function h(ctx: Ctx) {
  if (!ctx.ok) { await audit.write('denied'); throw new Error('denied'); }
  if (!ctx.answer) return ${ASK};
  return { content: [] };
}`,
    // Valid because: local variables and the handler's own objects are not outside state.
    `
async function h(args: Args, ctx: Ctx) {
  let tries = 0; tries++;
  const seen = new Set<string>(); seen.add('a');
  const out: string[] = []; out.push('x');
  args.normalized = true;
  if (!ctx.answer) return ${ASK};
  return { content: [] };
}`,
    // Valid because: known reads: get*/find*/list*/read*/stat, fetch without a method or with GET, Promise.all of reads.
    `
async function h(ctx: Ctx) {
  const u = await users.findUnique({ where: {} });
  const f = await fs.promises.readFile('a');
  const s = await fsp.stat('a');
  const r = await fetch(url);
  const g = await fetch(url, { method: 'GET' });
  const [a, b] = await Promise.all([api.getA(), api.listB()]);
  if (!ctx.answer) return ${ASK};
  return { content: [] };
}`,
    // Valid because: the answer is consumed in a callback after the ask; nothing there can reach the ask.
    `
server.registerTool('t', {}, async (args, ctx) => {
  const answer = acceptedContent(ctx.mcpReq.inputResponses, 'confirm');
  if (!answer) return ${ASK};
  await new Promise((resolve) => db.save(answer, resolve));
  return { content: [] };
});`,
    // Valid because: a callback that is defined but not run before the ask (stored for later) is not an effect there.
    `
async function h(ctx: Ctx) {
  const later = async () => { await db.insert(1); };
  if (!ctx.answer) return ${ASK};
  await later();
  return { content: [] };
}`,
    // Valid because: the effect is listed as pure in the options.
    {
      code: `async function h(ctx: Ctx) { await cache.warmUp(); if (!ctx.answer) return ${ASK}; return {}; }`,
      options: [{ pureCallees: ['cache.warmUp'] }],
    },
    // Valid because: an effect inside a conditional ask's other branch cannot reach the ask.
    `
async function h(ctx: Ctx) {
  if (ctx.needsConfirm) {
    if (!ctx.answer) return ${ASK};
  }
  await payments.charge(ctx.amount);
  return { content: [] };
}`,
    // Valid because: switch: the effect sits in a case that returns without asking.
    `
async function h(ctx: Ctx, op: string) {
  switch (op) {
    case 'save':
      await db.insert(op);
      return { content: [] };
    case 'ask':
      return ${ASK};
    default:
      return {};
  }
}`,
    // Valid because: the namespace form mcp.inputRequired is an ask too, and only reads precede it.
    `
async function h(ctx: Ctx) {
  const perms = await checkPermissions(ctx);
  if (!ctx.answer) return mcp.inputRequired({ inputRequests: {} });
  await db.insert(perms);
  return {};
}`,
    // Valid because: an ask returned from a nested callback is that callback's, not the handler's.
    `
async function h(ctx: Ctx, items: string[]) {
  await db.insert(items);
  const asks = items.map((i) => ${ASK});
  return { content: [], asks };
}`,
    // Valid because: a helper that may return the ask is awaited and its result returned when it is one:
    // the awaited helper call is the ask itself (the helper-asks transform writes this shape).
    `
async function confirmDelete(ctx: Ctx): Promise<boolean | InputRequiredResult> {
  if (!ctx.answer) return ${ASK};
  return true;
}
server.registerTool('delete', {}, async ({ path }, ctx) => {
  const ok = await confirmDelete(ctx);
  if (isInputRequiredResult(ok)) return ok;
  await fs.promises.rm(path);
  return { content: [] };
});`,
    // Valid because: reads whose names are on no list (describe*, preview*) are not effects: only write-looking names are.
    `
async function h(ctx: Ctx) {
  const targets = await describeTargets(ctx.args);
  const plan = await planner.previewPlan(targets);
  if (!ctx.answer) return ${ASK};
  await applyPlan(plan);
  return {};
}`,
    // Valid because: the ported shape: every effect before the ask is memoized with once(), so it runs once per call.
    `
import { elicit, once, resumable } from './mrtr-flow.js';
server.registerTool('refund', { inputSchema }, resumable('refund', async ({ orderId }, ctx) => {
  const order = await once(() => orders.get(orderId));
  const ref = await once(() => randomUUID());
  await once(async () => { await audit.append(orderId); counter++; });
  const answer = await elicit({ message: \`Refund \${order.total} (ref \${ref})?\`, requestedSchema });
  if (answer.action !== 'accept') return declined(answer.action);
  await payments.refund(order.id, ref);
  refunds.push(order.id);
  return refunded(ref);
}));`,
    // Valid because: a plain assignment of a journalled value (or a literal) to outside state writes the same
    // value on every round: the port makes it again on each round so that the replica of a later round holds it.
    `
import { elicit, once, resumable } from './mrtr-flow.js';
server.registerTool('greet', {}, resumable('greet', async ({ user }, ctx) => {
  if (!await once(() => sessionJwt)) sessionJwt = await once(() => fetchJwt());
  this.token = (await once(() => refresh()))!;
  seen[user] = true;
  const answer = await elicit({ message: 'Hi?', requestedSchema });
  return { content: [{ type: 'text', text: answer.action }] };
}));`,
    // Valid because: a write to a Map or Set declared here (`new Map()`, a `Set<…>` field) with arguments
    // that are the same on every round leaves it as it was when made again: the port makes it again on each
    // round so that the replica of a later round holds the entry.
    `
import { elicit, once, resumable } from './mrtr-flow.js';
const cache = new Map<string, Info>();
const pending: Set<string> = loadPending();
class Desk {
  private readonly seen = new Set<string>();
  constructor(private readonly byId: WeakMap<object, string>) {}
  register() {
    server.registerTool('t', {}, resumable('t', async ({ repo, to }, ctx) => {
      if (!await once(() => cache.has(repo))) cache.set(repo, await once(() => lookup(repo)));
      const info = (await once(() => cache.get(repo)))!;
      this.seen.add(repo);
      pending.delete(\`\${repo}:\${to}\`);
      this.byId.delete(ctx);
      cache.set(repo, { ...info, owner: to, tags: [to] });
      const answer = await elicit({ message: repo, requestedSchema });
      return { content: [{ type: 'text', text: answer.action }] };
    }));
  }
}`,
    // Valid because: a count kept in a Map declared here, set from its journalled read (`(await once(…) ?? 0) + 1`:
    // operators of journalled values and literals are the same on every round), and an update of outer state
    // memoized whole whose new value `binding(…)` writes back on later rounds (the journalled value, the same
    // on every round: the setter is the runtime's, not code that runs where it is written).
    `
import { binding, elicit, once, resumable } from './mrtr-flow.js';
const hits = new Map<string, number>();
let issued = 0;
server.registerTool('t', {}, resumable('t', async ({ user }, ctx) => {
  hits.set(user, (await once(() => hits.get(user)) ?? 0) + 1);
  const ticket = await once(() => issued++, binding(() => issued, (restored) => { issued = restored; }));
  const answer = await elicit({ message: \`\${user} #\${ticket}\`, requestedSchema });
  return { content: [{ type: 'text', text: answer.action }] };
}));`,
    // Valid because: local data built before the ask replays to the same value; it is not outside state.
    `
import { elicit, resumable } from './mrtr-flow.js';
server.registerTool('pick', {}, resumable('pick', async ({ items }, ctx) => {
  const names: string[] = [];
  for (const i of items) names.push(i.trim());
  const answer = await elicit({ message: names.join(', '), requestedSchema });
  return { content: [{ type: 'text', text: answer.action }] };
}));`,
    // Valid because: each handler runs when its own request comes: a handler left unported (a marker above
    // its legacy call) that writes, written above a ported one, does not run before the ported one's ask.
    `
import { elicit, resumable } from './mrtr-flow.js';
server.registerTool('drop', {}, async ({ name }, ctx) => {
  const ok = await confirmer.confirm(name);
  await store.drop(name);
  return { content: [{ type: 'text', text: String(ok) }] };
});
server.registerTool('pick', {}, resumable('pick', async ({ topic }, ctx) => {
  const answer = await elicit({ message: topic, requestedSchema });
  return { content: [{ type: 'text', text: answer.action }] };
}));`,
    // Valid because: TODO known false negative: an ask built in a helper defined in another file.
    `
import { askConfirm } from './asks.js';
async function h(ctx: Ctx) {
  await db.insert(1);
  return askConfirm();
}`,
    // Valid because: an outer array changed once before the ask (memoized) that the handler does not read
    // after the answer: the change runs once, on the replica of that round, as the legacy call ran it once;
    // a local array is the call's own data, and a further push after the answer is a change, not a read.
    `
import { elicit, once, resumable } from './mrtr-flow.js';
const audit: string[] = [];
server.registerTool('drop', {}, resumable('drop', async ({ page }, ctx) => {
  await once(() => audit.push(\`asked \${page}\`));
  const mine: string[] = [];
  await once(() => mine.push(page));
  const answer = await elicit({ message: page, requestedSchema });
  audit.push(\`answered \${page}\`);
  return { content: [{ type: 'text', text: \`\${answer.action} \${mine.length}\` }] };
}));`,
  ],
  invalid: [
    // Invalid because: the memoized push onto a module array holds only on the replica of its round, and the
    // handler reads the array after the answer (the port leaves such a handler manual, array-write-across-ask).
    {
      code: `
import { elicit, once, resumable } from './mrtr-flow.js';
const history: string[] = [];
server.registerTool('remember', {}, resumable('remember', async ({ entry }, ctx) => {
  await once(() => history.push(entry));
  const answer = await elicit({ message: entry, requestedSchema });
  return { content: [{ type: 'text', text: \`\${answer.action}: \${history.join(', ')}\` }] };
}));`,
      errors: [{ messageId: 'arrayWriteAcrossAsk', line: 5, data: { array: 'history', askLine: '6', readLine: '7' } }],
    },
    // Invalid because: the same through a local function the memo calls, and on a field of this.
    {
      code: `
import { elicit, once, resumable } from './mrtr-flow.js';
const journal: string[] = [];
function record(entry: string) { journal.unshift(entry); }
class Queue {
  private readonly jobs: string[] = [];
  register() {
    server.registerTool('log', {}, resumable('log', async ({ entry }, ctx) => {
      await once(() => record(entry));
      const answer = await elicit({ message: entry, requestedSchema });
      return { content: [{ type: 'text', text: String(journal.length) }] };
    }));
    server.registerTool('print', {}, resumable('print', async ({ job }, ctx) => {
      await once(() => this.jobs.splice(0, 0, job));
      const answer = await elicit({ message: job, requestedSchema });
      return { content: [{ type: 'text', text: \`\${answer.action} \${this.jobs.indexOf(job)}\` }] };
    }));
  }
}`,
      errors: [
        { messageId: 'arrayWriteAcrossAsk', line: 9, data: { array: 'journal', askLine: '10', readLine: '11' } },
        { messageId: 'arrayWriteAcrossAsk', line: 14, data: { array: 'this.jobs', askLine: '15', readLine: '16' } },
      ],
    },

    // Invalid because: the write runs before the ask on every round; reported at the awaited call.
    {
      code: `
server.registerTool('t', {}, async (args, ctx) => {
  await db.insert(args);
  const answer = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
  if (answer.kind !== 'elicit') return ${ASK};
  return { content: [] };
});`,
      errors: [{ messageId: 'beforeAsk', line: 3, column: 9, data: { what: 'write `db.insert(...)`', askLine: '5' } }],
    },
    // Invalid because: assignments and updates to state outside the handler, and a mutating call on it.
    {
      code: `
let calls = 0;
const deleted: string[] = [];
async function h(ctx: Ctx) {
  calls++;
  state.last = ctx;
  deleted.push('x');
  if (!ctx.answer) return ${ASK};
  return {};
}`,
      errors: [
        { messageId: 'beforeAsk', line: 5, column: 3, data: { what: 'update of `calls`', askLine: '8' } },
        { messageId: 'beforeAsk', line: 6, column: 3, data: { what: 'assignment to `state.last`', askLine: '8' } },
        { messageId: 'beforeAsk', line: 7, column: 3, data: { what: 'mutating call `deleted.push(...)` on state outside the handler', askLine: '8' } },
      ],
    },
    // Invalid because: an awaited call that is not a known read, and fetch with POST (awaited or not).
    {
      code: `
async function h(ctx: Ctx) {
  await notifyTeam(ctx);
  fetch(url, { method: 'POST', body: '{}' });
  if (!ctx.answer) return ${ASK};
  return {};
}`,
      errors: [
        { messageId: 'beforeAsk', line: 3, column: 9, data: { what: 'awaited call `notifyTeam(...)`', askLine: '5' } },
        { messageId: 'beforeAsk', line: 4, column: 3, data: { what: '`fetch(...)` with method POST', askLine: '5' } },
      ],
    },
    // Invalid because: a write through an fs import, not awaited.
    {
      code: `
import { writeFileSync } from 'node:fs';
import * as cp from 'child_process';
function h(ctx: Ctx) {
  writeFileSync('/tmp/x', 'y');
  cp.execSync('rm -rf /tmp/y');
  return ctx.answer ? {} : ${ASK};
}`,
      errors: [
        { messageId: 'beforeAsk', line: 5, column: 3, data: { what: 'write `writeFileSync(...)`', askLine: '7' } },
        { messageId: 'beforeAsk', line: 6, column: 3, data: { what: 'write `cp.execSync(...)`', askLine: '7' } },
      ],
    },
    // Invalid because: await inside a condition: the test itself writes, then may ask.
    {
      code: `
async function h(ctx: Ctx) {
  if (await locks.acquire(ctx.id)) {
    return ${ASK};
  }
  return {};
}`,
      errors: [{ messageId: 'beforeAsk', line: 3, column: 13, data: { what: 'awaited call `locks.acquire(...)`', askLine: '4' } }],
    },
    // Invalid because: a loop: the write after the ask in the body reaches the ask again on the next iteration.
    {
      code: `
async function h(ctx: Ctx, questions: string[]) {
  for (const q of questions) {
    if (!ctx.mcpReq.inputResponses?.[q]) return ${ASK};
    await answers.save(q);
  }
  return {};
}`,
      errors: [{ messageId: 'beforeAsk', line: 5, column: 11, data: { what: 'awaited call `answers.save(...)`', askLine: '4' } }],
    },
    // Invalid because: try/finally: the finally block runs after the ask's return, on the asking round.
    {
      code: `
async function h(ctx: Ctx) {
  try {
    if (!ctx.answer) return ${ASK};
    return {};
  } finally {
    await audit.append('done');
  }
}`,
      errors: [{ messageId: 'duringAsk', line: 7, column: 11, data: { what: 'awaited call `audit.append(...)`', askLine: '4' } }],
    },
    // Invalid because: nested callbacks run where they are written: forEach and Promise.all(map(async …)).
    {
      code: `
async function h(ctx: Ctx, items: string[]) {
  items.forEach((i) => { totals[i] = 0; });
  await Promise.all(items.map(async (i) => { await sendMail(i); }));
  if (!ctx.answer) return ${ASK};
  return {};
}`,
      errors: [
        { messageId: 'beforeAsk', line: 3, column: 26, data: { what: 'assignment to `totals[i]`', askLine: '5' } },
        { messageId: 'beforeAsk', line: 4, column: 52, data: { what: 'awaited call `sendMail(...)`', askLine: '5' } },
      ],
    },
    // Invalid because: an effect inside the ask itself runs on every asking round (seal/mint there are fine).
    {
      code: `
async function h(ctx: Ctx) {
  return inputRequired({
    inputRequests: { q: inputRequired.elicit({ message: 'm', requestedSchema: {} }) },
    requestState: await store.put(ctx.id),
  });
}`,
      errors: [{ messageId: 'duringAsk', line: 5, column: 25, data: { what: 'write `store.put(...)`', askLine: '3' } }],
    },
    // Invalid because: the ask goes through a local helper (the §7 shape), and a hand-built input_required object.
    {
      code: `
async function h(ctx: Ctx) {
  const askConfirm = () => ${ASK};
  await db.update(1);
  if (!ctx.a) return askConfirm();
  registry.count = 1;
  if (!ctx.b) return { resultType: 'input_required', requestState: s };
  return {};
}`,
      errors: [
        { messageId: 'beforeAsk', line: 4, column: 9, data: { what: 'write `db.update(...)`', askLine: '5' } },
        { messageId: 'beforeAsk', line: 6, column: 3, data: { what: 'assignment to `registry.count`', askLine: '7' } },
      ],
    },
    // Invalid because: a while loop and a catch block both lead back to the ask.
    {
      code: `
async function h(ctx: Ctx) {
  while (!ctx.done) {
    try {
      await queue.publish(ctx.id);
    } catch {
      errors++;
    }
    if (!ctx.answer) return ${ASK};
  }
  return {};
}`,
      errors: [
        { messageId: 'beforeAsk', line: 5, column: 13, data: { what: 'write \`queue.publish(...)\`', askLine: '9' } },
        { messageId: 'beforeAsk', line: 7, column: 7, data: { what: 'update of \`errors\`', askLine: '9' } },
      ],
    },
    // Invalid because: a switch case that writes and falls through to the ask.
    {
      code: `
async function h(ctx: Ctx, op: string) {
  switch (op) {
    case 'reserve':
      await rooms.reserve(op);
    case 'confirm':
      return ${ASK};
  }
  return {};
}`,
      errors: [{ messageId: 'beforeAsk', line: 5, column: 13, data: { what: 'awaited call \`rooms.reserve(...)\`', askLine: '7' } }],
    },
    // Invalid because: the ask is held in a variable and returned later; the write before it still reruns.
    {
      code: `
async function h(ctx: Ctx) {
  await db.insert(1);
  const result = ${ASK};
  if (!ctx.answer) return result;
  return {};
}`,
      errors: [{ messageId: 'beforeAsk', line: 3, column: 9, data: { what: 'write \`db.insert(...)\`', askLine: '5' } }],
    },
    // Invalid because: an effect inside a held ask's arguments runs on every asking round.
    {
      code: `
async function h(ctx: Ctx) {
  const result = inputRequired({ inputRequests: {}, requestState: await store.put(ctx.id) });
  if (!ctx.answer) return result;
  return {};
}`,
      errors: [{ messageId: 'duringAsk', line: 3, column: 73, data: { what: 'write \`store.put(...)\`', askLine: '4' } }],
    },
    // Invalid because: effectCallees makes a built-in read an effect (getOrCreate writes).
    {
      code: `async function h(ctx: Ctx) { await accounts.getOrCreate(ctx.user); if (!ctx.answer) return ${ASK}; return {}; }`,
      options: [{ effectCallees: ['getOrCreate*'] }],
      errors: [{ messageId: 'beforeAsk', line: 1, column: 36, data: { what: 'call `accounts.getOrCreate(...)`', askLine: '1' } }],
    },
    // Invalid because: in a resumable handler a write before an ask that is not inside once() runs again on every round.
    {
      code: `
import { elicit, once, resumable } from './mrtr-flow.js';
server.registerTool('refund', {}, resumable('refund', async ({ orderId }, ctx) => {
  const order = await once(() => orders.get(orderId));
  await db.insert(order);
  hits++;
  const answer = await elicit({ message: 'Refund?', requestedSchema });
  if (answer.action !== 'accept') return declined();
  await payments.refund(order.id);
  return done();
}));`,
      errors: [
        { messageId: 'beforeFlowAsk', line: 5, column: 9, data: { what: 'write `db.insert(...)`', askLine: '7' } },
        { messageId: 'beforeFlowAsk', line: 6, column: 3, data: { what: 'update of `hits`', askLine: '7' } },
      ],
    },
    // Invalid because: a collection write made again is the same only for Map#set/Set#add/delete of the same
    // values on a collection declared here: `push` adds again, a `let` map may be another one, another class's
    // `set` may do anything, and a value computed live differs on a replay.
    {
      code: `
import { elicit, once, resumable } from './mrtr-flow.js';
const audit: string[] = [];
let current = new Map<string, number>();
const registry = createRegistry();
const cache = new Map<string, number>();
server.registerTool('t', {}, resumable('t', async ({ repo }, ctx) => {
  audit.push(repo);
  current.set(repo, 1);
  registry.set(repo, 1);
  cache.set(repo, Date.now());
  const answer = await elicit({ message: repo, requestedSchema });
  return { content: [{ type: 'text', text: answer.action }] };
}));`,
      errors: [
        { messageId: 'beforeFlowAsk', line: 8, column: 3, data: { what: 'mutating call `audit.push(...)` on state outside the handler', askLine: '12' } },
        { messageId: 'beforeFlowAsk', line: 9, column: 3, data: { what: 'mutating call `current.set(...)` on state outside the handler', askLine: '12' } },
        { messageId: 'beforeFlowAsk', line: 10, column: 3, data: { what: 'mutating call `registry.set(...)` on state outside the handler', askLine: '12' } },
        { messageId: 'beforeFlowAsk', line: 11, column: 3, data: { what: 'write `cache.set(...)`', askLine: '12' } },
      ],
    },
    // Invalid because: a plain assignment of a value computed live (not journalled) may write another value on a replay.
    {
      code: `
import { elicit, once, resumable } from './mrtr-flow.js';
server.registerTool('greet', {}, resumable('greet', async ({ user }, ctx) => {
  lastSeen = Date.now();
  total = total + 1;
  const answer = await elicit({ message: 'Hi?', requestedSchema });
  return { content: [{ type: 'text', text: answer.action }] };
}));`,
      errors: [
        { messageId: 'beforeFlowAsk', line: 4, column: 3, data: { what: 'assignment to `lastSeen`', askLine: '6' } },
        { messageId: 'beforeFlowAsk', line: 5, column: 3, data: { what: 'assignment to `total`', askLine: '6' } },
      ],
    },
    // Invalid because: between two asks a write runs on the second round and again on the third (the replay).
    {
      code: `
import { elicit, resumable, sample } from './mrtr-flow.js';
const handler = async (args, ctx) => {
  const draft = await sample({ messages, maxTokens: 100 });
  await drafts.save(draft);
  const ok = await elicit({ message: 'Publish?', requestedSchema });
  return ok.action === 'accept' ? publish(draft) : stop();
};
server.registerTool('digest', {}, resumable('digest', handler));`,
      errors: [{ messageId: 'beforeFlowAsk', line: 5, column: 9, data: { what: 'awaited call `drafts.save(...)`', askLine: '6' } }],
    },
    // Invalid because: a helper on the flow's path asks through the runtime; its effect before the ask re-runs too.
    {
      code: `
import { elicit } from './mrtr-flow.js';
async function confirm(message: string) {
  await notifier.notifyOwner(message);
  return elicit({ message, requestedSchema });
}`,
      errors: [{ messageId: 'beforeFlowAsk', line: 4, column: 9, data: { what: 'awaited call `notifier.notifyOwner(...)`', askLine: '5' } }],
    },
    // Invalid because: an IIFE runs in place.
    {
      code: `
async function h(ctx: Ctx) {
  await (async () => { await db.delete(ctx.id); })();
  if (!ctx.answer) return ${ASK};
  return {};
}`,
      errors: [{ messageId: 'beforeAsk', line: 3, column: 30, data: { what: 'write `db.delete(...)`', askLine: '4' } }],
    },
  ],
});
