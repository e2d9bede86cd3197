// Shared builders for the runtime tests: handler contexts shaped like the SDK's ServerContext.
export const KEY_A = 'a-secret-of-at-least-thirty-two-bytes-0001';
export const KEY_B = 'b-secret-of-at-least-thirty-two-bytes-0002';
export const KEY_C = 'c-secret-of-at-least-thirty-two-bytes-0003';

export interface TestContext {
  mcpReq: { method: string; requestState: () => unknown };
  http?: { authInfo?: { clientId?: string; extra?: Record<string, unknown> } };
}

/** A context whose `requestState()` yields `state` (the raw wire value, as without a verify seam). */
export function context(
  state?: unknown,
  options: { method?: string; clientId?: string; extra?: Record<string, unknown> } = {},
): TestContext {
  const ctx: TestContext = { mcpReq: { method: options.method ?? 'tools/call', requestState: () => state } };
  if (options.clientId !== undefined || options.extra !== undefined) {
    ctx.http = { authInfo: { clientId: options.clientId, extra: options.extra } };
  }
  return ctx;
}

/** A mutable clock for `createContinuation({ now })`. */
export function clock(start = Date.UTC(2026, 10, 29, 12, 0, 0)): { now: () => number; set: (ms: number) => void; at: number } {
  const c = {
    at: start,
    now: () => c.at,
    set: (ms: number) => {
      c.at = ms;
    },
  };
  return c;
}

/** What claimStoreConformance reports, in order, for a store with a backend it can lose (the last check). */
export const CONFORMANCE_CHECKS = [
  'one claim per key, seen by every replica',
  'atomic under concurrency',
  'independent keys under concurrency',
  'keys of 200 characters',
  'held for its TTL, then free',
  'claimOnce on an opened state, replayed on another replica',
  'fails closed when its backend is unreachable',
];
