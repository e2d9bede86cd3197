/**
 * The one documented list of portability reason ids. The analyzer attaches them to sites, `port`
 * writes them into `@mrtr-port-todo(<id>)` markers, and the README's reason table is checked against
 * this list by a test. Add a reason here first; never invent one inline.
 */
import type { Portability } from './model.js';

export interface ReasonInfo {
  /** Which portability verdict this reason belongs to. */
  readonly portability: Portability;
  /** One sentence for the user: what is wrong and what to do. */
  readonly advice: string;
}

export const REASONS = {
  // manual: reachable from an eligible handler, but a human must decide
  'not-awaited': {
    portability: 'manual',
    advice: 'The request\'s promise is not awaited where it is made (stored, chained with .then, or dropped): await it, or return it to a caller that awaits it, then re-run the port.',
  },
  'raced': {
    portability: 'manual',
    advice: 'The request is raced against a timeout or another promise (Promise.race/any): a round has no timeout of its own; decide what the fallback should be, then port by hand.',
  },
  'nested-callback': {
    portability: 'manual',
    advice: 'The request is made inside a callback the handler does not wait for (a timer, an event listener, .then, forEach): move it where the handler awaits it (or into Promise.all(items.map(async …))), then re-run the port.',
  },
  'dynamic-request': {
    portability: 'manual',
    advice: 'The request\'s parameters are not one argument the port can keep (none, or a spread): pass them as a single object, then re-run the port.',
  },
  'indirect-call': {
    portability: 'manual',
    advice: 'The request is not made as the SDK\'s own method call: through Function.prototype.call/apply on another object than the one the method was read from, with the request method passed as an argument (another library\'s protocol layer), or as a hand-built JSON-RPC message on a transport. Call the SDK method directly where a handler awaits it (ctx.mcpReq.elicitInput(params), server.createMessage(params)), then re-run the port, or port by hand.',
  },
  'task-augmented': {
    portability: 'manual',
    advice: 'The request asks the client to run it as a task (params.task) and then polls it: MRTR input requests are never tasks. Ask with inputRequired.* and drop the polling, by hand.',
  },
  'wrapped-handler': {
    portability: 'manual',
    advice: 'The handler is registered through a wrapper from outside the project (a library\'s middleware): the port cannot see that it runs the handler within the same call. Check that it passes the call through, then port by hand.',
  },
  'framework-registration': {
    portability: 'manual',
    advice: 'A framework registers this handler (a decorator such as @Tool() names it): there is no registration call in the code for the port to wrap. Wrap the method with resumable(name, …) where the framework takes it, or port by hand.',
  },
  'no-handler': {
    portability: 'manual',
    advice: 'No tool, prompt or resource handler reaches this call: the registrations and the callers of the functions around it were searched in the analyzed files (test files count only for test code). If code outside them calls it (a library\'s public API, a framework, a stored callback), port it where a handler awaits it; if it is dead code, remove it.',
  },
  'unknown-handler-shape': {
    portability: 'manual',
    advice: 'No registration call was found for the handler (or its name is computed by a call): register it with registerTool/registerPrompt/registerResource/setRequestHandler where the port can see it, or port by hand.',
  },
  'not-carryable': {
    portability: 'manual',
    advice: 'A value computed before the ask cannot travel in the sealed requestState (a connection, a handle, a class instance, a closure over one) and cannot simply be computed again (it is computed asynchronously, or it is a closure the code after the answer still calls, so each round would make another): compute it after the last answer, or port this handler by hand.',
  },
  'timer-across-ask': {
    portability: 'manual',
    advice: 'A timer is started before the ask (setInterval/setTimeout) and lives across it: between rounds no process holds the call, and the next round may run on another replica, so the timer would fire, or never be cleared, on the replica that started it. Start it after the last answer (a progress heartbeat is not needed while the client holds the question), or port by hand.',
  },
  'state-across-ask': {
    portability: 'manual',
    advice: 'Outer state (a module or closure variable, a field of this, an entry of a Map, Set or array held there) is set before the ask and set back or removed in a finally after it: a flag, a lock or a parked entry held while the client answers. Between rounds no process holds the call: ported, the finally runs only on the round that completes, so a round that is never retried, or is retried on another replica, leaves the state set on the replica that set it (a busy flag would refuse every later call there); run on every round, it would clear the state while the client still holds the question. Decide what the state means across rounds (drop the guard, or keep it where every replica sees it and give it an expiry), then port by hand.',
  },
  'narrowed-state': {
    portability: 'manual',
    advice: 'Outer state the file writes elsewhere (a module variable, a field of this, a member of a module object) is read before the ask where a check (typeof, a discriminant, instanceof) narrowed it to a type the port does not write there (one with methods, a type parameter, a name not in scope there): the read must be memoized for the retry, and the memo would lose the narrowing. Copy the state into a local const before the check (const job = this.job) and check the local, then re-run the port.',
  },
  'array-write-across-ask': {
    portability: 'manual',
    advice: 'An array the handler does not own (a module array, a closure\'s, a field of this) is changed in place before the ask (push, unshift, splice, sort, …, directly or in a function it calls) and read after the answer: the change runs once, on the replica of the round that reached it, and the round that reads it may run on another replica, which never saw it; made again on each round it would add again. Make the change after the last answer, or keep the array in a store every replica shares, then re-run the port.',
  },
  'not-async': {
    portability: 'manual',
    advice: 'A function on the way to the ask is not async (a generator, accessor or constructor, or one typed to return a non-Promise) but must await what runs before the ask: make it an async function returning a Promise, then re-run the port.',
  },
  'handler-not-ported': {
    portability: 'manual',
    advice: 'Another request reached from the same handler (or from a helper it shares with another handler) needs a human first, so this one was left too: resolve that one (its marker says why), then re-run the port.',
  },
  'roots-retired': {
    portability: 'auto',
    advice: 'listRoots() was retired to configuration (MCP_ALLOWED_ROOTS, comma-separated file:// URIs or absolute paths): set it for every deployment, then delete this marker. Use `port --roots ask` to ask the client instead.',
  },
  'recomputed-value': {
    portability: 'auto',
    advice: 'This value is computed again on every round (it cannot travel in the sealed requestState): check that computing it has no side effect (it should only build a client or a schema), then delete this marker.',
  },
  'unread-private-member': {
    portability: 'auto',
    advice: "The port removed the last read of this private member (it was read only by the legacy request, e.g. this.server.server.elicitInput): under noUnusedLocals tsc reports it unread (TS6133, TS6138). The port keeps it: TypeScript's private is not private at run time (a cast, an index or a subclass may read it), and a #private field is kept when its initializer or a write to it (this.#x = …) may have an effect. Delete the member and its writes if nothing else needs them, then delete this marker.",
  },
  'capability-fallback': {
    portability: 'auto',
    advice: 'The legacy code branched on client capabilities; the port reads the per-request capabilities instead. Check the fallback still matches what the client declares, then delete this marker.',
  },
  'in-loop': {
    portability: 'auto',
    advice: 'The ask runs once per loop iteration: each iteration is one round, and clients stop after 10 rounds (the SDK\'s legacy shim after 8). Keep the loop short, or ask for all values in one form.',
  },
  // unportable: not inside a request that MRTR can serve
  'notification-handler': {
    portability: 'unportable',
    advice: 'Asked from a notification handler: MRTR needs a client request to answer. Ask from a tool, prompt or resource handler instead, or drop the ask.',
  },
  'lifecycle-hook': {
    portability: 'unportable',
    advice: 'Asked from oninitialized/onclose or at start-up: there is no request to answer. Read the value from configuration, or ask lazily inside a tool.',
  },
  'timer': {
    portability: 'unportable',
    advice: 'Asked from a timer or background job: MRTR cannot push requests to the client. Move the ask into the tool call that needs it.',
  },
  'http-route': {
    portability: 'unportable',
    advice: 'Asked from an HTTP route outside MCP: there is no MCP request to answer. Move it into an MCP tool, prompt or resource handler.',
  },
  'ineligible-request': {
    portability: 'unportable',
    advice: 'Asked while serving a request other than tools/call, prompts/get or resources/read (e.g. tools/list, completion): MRTR forbids input_required there. Precompute or move it into a tool.',
  },
  'task-relay': {
    portability: 'unportable',
    advice: 'Asked from a task or stream relay (experimental tasks): not served by MRTR. Redesign as a tool that returns inputRequired.',
  },
  'dead-code': {
    portability: 'unportable',
    advice: 'Nothing can call this function: no caller in the analyzed files, no other file outside tests names it, and its package does not export it. The ask never runs: delete it (and its callers in tests), or call it from a tool, prompt or resource handler and port it there.',
  },
  // guarded: already dual-era
  'era-guarded': {
    portability: 'guarded',
    advice: 'Legacy arm behind an era check next to an MRTR arm: left as is; remove it when 2025 clients are gone.',
  },
} as const satisfies Record<string, ReasonInfo>;

export type ReasonId = keyof typeof REASONS;

export function isReasonId(id: string): id is ReasonId {
  return Object.prototype.hasOwnProperty.call(REASONS, id);
}
