// requestStateVerifier: the same keys behind ServerOptions.requestState.verify (unit level; the real SDK
// round trip is in sdk-integration.test.ts).
import { describe, it, expect } from 'vitest';
import { bindRequest, createContinuation, requestStateVerifier, type Continuation } from '../../src/runtime/mrtr-continuation.js';
import { KEY_A, KEY_B, clock, context } from './helpers.js';

async function sealFor(c: Continuation, options = {}): Promise<string> {
  const ctx = context(undefined, options);
  return c.seal(ctx, { step: 'confirm', bind: bindRequest(ctx, 'refund', { id: 1 }), carried: 'yes' });
}

describe('requestStateVerifier', () => {
  it('resolves a valid state to an opaque handle that open() accepts with the right bind only', async () => {
    const c = createContinuation({ keys: [KEY_A] });
    const verify = requestStateVerifier(c);
    const handle = await verify(await sealFor(c), context());
    expect(handle).toEqual({ verified: true });
    expect(JSON.stringify(handle)).not.toContain('yes'); // the handle carries no payload a handler could misuse
    const ctx = context(handle);
    expect(await c.open(ctx, bindRequest(ctx, 'refund', { id: 1 }))).toEqual({ step: 'confirm', carried: 'yes' });
    expect(await c.open(ctx, bindRequest(ctx, 'refund', { id: 2 }))).toBeUndefined();
  });

  it.each<[string, string | (() => Promise<string>)]>([
    ['garbage', 'nope'],
    ['a tampered state', async () => `${(await sealFor(createContinuation({ keys: [KEY_A] }))).slice(0, -3)}AAA`],
    ['another key', async () => sealFor(createContinuation({ keys: [KEY_B] }))],
    ['another principal', async () => sealFor(createContinuation({ keys: [KEY_A] }), { clientId: 'someone-else' })],
  ])('throws an opaque error for %s (the SDK answers -32602)', async (_label, make) => {
    const verify = requestStateVerifier(createContinuation({ keys: [KEY_A] }));
    const state = typeof make === 'string' ? make : await make();
    const attempt = verify(state, context());
    await expect(attempt).rejects.toThrow(/^invalid requestState$/);
  });

  it('throws for an expired state', async () => {
    const t = clock();
    const c = createContinuation({ keys: [KEY_A], ttlSeconds: 10, clockSlackSeconds: 0, now: t.now });
    const state = await sealFor(c);
    t.set(t.at + 10_001);
    await expect(requestStateVerifier(c)(state, context())).rejects.toThrow('invalid requestState');
  });

  it('a look-alike object is not a handle: a client cannot forge one', async () => {
    const c = createContinuation({ keys: [KEY_A] });
    const ctx = context({ verified: true });
    expect(await c.open(ctx, bindRequest(ctx, 'refund', { id: 1 }))).toBeUndefined();
  });

  it('a handle verified by one continuation is re-checked by another (its keys, its audience)', async () => {
    const a = createContinuation({ keys: [KEY_A] });
    const b = createContinuation({ keys: [KEY_B] });
    const sameKeys = createContinuation({ keys: [KEY_A] });
    const handle = await requestStateVerifier(a)(await sealFor(a), context());
    const ctx = context(handle);
    expect(await b.open(ctx, bindRequest(ctx, 'refund', { id: 1 }))).toBeUndefined();
    expect(await sameKeys.open(ctx, bindRequest(ctx, 'refund', { id: 1 }))).toMatchObject({ step: 'confirm' });
  });

  it('a handle expires like its state: open re-checks the clock', async () => {
    const t = clock();
    const c = createContinuation({ keys: [KEY_A], ttlSeconds: 10, clockSlackSeconds: 0, now: t.now });
    const handle = await requestStateVerifier(c)(await sealFor(c), context());
    t.set(t.at + 10_001);
    const ctx = context(handle);
    expect(await c.open(ctx, bindRequest(ctx, 'refund', { id: 1 }))).toBeUndefined();
  });

  it('refuses a continuation that did not come from this module', () => {
    const foreign: Continuation = { seal: async () => 'x', open: async () => undefined, openState: async () => undefined };
    expect(() => requestStateVerifier(foreign)).toThrow(TypeError);
  });
});
