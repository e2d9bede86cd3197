// claimOnce: at most one completion per sealed state, keyed by the state's own id, for as long as the
// state could still open on any replica. Run against both helper variants (same shared code).
import { describe, it, expect, vi, afterEach } from 'vitest';
import * as aeadRuntime from '../../src/runtime/mrtr-continuation.js';
import * as sdkRuntime from '../../src/runtime/mrtr-continuation-sdk.js';
import { MemoryClaimStore, type ClaimStore, type OpenedState } from '../../src/runtime/mrtr-continuation.js';
import { KEY_A, clock, context } from './helpers.js';

type Runtime = typeof aeadRuntime;
const VARIANTS: [string, Runtime][] = [
  ['AES-256-GCM', aeadRuntime],
  ['SDK codec', sdkRuntime as unknown as Runtime],
];

/** A store that records what it was asked and answers like MemoryClaimStore. */
function recordingStore(now?: () => number): ClaimStore & { calls: [string, number][] } {
  const memory = new MemoryClaimStore(now === undefined ? {} : { now });
  const calls: [string, number][] = [];
  return {
    calls,
    claim(key, ttlSeconds) {
      calls.push([key, ttlSeconds]);
      return memory.claim(key, ttlSeconds);
    },
  };
}

describe.each(VARIANTS)('claimOnce (%s)', (_variant, runtime) => {
  const { bindRequest, claimOnce, createContinuation } = runtime;
  const ARGS = { orderId: 'o-1', amount: 10 };

  async function sealed(c: aeadRuntime.Continuation): Promise<string> {
    const ctx = context();
    return c.seal(ctx, { step: 'confirm', bind: bindRequest(ctx, 'refund', ARGS) });
  }

  async function openState(c: aeadRuntime.Continuation, state: string): Promise<OpenedState<{ step: string }> | undefined> {
    const ctx = context(state);
    return c.openState<{ step: string }>(ctx, bindRequest(ctx, 'refund', ARGS));
  }

  it('openState gives the payload, a unique id and the expiry; open gives the payload alone', async () => {
    const t = clock();
    const c = createContinuation({ keys: [KEY_A], ttlSeconds: 120, now: t.now });
    const state = await sealed(c);
    const opened = await openState(c, state);
    expect(opened).toEqual({ payload: { step: 'confirm' }, id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/), expiresAt: t.at / 1000 + 120 });
    const ctx = context(state);
    expect(await c.open(ctx, bindRequest(ctx, 'refund', ARGS))).toEqual(opened?.payload);
    expect((await openState(c, state))?.id).toBe(opened?.id); // the id is sealed: every open of one state agrees
  });

  it('the id is unique per seal, even for the same request in the same millisecond', async () => {
    const t = clock();
    const c = createContinuation({ keys: [KEY_A], now: t.now });
    const ids = new Set<string>();
    for (let i = 0; i < 500; i++) ids.add((await openState(c, await sealed(c)))!.id);
    expect(ids.size).toBe(500);
  });

  it('true for the first completion of a state, false for every replay; another state of the same request is its own', async () => {
    const c = createContinuation({ keys: [KEY_A] });
    const store = new MemoryClaimStore();
    const state = await sealed(c);
    expect(await claimOnce((await openState(c, state))!, { store })).toBe(true);
    expect(await claimOnce((await openState(c, state))!, { store })).toBe(false);
    expect(await claimOnce((await openState(c, state))!, { store })).toBe(false);
    expect(await claimOnce((await openState(c, await sealed(c)))!, { store })).toBe(true);
  });

  it('concurrent replays of one state: exactly one wins', async () => {
    const c = createContinuation({ keys: [KEY_A] });
    const store = new MemoryClaimStore();
    const state = await sealed(c);
    const wins = await Promise.all(Array.from({ length: 200 }, async () => claimOnce((await openState(c, state))!, { store })));
    expect(wins.filter(Boolean)).toHaveLength(1);
  });

  it('keys the store by the state id, under a fixed prefix', async () => {
    const c = createContinuation({ keys: [KEY_A] });
    const store = recordingStore();
    const opened = (await openState(c, await sealed(c)))!;
    await claimOnce(opened, { store });
    expect(store.calls[0]?.[0]).toBe(`mrtr-claim:${opened.id}`);
  });

  describe('the claim TTL comes from the state that opened, not from the environment', () => {
    it('a one-hour state gets a claim of at least its remaining hour (plus the clock slack)', async () => {
      const t = clock();
      const c = createContinuation({ keys: [KEY_A], ttlSeconds: 3600, now: t.now });
      const store = recordingStore(t.now);
      const state = await sealed(c);
      t.set(t.at + 400_000); // the replay in the issue: +400 s, when a 305 s claim had already expired
      await claimOnce((await openState(c, state))!, { store });
      expect(store.calls[0]?.[1]).toBe(3600 - 400 + 5);
      t.set(t.at + 2_000_000);
      expect(await claimOnce((await openState(c, state))!, { store })).toBe(false); // +2,400 s: still claimed
    });

    it('counts from the opener: the remaining lifetime, rounded up to whole seconds, plus its slack', async () => {
      const t = clock();
      const c = createContinuation({ keys: [KEY_A], ttlSeconds: 10, clockSlackSeconds: 2, now: t.now });
      const state = await sealed(c);
      t.set(t.at + 7_500);
      const store = recordingStore(t.now);
      await claimOnce((await openState(c, state))!, { store });
      expect(store.calls[0]?.[1]).toBe(5); // ceil(2.5 s left + 2 s slack)
    });

    it('never less than one second, even at the last millisecond of a state with no slack', async () => {
      const t = clock();
      const c = createContinuation({ keys: [KEY_A], ttlSeconds: 1, clockSlackSeconds: 0, now: t.now });
      const state = await sealed(c);
      t.set(t.at + 999);
      const store = recordingStore(t.now);
      await claimOnce((await openState(c, state))!, { store });
      expect(store.calls[0]?.[1]).toBe(1);
    });

    it('boundaries on one clock: the claim outlives the state by the slack, then lapses', async () => {
      const t = clock();
      const c = createContinuation({ keys: [KEY_A], ttlSeconds: 30, clockSlackSeconds: 5, now: t.now });
      const store = new MemoryClaimStore({ now: t.now });
      const state = await sealed(c);
      const opened = (await openState(c, state))!;
      expect(await claimOnce(opened, { store })).toBe(true);
      const key = `mrtr-claim:${opened.id}`;
      t.set(t.at + 34_999);
      expect(store.claim(key, 1)).toBe(false); // state dead at +30 s, claim still held until +35 s
      t.set(t.at + 1);
      expect(store.claim(key, 1)).toBe(true);
    });

    it('a replica whose clock lags by up to the slack opens the state longer, and still finds the claim', async () => {
      const real = clock();
      const lagging = { now: () => real.at - 4_000 }; // 4 s behind, within the 5 s slack
      const sealer = createContinuation({ keys: [KEY_A], ttlSeconds: 60, clockSlackSeconds: 5, now: real.now });
      const behind = createContinuation({ keys: [KEY_A], ttlSeconds: 60, clockSlackSeconds: 5, now: lagging.now });
      const store = new MemoryClaimStore({ now: real.now }); // the shared store keeps real time
      const state = await sealed(sealer);
      real.set(real.at + 10_000);
      expect(await claimOnce((await openState(sealer, state))!, { store })).toBe(true);
      real.set(real.at + 53_999); // real +63.999 s: dead on the sealer's clock, alive on the lagging one
      expect(await openState(sealer, state)).toBeUndefined();
      const replay = await openState(behind, state);
      expect(replay).toBeDefined();
      expect(await claimOnce(replay!, { store })).toBe(false);
    });
  });

  describe('fails closed', () => {
    it('a store that throws: claimOnce rejects, naming the failure, with the cause kept', async () => {
      const c = createContinuation({ keys: [KEY_A] });
      const down: ClaimStore = {
        claim: async () => {
          throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
        },
      };
      const attempt = claimOnce((await openState(c, await sealed(c)))!, { store: down });
      await expect(attempt).rejects.toThrow(/claim store failed.*must not complete/);
      await expect(attempt).rejects.toMatchObject({ cause: { message: 'connect ECONNREFUSED 127.0.0.1:6379' } });
    });

    it.each<[string, unknown]>([
      ['"OK"', 'OK'],
      ['1', 1],
      ['undefined', undefined],
      ['a truthy object', {}],
    ])('a store answering %s is a refusal: only true claims', async (_label, answer) => {
      const c = createContinuation({ keys: [KEY_A] });
      const odd = { claim: () => answer } as unknown as ClaimStore;
      expect(await claimOnce((await openState(c, await sealed(c)))!, { store: odd })).toBe(false);
    });

    it.each<[string, unknown]>([
      ['a string key (the old signature)', 'refund:o-1'],
      ['undefined', undefined],
      ['an id that is not a state id', { payload: {}, id: 'x', expiresAt: 2e9 }],
      ['a non-finite expiry', { payload: {}, id: 'A'.repeat(22), expiresAt: Infinity }],
    ])('rejects %s with a TypeError', async (_label, value) => {
      await expect(claimOnce(value as never, { store: new MemoryClaimStore() })).rejects.toThrow(TypeError);
    });
  });
});

describe('MemoryClaimStore', () => {
  it('true once per key, then false until the claim expires', () => {
    const t = clock();
    const store = new MemoryClaimStore({ now: t.now });
    expect(store.claim('refund:o-1', 60)).toBe(true);
    expect(store.claim('refund:o-1', 60)).toBe(false);
    expect(store.claim('refund:o-2', 60)).toBe(true);
    t.set(t.at + 59_999);
    expect(store.claim('refund:o-1', 60)).toBe(false);
    t.set(t.at + 1);
    expect(store.claim('refund:o-1', 60)).toBe(true);
  });

  it('a full memory store drops expired claims first, then fails closed with a clear error', () => {
    const t = clock();
    const store = new MemoryClaimStore({ now: t.now, maxEntries: 2 });
    expect(store.claim('a', 1)).toBe(true);
    expect(store.claim('b', 100)).toBe(true);
    t.set(t.at + 2000);
    expect(store.claim('c', 100)).toBe(true); // 'a' expired and was swept
    expect(() => store.claim('d', 100)).toThrow(/MemoryClaimStore is full/);
    expect(store.claim('b', 100)).toBe(false); // a live claim is never forgotten
  });
});

describe.each([
  ['AES-256-GCM', '../../src/runtime/mrtr-continuation.js'],
  ['SDK codec', '../../src/runtime/mrtr-continuation-sdk.js'],
] as const)('the default claim store (%s)', (_variant, modulePath) => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  async function fresh(nodeEnv: string | undefined): Promise<Runtime> {
    vi.resetModules();
    vi.stubEnv('NODE_ENV', nodeEnv);
    vi.stubEnv('MRTR_STATE_KEYS', KEY_A);
    return (await import(/* @vite-ignore */ modulePath)) as Runtime;
  }

  it.each(['production', 'Production', 'PRODUCTION', ' prod '])('NODE_ENV=%j: one warning that claims do not span replicas', async (nodeEnv) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const runtime = await fresh(nodeEnv);
    expect(warn).not.toHaveBeenCalled();
    const store = runtime.defaultClaimStore();
    expect(runtime.defaultClaimStore()).toBe(store);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/claims are recorded in this process only.*replica.*--claims redis.*MRTR_CLAIMS_REDIS_URL/);
  });

  it.each([undefined, 'development', 'test', 'production-like'])('NODE_ENV=%j: no warning', async (nodeEnv) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const runtime = await fresh(nodeEnv);
    runtime.defaultClaimStore();
    expect(warn).not.toHaveBeenCalled();
  });

  it('claimOnce without a store uses it: a replay is refused in this process', async () => {
    const runtime = await fresh('development');
    const ctx = context();
    const state = await runtime.continuation.seal(ctx, { step: 's', bind: runtime.bindRequest(ctx, 'refund', {}) });
    const retry = context(state);
    const open = async () => (await runtime.continuation.openState(retry, runtime.bindRequest(retry, 'refund', {})))!;
    expect(await runtime.claimOnce(await open())).toBe(true);
    expect(await runtime.claimOnce(await open())).toBe(false);
  });
});
