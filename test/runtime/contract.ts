// The behaviour every continuation variant must have (AES-GCM default and SDK codec): one suite, run by
// seal-open.test.ts and sdk-codec.test.ts against each module.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import type * as AeadRuntime from '../../src/runtime/mrtr-continuation.js';
import { KEY_A, KEY_B, KEY_C, clock, context } from './helpers.js';

// the store class is compared by shape: each variant declares its own (a private field makes classes nominal)
export type Runtime = Pick<typeof AeadRuntime, 'createContinuation' | 'bindRequest' | 'MAX_STATE_CHARS' | 'claimOnce'> & {
  MemoryClaimStore: new (options?: { now?: () => number; maxEntries?: number }) => AeadRuntime.ClaimStore;
};
type Continuation = AeadRuntime.Continuation;

const ARGS = { orderId: 'o-17', amount: 42 };

export function continuationContract(variant: string, runtime: Runtime): void {
  const { createContinuation, bindRequest, MAX_STATE_CHARS, claimOnce, MemoryClaimStore } = runtime;

  async function sealed(c: Continuation, extra: Record<string, unknown> = {}, ctxOptions = {}): Promise<string> {
    const ctx = context(undefined, ctxOptions);
    return c.seal(ctx, { step: 'confirm', bind: bindRequest(ctx, 'refund', ARGS), ...extra });
  }

  async function opens(c: Continuation, state: unknown, ctxOptions = {}, name = 'refund', args: unknown = ARGS): Promise<boolean> {
    const ctx = context(state, ctxOptions);
    return (await c.open(ctx, bindRequest(ctx, name, args))) !== undefined;
  }

  describe(`continuation contract (${variant})`, () => {
    describe('seal and open', () => {
      it('round-trips the step and carried answers, without the bind or the arguments', async () => {
        const c = createContinuation({ keys: [KEY_A] });
        const ctx = context();
        const state = await c.seal(ctx, {
          step: 'amount',
          bind: bindRequest(ctx, 'refund', { orderId: 'secret-order-id', amount: 5 }),
          confirm: { ok: true },
        });
        expect(state).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
        expect(state).not.toContain('secret-order-id');
        const opened = await c.open<{ step: 'amount'; confirm: Record<string, unknown> }>(
          context(state),
          bindRequest(ctx, 'refund', { amount: 5, orderId: 'secret-order-id' }), // key order does not matter
        );
        expect(opened).toEqual({ step: 'amount', confirm: { ok: true } });
      });

      it('answers undefined when the request carries no state', async () => {
        const c = createContinuation({ keys: [KEY_A] });
        expect(await opens(c, undefined)).toBe(false);
        const noAccessor = { mcpReq: { method: 'tools/call' } };
        expect(await c.open(noAccessor, bindRequest(noAccessor, 'refund', ARGS))).toBeUndefined();
      });

      it.each<[string, unknown]>([
        ['a number', 42],
        ['null', null],
        ['an object', { step: 'confirm' }],
        ['an array', ['v1']],
        ['empty', ''],
        ['garbage', 'not-a-state'],
        ['a v2 prefix', 'v2.AAAAAAAAAAA.AAAA'],
        ['four segments', 'v1.AAAAAAAAAAA.AAAA.AAAA'],
        ['the SDK codec format', 'v1.eyJwIjp7fSwiZXhwIjo5OTk5OTk5OTk5fQ.c2ln'],
        ['huge', `v1.AAAAAAAAAAA.${'A'.repeat(MAX_STATE_CHARS)}`],
      ])('answers undefined for %s', async (_label, state) => {
        const c = createContinuation({ keys: [KEY_A] });
        expect(await opens(c, state)).toBe(false);
      });

      it('property: never throws and never opens, whatever the state and the bind', async () => {
        const c = createContinuation({ keys: [KEY_A] });
        const anything = fc.anything({ withBigInt: true, withMap: true, withNullPrototype: true, withTypedArray: true });
        const stateLike = fc.oneof(anything, fc.string(), fc.string().map((t) => `v1.${t}`), fc.string().map((t) => `v1.AAAAAAAAAAA.${t}`));
        await fc.assert(
          fc.asyncProperty(stateLike, fc.oneof(anything, fc.record({ method: fc.string(), name: fc.string(), args: anything })), async (state, bind) => {
            await expect(c.open(context(state), bind as never)).resolves.toBeUndefined();
          }),
          { numRuns: 300 },
        );
      });

      it('logs nothing, whether a state opens or not', async () => {
        const c = createContinuation({ keys: [KEY_A] });
        const calls: unknown[] = [];
        const saved = { log: console.log, warn: console.warn, error: console.error, info: console.info, debug: console.debug };
        for (const name of Object.keys(saved) as (keyof typeof saved)[]) console[name] = (...args: unknown[]) => void calls.push(args);
        try {
          const state = await sealed(c, { secret: 'card-4242' });
          await opens(c, state);
          await opens(c, `${state.slice(0, -1)}A`);
          await opens(c, state, {}, 'refund', { other: true });
          await opens(c, 'garbage');
        } finally {
          Object.assign(console, saved);
        }
        expect(calls).toEqual([]);
      });

      it('answers undefined, without throwing, when the requestState accessor throws', async () => {
        const c = createContinuation({ keys: [KEY_A] });
        const ctx = {
          mcpReq: {
            method: 'tools/call',
            requestState: () => {
              throw new Error('boom');
            },
          },
        };
        await expect(c.open(ctx, bindRequest(ctx, 'refund', ARGS))).resolves.toBeUndefined();
      });
    });

    // Each attack runs the whole final round (open, claim, side effect): a forged state must never open,
    // and the genuine one, once completed, never completes again.
    describe('tampering, through the final round and its claim', () => {
      const c = createContinuation({ keys: [KEY_A] });
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ \u00e9';
      const store = new MemoryClaimStore();
      let effects = 0;

      /** The final round of a refund: open the state, claim it, then the side effect. */
      async function finalRound(state: unknown): Promise<'done' | 'replayed' | 'invalid'> {
        const ctx = context(state);
        const opened = await c.openState(ctx, bindRequest(ctx, 'refund', ARGS));
        if (opened === undefined) return 'invalid';
        if (!(await claimOnce(opened, { store }))) return 'replayed';
        effects++;
        return 'done';
      }

      /** Completes `state` once, runs every attack, and checks the genuine state is then only a replay. */
      async function attack(state: string, attacks: Iterable<[string, string]>): Promise<number> {
        const before = effects;
        expect(await finalRound(state)).toBe('done');
        let tried = 0;
        for (const [label, forged] of attacks) {
          expect(await finalRound(forged), label).toBe('invalid');
          tried++;
        }
        expect(await finalRound(state)).toBe('replayed');
        expect(effects - before).toBe(1);
        return tried;
      }

      it('every single-character change of a sealed value opens as undefined (exhaustive)', async () => {
        const state = await sealed(c, { carried: 'x' });
        function* changes(): Generator<[string, string]> {
          for (let i = 0; i < state.length; i++) {
            for (const ch of alphabet) if (ch !== state[i]) yield [`position ${i} -> ${ch}`, state.slice(0, i) + ch + state.slice(i + 1)];
          }
        }
        expect(await attack(state, changes())).toBeGreaterThan(state.length * 60);
      });

      it('every single-byte change of the decoded last segment opens as undefined (exhaustive bit flips)', async () => {
        const state = await sealed(c);
        const [version, keyId, body] = state.split('.');
        const bytes = Buffer.from(body, 'base64url');
        function* flips(): Generator<[string, string]> {
          for (let i = 0; i < bytes.length; i++) {
            for (const mask of [0x01, 0x80, 0xff]) {
              const copy = Buffer.from(bytes);
              copy[i] ^= mask;
              yield [`byte ${i} ^ ${mask}`, `${version}.${keyId}.${copy.toString('base64url')}`];
            }
          }
        }
        expect(await attack(state, flips())).toBe(bytes.length * 3);
      });

      it('every truncation opens as undefined', async () => {
        const state = await sealed(c);
        const prefixes = Array.from({ length: state.length }, (_, n): [string, string] => [`prefix ${n}`, state.slice(0, n)]);
        expect(await attack(state, prefixes)).toBe(state.length);
      });

      it('every one-character extension opens as undefined', async () => {
        const state = await sealed(c);
        const extended = [...alphabet].flatMap((ch): [string, string][] => [
          [`+${ch}`, state + ch],
          [`${ch}+`, ch + state],
        ]);
        expect(await attack(state, extended)).toBe(alphabet.length * 2);
      });

      it('a state sealed again for the same request is a new state: it completes once too', async () => {
        const first = await sealed(c);
        const second = await sealed(c);
        expect(await attack(first, [])).toBe(0);
        expect(await attack(second, [])).toBe(0);
      });

      it('property: random edits (replace, insert, delete, append) of random payloads never open', async () => {
        const edit = fc.oneof(
          fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), text: fc.string({ minLength: 1, maxLength: 4 }) }),
          fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.string({ minLength: 1, maxLength: 4 }) }),
          fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), text: fc.constant('') }),
          fc.record({ kind: fc.constant('append' as const), at: fc.constant(0), text: fc.string({ minLength: 1, maxLength: 8 }) }),
        );
        await fc.assert(
          fc.asyncProperty(fc.string({ maxLength: 40 }), fc.jsonValue({ maxDepth: 2 }), edit, async (step, carried, e) => {
            const ctx = context();
            const state = await c.seal(ctx, { step, bind: bindRequest(ctx, 'refund', ARGS), carried });
            const at = e.at % state.length;
            let changed: string;
            if (e.kind === 'replace') changed = state.slice(0, at) + e.text + state.slice(at + e.text.length);
            else if (e.kind === 'insert') changed = state.slice(0, at) + e.text + state.slice(at);
            else if (e.kind === 'delete') changed = state.slice(0, at) + state.slice(at + 1);
            else changed = state + e.text;
            fc.pre(changed !== state);
            const opened = await c.open(context(changed), bindRequest(ctx, 'refund', ARGS));
            expect(opened).toBeUndefined();
            await attack(state, [['edited', changed]]);
          }),
          { numRuns: 300 },
        );
      });

      it('property: any interleaving of concurrent replays and forgeries completes each state once, at its first genuine final round', async () => {
        const states = await Promise.all(Array.from({ length: 6 }, () => sealed(c)));
        const done = new Set<number>();
        const before = effects;
        await fc.assert(
          fc.asyncProperty(
            fc.array(fc.record({ which: fc.nat({ max: states.length - 1 }), forge: fc.option(fc.nat(), { nil: undefined }) }), { minLength: 1, maxLength: 30 }),
            async (plan) => {
              const outcomes = await Promise.all(
                plan.map(({ which, forge }) => {
                  const state = states[which]!;
                  const at = forge === undefined ? -1 : forge % state.length;
                  return finalRound(at < 0 ? state : state.slice(0, at) + (state[at] === 'A' ? 'B' : 'A') + state.slice(at + 1));
                }),
              );
              plan.forEach(({ which, forge }, i) => {
                if (forge !== undefined) expect(outcomes[i]).toBe('invalid');
                else if (outcomes[i] === 'done') {
                  expect(done.has(which)).toBe(false);
                  done.add(which);
                } else expect(outcomes[i]).toBe('replayed');
              });
              // every genuine final round found its state completed: by itself, or by an earlier one
              for (const { which, forge } of plan) if (forge === undefined) expect(done.has(which)).toBe(true);
            },
          ),
          { numRuns: 100 },
        );
        expect(effects - before).toBe(done.size);
      });

      it('property: what is sealed is what opens (step and JSON-valued answers)', async () => {
        await fc.assert(
          fc.asyncProperty(fc.string(), fc.jsonValue({ maxDepth: 3 }), fc.jsonValue({ maxDepth: 2 }), async (step, answer, args) => {
            const ctx = context();
            const state = await c.seal(ctx, { step, bind: bindRequest(ctx, 'tool', args), answer });
            const opened = await c.open(context(state), bindRequest(ctx, 'tool', args));
            expect(opened).toEqual(JSON.parse(JSON.stringify({ step, answer })));
          }),
          { numRuns: 200 },
        );
      });
    });

    describe('bind', () => {
      const c = createContinuation({ keys: [KEY_A] });

      it('opens only for the same method', async () => {
        const state = await sealed(c);
        expect(await opens(c, state, { method: 'tools/call' })).toBe(true);
        expect(await opens(c, state, { method: 'prompts/get' })).toBe(false);
      });

      it('opens only for the same tool/prompt/resource name', async () => {
        const state = await sealed(c);
        expect(await opens(c, state, {}, 'refund_all')).toBe(false);
        expect(await opens(c, state, {}, 'Refund')).toBe(false);
      });

      it.each<[string, unknown]>([
        ['another amount', { orderId: 'o-17', amount: 43 }],
        ['another type', { orderId: 'o-17', amount: '42' }],
        ['an extra argument', { orderId: 'o-17', amount: 42, force: true }],
        ['a missing argument', { orderId: 'o-17' }],
        ['empty arguments', {}],
        ['null arguments', null],
        ['the arguments as an array', ['o-17', 42]],
      ])('does not open for %s', async (_label, args) => {
        const state = await sealed(c);
        expect(await opens(c, state, {}, 'refund', args)).toBe(false);
      });

      it('one bind object reused after its arguments changed does not open the old state', async () => {
        const c = createContinuation({ keys: [KEY_A] });
        const ctx = context();
        const args = { orderId: 'o-1' };
        const bind = bindRequest(ctx, 'refund', args);
        const state = await c.seal(ctx, { step: 'confirm', bind });
        args.orderId = 'o-2';
        expect(await c.open(context(state), bind)).toBeUndefined();
        args.orderId = 'o-1';
        expect(await c.open(context(state), bind)).toBeDefined();
      });

      it('treats an undefined argument like an absent one (canonical JSON)', async () => {
        const state = await sealed(c);
        expect(await opens(c, state, {}, 'refund', { ...ARGS, note: undefined })).toBe(true);
      });

      it('the issue: a state sealed for {"amount": null} never opens for {"amount": 1e400}', async () => {
        const ctx = context();
        const state = await c.seal(ctx, { step: 's', bind: bindRequest(ctx, 'refund', { amount: null }) });
        const huge = JSON.parse('{"amount": 1e400}') as unknown;
        expect(() => bindRequest(context(state), 'refund', huge)).toThrow(/bindRequest: args: \$\.amount is Infinity, not a JSON value/);
        const replay = context(state);
        const smuggled = bindRequest(replay, 'refund', { amount: 1 }); // a bind whose arguments change after it was built
        (smuggled.args as { amount: number }).amount = Infinity;
        expect(await c.open(replay, smuggled)).toBeUndefined();
      });

      it('seal refuses arguments that are not JSON, naming the path, never the value', async () => {
        const ctx = context();
        const args = { card: 'card-4242', amount: 1 };
        const bind = bindRequest(ctx, 'refund', args);
        args.amount = NaN;
        const attempt = c.seal(ctx, { step: 's', bind });
        await expect(attempt).rejects.toThrow(/continuation\.seal: bind\.args: \$\.amount is NaN/);
        await expect(c.seal(ctx, { step: 's', bind })).rejects.not.toThrow(/card-4242/);
      });

      it('-0 and 0, absent and null arguments, are different requests', async () => {
        const ctx = context();
        const minusZero = await c.seal(ctx, { step: 's', bind: bindRequest(ctx, 'refund', { amount: -0 }) });
        expect(await opens(c, minusZero, {}, 'refund', { amount: -0 })).toBe(true);
        expect(await opens(c, minusZero, {}, 'refund', { amount: 0 })).toBe(false);
        const none = await c.seal(ctx, { step: 's', bind: bindRequest(ctx, 'list', undefined) });
        const retry = context(none);
        expect(await c.open(retry, bindRequest(retry, 'list', undefined))).toBeDefined();
        expect(await opens(c, none, {}, 'list', null)).toBe(false);
        expect(await opens(c, none, {}, 'list', {})).toBe(false);
      });

      it('opens only for the same principal: client id', async () => {
        const state = await sealed(c, {}, { clientId: 'client-1' });
        expect(await opens(c, state, { clientId: 'client-1' })).toBe(true);
        expect(await opens(c, state, { clientId: 'client-2' })).toBe(false);
        expect(await opens(c, state, {})).toBe(false);
      });

      it('the principal keeps types: sub 42 is neither 43 nor "42"; a number clientId counts', async () => {
        const s42 = await sealed(c, {}, { clientId: 'app', extra: { sub: 42 } });
        expect(await opens(c, s42, { clientId: 'app', extra: { sub: 42 } })).toBe(true);
        expect(await opens(c, s42, { clientId: 'app', extra: { sub: 43 } })).toBe(false);
        expect(await opens(c, s42, { clientId: 'app', extra: { sub: '42' } })).toBe(false);
        const numeric = await sealed(c, {}, { clientId: 7 as never });
        expect(await opens(c, numeric, { clientId: 7 as never })).toBe(true);
        expect(await opens(c, numeric, { clientId: 8 as never })).toBe(false);
        expect(await opens(c, numeric, { clientId: '7' })).toBe(false);
        expect(await opens(c, numeric, {})).toBe(false);
      });

      it('users told apart by any other claim are different principals (tenant, email, nested, bigint, Date)', async () => {
        const cases: [Record<string, unknown>, Record<string, unknown>][] = [
          [{ tenant: 'acme' }, { tenant: 'globex' }],
          [{ email: 'a@x.test' }, { email: 'b@x.test' }],
          [{ user: { id: 1, org: 'a' } }, { user: { id: 1, org: 'b' } }],
          [{ uid: 1n }, { uid: 2n }],
          [{ since: new Date(0) }, { since: new Date(1) }],
          [{ roles: ['a', 'b'] }, { roles: ['b', 'a'] }],
          [{ n: -0 }, { n: 0 }],
          [{ n: null }, { n: Infinity }],
          [{ flag: true }, {}],
        ];
        for (const [one, other] of cases) {
          const state = await sealed(c, {}, { clientId: 'shared-app', extra: one });
          expect(await opens(c, state, { clientId: 'shared-app', extra: { ...one } }), JSON.stringify(Object.keys(one))).toBe(true);
          expect(await opens(c, state, { clientId: 'shared-app', extra: other }), JSON.stringify(Object.keys(one))).toBe(false);
        }
      });

      it('per-token claims (iat, exp, nbf, auth_time, jti) are not identity: a refreshed token still opens', async () => {
        const state = await sealed(c, {}, { clientId: 'app', extra: { sub: 'u1', iat: 1, exp: 2, nbf: 1, auth_time: 1, jti: 'a' } });
        expect(await opens(c, state, { clientId: 'app', extra: { sub: 'u1', iat: 9, exp: 99, jti: 'b' } })).toBe(true);
        expect(await opens(c, state, { clientId: 'app', extra: { sub: 'u2', iat: 1, exp: 2, nbf: 1, auth_time: 1, jti: 'a' } })).toBe(false);
      });

      it('key order and undefined claims do not matter', async () => {
        const state = await sealed(c, {}, { clientId: 'app', extra: { sub: 'u1', org: 'o' } });
        expect(await opens(c, state, { clientId: 'app', extra: { org: 'o', sub: 'u1', gone: undefined } })).toBe(true);
      });

      it('an authInfo the principal cannot encode: seal throws a TypeError naming the field, open answers undefined', async () => {
        const ctx = context(undefined, { clientId: 'app', extra: { session: new (class Session {})() } });
        await expect(c.seal(ctx, { step: 's', bind: bindRequest(ctx, 'refund', ARGS) })).rejects.toThrow(/authInfo\.extra\.session is a Session/);
        const state = await sealed(c, {}, { clientId: 'app' });
        expect(await opens(c, state, { clientId: 'app', extra: { f: () => 1 } })).toBe(false);
      });

      it('opens only for the same principal: subject from authInfo.extra.sub or .subject', async () => {
        const bySub = await sealed(c, {}, { clientId: 'app', extra: { sub: 'user-1' } });
        expect(await opens(c, bySub, { clientId: 'app', extra: { sub: 'user-1' } })).toBe(true);
        expect(await opens(c, bySub, { clientId: 'app', extra: { sub: 'user-2' } })).toBe(false);
        expect(await opens(c, bySub, { clientId: 'app' })).toBe(false);
        const bySubject = await sealed(c, {}, { clientId: 'app', extra: { subject: 'user-1' } });
        expect(await opens(c, bySubject, { clientId: 'app', extra: { subject: 'user-1' } })).toBe(true);
        expect(await opens(c, bySubject, { clientId: 'app', extra: { subject: 'user-3' } })).toBe(false);
      });

      it('an anonymous state does not open for an authenticated request', async () => {
        const state = await sealed(c);
        expect(await opens(c, state, { clientId: 'client-1' })).toBe(false);
      });

      it('opens only for the same audience', async () => {
        const a = createContinuation({ keys: [KEY_A], audience: 'billing' });
        const b = createContinuation({ keys: [KEY_A], audience: 'shipping' });
        const state = await sealed(a);
        expect(await opens(a, state)).toBe(true);
        expect(await opens(b, state)).toBe(false);
      });

      it('carries the step so a handler can reject an answer to another question', async () => {
        const ctx = context();
        const state = await c.seal(ctx, { step: 'confirm', bind: bindRequest(ctx, 'refund', ARGS) });
        const opened = await c.open<{ step: 'confirm' } | { step: 'amount' }>(context(state), bindRequest(ctx, 'refund', ARGS));
        expect(opened?.step).toBe('confirm');
      });
    });

    describe('keys and rotation', () => {
      it('the first key seals; every listed key opens', async () => {
        const before = createContinuation({ keys: [KEY_A] });
        const during = createContinuation({ keys: [KEY_B, KEY_A] });
        const after = createContinuation({ keys: [KEY_B] });
        const old = await sealed(before);
        const fresh = await sealed(during);
        expect(await opens(during, old)).toBe(true); // old key still opens
        expect(await opens(before, fresh)).toBe(false); // sealed with the new key
        expect(await opens(after, fresh)).toBe(true);
        expect(await opens(after, old)).toBe(false); // removed key no longer opens
      });

      it('rejects keys shorter than 32 bytes, naming the position but not the secret', () => {
        expect(() => createContinuation({ keys: [KEY_A, 'short-secret'] })).toThrow(/secret 2 of 2 is 12 bytes/);
        expect(() => createContinuation({ keys: [KEY_A, 'short-secret'] })).not.toThrow(/short-secret/);
        expect(() => createContinuation({ keys: [] })).toThrow(/at least one secret/);
      });

      it('counts bytes, not characters: 16 two-byte characters are enough', () => {
        expect(() => createContinuation({ keys: ['\u00e9'.repeat(16)] })).not.toThrow();
        expect(() => createContinuation({ keys: ['\u00e9'.repeat(15)] })).toThrow(/30 bytes/);
      });

      it.each<[string, object]>([
        ['a zero TTL', { ttlSeconds: 0 }],
        ['a negative TTL', { ttlSeconds: -1 }],
        ['an infinite TTL', { ttlSeconds: Infinity }],
        ['a TTL over a day', { ttlSeconds: 86_401 }],
        ['a NaN TTL', { ttlSeconds: NaN }],
        ['a negative slack', { clockSlackSeconds: -1 }],
        ['a non-string audience', { audience: 7 }],
      ])('rejects %s', (_label, options) => {
        expect(() => createContinuation({ keys: [KEY_A], ...options })).toThrow();
      });
    });

    describe('expiry and clock slack', () => {
      const ttl = 300;
      const slack = 5;

      async function atOffset(sealOffsetMs: number, openOffsetMs: number): Promise<boolean> {
        const t = clock();
        const start = t.at;
        const c = createContinuation({ keys: [KEY_A], ttlSeconds: ttl, clockSlackSeconds: slack, now: t.now });
        t.set(start + sealOffsetMs);
        const state = await sealed(c);
        t.set(start + openOffsetMs);
        return opens(c, state);
      }

      it('strict expiry: opens until the last millisecond of its TTL, dead at the expiry itself (no slack)', async () => {
        expect(await atOffset(0, 0)).toBe(true);
        expect(await atOffset(0, ttl * 1000 - 1)).toBe(true);
        expect(await atOffset(0, ttl * 1000)).toBe(false);
        expect(await atOffset(0, (ttl + slack) * 1000)).toBe(false);
        expect(await atOffset(0, 10 * ttl * 1000)).toBe(false);
      });

      it('the issue: with a 1 s TTL, a retry 2.5 s (or 1.001 s) later is refused', async () => {
        const t = clock();
        const c = createContinuation({ keys: [KEY_A], ttlSeconds: 1, now: t.now });
        const state = await sealed(c);
        const start = t.at;
        t.set(start + 999);
        expect(await opens(c, state)).toBe(true);
        t.set(start + 1001);
        expect(await opens(c, state)).toBe(false);
        t.set(start + 2500);
        expect(await opens(c, state)).toBe(false);
      });

      it('accepts a state dated up to the slack in the future, rejects one beyond it', async () => {
        // Sealed on a replica whose clock runs ahead of the one that opens it.
        expect(await atOffset(slack * 1000, 0)).toBe(true);
        expect(await atOffset(slack * 1000 + 1, 0)).toBe(false);
        expect(await atOffset(3600 * 1000, 0)).toBe(false);
      });

      it('a state dated in the future still dies at its own expiry: the slack never extends it', async () => {
        expect(await atOffset(slack * 1000, (ttl + slack) * 1000 - 1)).toBe(true);
        expect(await atOffset(slack * 1000, (ttl + slack) * 1000)).toBe(false);
      });

      it('the TTL is fixed at sealing: an opener with a longer TTL does not extend it', async () => {
        const t = clock();
        const shortLived = createContinuation({ keys: [KEY_A], ttlSeconds: 10, clockSlackSeconds: 0, now: t.now });
        const longLived = createContinuation({ keys: [KEY_A], ttlSeconds: 3600, clockSlackSeconds: 0, now: t.now });
        const state = await sealed(shortLived);
        t.set(t.at + 11_000);
        expect(await opens(longLived, state)).toBe(false);
      });
    });

    describe('seal refuses what it cannot seal safely', () => {
      const c = createContinuation({ keys: [KEY_A] });

      it('a payload that is not JSON: a TypeError that does not echo it', async () => {
        const ctx = context();
        const cyclic: Record<string, unknown> = { secret: 'card-4242' };
        cyclic.self = cyclic;
        const attempt = c.seal(ctx, { step: 's', bind: bindRequest(ctx, 'refund', ARGS), cyclic });
        await expect(attempt).rejects.toThrow(TypeError);
        await expect(c.seal(ctx, { step: 's', bind: bindRequest(ctx, 'refund', ARGS), cyclic })).rejects.not.toThrow(/card-4242/);
      });

      it('a payload over the size limit: a RangeError that says to carry less', async () => {
        const ctx = context();
        const big = 'x'.repeat(MAX_STATE_CHARS);
        await expect(c.seal(ctx, { step: 's', bind: bindRequest(ctx, 'refund', ARGS), big })).rejects.toThrow(/carry ids instead of content/);
      });

      it('a missing step or a hand-made bind', async () => {
        const ctx = context();
        await expect(c.seal(ctx, { bind: bindRequest(ctx, 'refund', ARGS) } as never)).rejects.toThrow(/step/);
        await expect(c.seal(ctx, { step: 's', bind: { name: 'refund' } } as never)).rejects.toThrow(/bindRequest/);
      });

      it('large arguments are digested, not stored: the state size does not grow with them', async () => {
        const ctx = context();
        const small = await c.seal(ctx, { step: 's', bind: bindRequest(ctx, 'summarize', { text: 'a' }) });
        const large = await c.seal(ctx, { step: 's', bind: bindRequest(ctx, 'summarize', { text: 'a'.repeat(1_000_000) }) });
        expect(large.length).toBe(small.length);
      });
    });
  });
}
