import { describe, it, expect } from 'vitest';
import {
  bindRequest,
  claimOnce,
  createContinuation,
  MemoryClaimStore,
  stateClaimKey,
  type ClaimStore,
} from '../../src/runtime/mrtr-continuation.js';
import { KEY_A, clock, context } from './helpers.js';

describe('claimOnce', () => {
  it('true once per key, then false until the claim expires', async () => {
    const t = clock();
    const store = new MemoryClaimStore({ now: t.now });
    expect(await claimOnce('refund:o-1', { store, ttlSeconds: 60 })).toBe(true);
    expect(await claimOnce('refund:o-1', { store, ttlSeconds: 60 })).toBe(false);
    expect(await claimOnce('refund:o-2', { store, ttlSeconds: 60 })).toBe(true);
    t.set(t.at + 59_999);
    expect(await claimOnce('refund:o-1', { store, ttlSeconds: 60 })).toBe(false);
    t.set(t.at + 1);
    expect(await claimOnce('refund:o-1', { store, ttlSeconds: 60 })).toBe(true);
  });

  it('concurrent claims of one key: exactly one wins', async () => {
    const store = new MemoryClaimStore();
    const wins = await Promise.all(Array.from({ length: 20 }, () => claimOnce('k', { store, ttlSeconds: 10 })));
    expect(wins.filter(Boolean)).toHaveLength(1);
  });

  it('a full memory store drops expired claims first, then fails closed with a clear error', async () => {
    const t = clock();
    const store = new MemoryClaimStore({ now: t.now, maxEntries: 2 });
    expect(store.claim('a', 1)).toBe(true);
    expect(store.claim('b', 100)).toBe(true);
    t.set(t.at + 2000);
    expect(store.claim('c', 100)).toBe(true); // 'a' expired and was swept
    expect(() => store.claim('d', 100)).toThrow(/MemoryClaimStore is full/);
    expect(store.claim('b', 100)).toBe(false); // a live claim is never forgotten
  });

  it('uses a shared store through the ClaimStore contract (async, set-if-absent)', async () => {
    const calls: [string, number][] = [];
    const seen = new Set<string>();
    const shared: ClaimStore = {
      async claim(key, ttlSeconds) {
        calls.push([key, ttlSeconds]);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      },
    };
    expect(await claimOnce('x', { store: shared, ttlSeconds: 30 })).toBe(true);
    expect(await claimOnce('x', { store: shared, ttlSeconds: 30 })).toBe(false);
    expect(calls).toEqual([
      ['x', 30],
      ['x', 30],
    ]);
  });

  it('the default TTL outlives a default state (TTL + slack)', async () => {
    let ttl = 0;
    await claimOnce('y', { store: { claim: (_k, t) => ((ttl = t), true) } });
    expect(ttl).toBeGreaterThanOrEqual(300 + 5);
  });

  it('rejects an empty or oversized key and a bad TTL', async () => {
    await expect(claimOnce('')).rejects.toThrow(TypeError);
    await expect(claimOnce('k'.repeat(201))).rejects.toThrow(TypeError);
    await expect(claimOnce('k', { ttlSeconds: 0 })).rejects.toThrow(RangeError);
  });
});

describe('stateClaimKey', () => {
  it('a digest of the carried state: stable for one state, different per seal, never the state itself', async () => {
    const c = createContinuation({ keys: [KEY_A] });
    const ctx = context();
    const s1 = await c.seal(ctx, { step: 'confirm', bind: bindRequest(ctx, 'refund', { id: 1 }) });
    const s2 = await c.seal(ctx, { step: 'confirm', bind: bindRequest(ctx, 'refund', { id: 1 }) });
    const k1 = await stateClaimKey(context(s1));
    expect(k1).toMatch(/^mrtr-state:[A-Za-z0-9_-]{43}$/);
    expect(await stateClaimKey(context(s1))).toBe(k1);
    expect(await stateClaimKey(context(s2))).not.toBe(k1);
    expect(k1).not.toContain(s1.split('.')[2].slice(0, 20));
    expect(await stateClaimKey(context(undefined))).toBeUndefined();
    expect(await stateClaimKey(context(42))).toBeUndefined();
  });

  it('guards a replayed final round: the side effect runs once', async () => {
    const c = createContinuation({ keys: [KEY_A] });
    const store = new MemoryClaimStore();
    const ctx = context();
    const state = await c.seal(ctx, { step: 'confirm', bind: bindRequest(ctx, 'refund', { id: 1 }) });
    let refunds = 0;
    const finalRound = async () => {
      const retry = context(state);
      if ((await c.open(retry, bindRequest(retry, 'refund', { id: 1 }))) === undefined) return;
      if (await claimOnce((await stateClaimKey(retry))!, { store, ttlSeconds: 305 })) refunds++;
    };
    await finalRound();
    await finalRound(); // the same retry replayed while the state is still valid
    expect(refunds).toBe(1);
  });
});
