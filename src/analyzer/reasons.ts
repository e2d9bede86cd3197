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
  'in-loop': {
    portability: 'manual',
    advice: 'The ask runs inside a loop: unroll it into steps carried in the sealed requestState, or ask for all values in one form.',
  },
  'not-awaited': {
    portability: 'manual',
    advice: 'The request is not awaited where it is made (stored, chained or fire-and-forget): restructure so the handler awaits the answer, then re-run the port.',
  },
  'raced': {
    portability: 'manual',
    advice: 'The request is raced against a timeout or other promise (Promise.race/any/all): MRTR rounds have no timeout of their own; decide what the fallback should be.',
  },
  'nested-callback': {
    portability: 'manual',
    advice: 'The request is made inside a nested callback: move it to the handler body so the handler can return inputRequired(...).',
  },
  'side-effect-before-ask': {
    portability: 'manual',
    advice: 'A side effect runs before the ask and the ask depends on it: it would run again on every round. Make it idempotent or move it after the last answer.',
  },
  'dynamic-request': {
    portability: 'manual',
    advice: 'The request parameters are built dynamically (spread, computed, or passed in): port by hand with inputRequired.elicit/createMessage/listRoots.',
  },
  'helper-not-awaited-by-handler': {
    portability: 'manual',
    advice: 'The helper that asks is called but not awaited directly by the handler: have the handler await it, or port the helper by hand.',
  },
  'result-escapes': {
    portability: 'manual',
    advice: 'The answer is returned or passed on as a whole (not read by the handler): port by hand so the caller reads inputResponse(...).',
  },
  'try-catch': {
    portability: 'manual',
    advice: 'The request sits inside try/catch whose catch handles its failure: on MRTR the client answers cancel or decline instead; port the catch arm by hand.',
  },
  'in-expression': {
    portability: 'manual',
    advice: 'The request is awaited inside a larger expression (condition, argument, template): hoist it into its own const, then re-run the port.',
  },
  'task-augmented': {
    portability: 'manual',
    advice: 'The request asks the client to run it as a task (params.task) and then polls it: MRTR input requests are never tasks. Ask with inputRequired.* and drop the polling, by hand.',
  },
  'branching-statement': {
    portability: 'manual',
    advice: 'The ask sits in a switch case, labelled or other compound statement the transform does not restructure: move it into its own handler or a plain if block, or port by hand.',
  },
  'wrapped-handler': {
    portability: 'manual',
    advice: 'The handler is registered through a wrapper (withAuth(fn), a middleware): the wrapper must pass an inputRequired(...) result through unchanged. Check it, then port the inner function by hand or unwrap it.',
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
    advice: 'The handler could not be resolved statically (registered through a variable or computed name): port by hand.',
  },
  'in-helper': {
    portability: 'manual',
    advice: 'The handler awaits a helper that asks the client: inline the helper into the handler (or have it return inputRequired(...) and the handler return that), then re-run the port.',
  },
  'not-ported': {
    portability: 'manual',
    advice: 'The port found this request but could not rewrite it (a shape the transform does not handle): port it by hand to inputRequired (see docs/port.md), then delete this marker.',
  },
  'not-carryable': {
    portability: 'manual',
    advice: 'A value computed before the ask cannot travel in the sealed requestState (a connection, a handle, a class instance) and is computed asynchronously, so it cannot simply be computed again: compute it after the last answer, or port this handler by hand.',
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
    advice: 'is computed again on every round (its value cannot travel in the sealed requestState): check that computing it has no side effect (it should only build a client or a schema), then delete this marker.',
  },
  'capability-fallback': {
    portability: 'auto',
    advice: 'The legacy code branched on client capabilities; the port reads the per-request capabilities instead. Check the fallback still matches what the client declares, then delete this marker.',
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
