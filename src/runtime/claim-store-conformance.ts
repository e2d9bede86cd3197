/**
 * The conformance test every ClaimStore must pass before a fleet relies on it for at-most-once
 * completion: one claim per key, atomic under concurrency across replicas, held for its TTL and no
 * longer, and failing closed when the backend is unreachable. Framework-free: it throws a
 * ClaimStoreConformanceError naming the failed check, so it runs under vitest, jest or node:test alike:
 *
 *   import { claimStoreConformance } from 'mrtr-port/claim-store-conformance';
 *   it('my store conforms', () => claimStoreConformance({ make: () => myStore(url), unreachable: () => myStore(deadUrl) }), 30_000);
 *
 * It uses fresh random keys under `mrtr-conformance:` and takes about two seconds (the TTL checks wait
 * in real time: a shared store keeps its own clock).
 */
import { claimOnce, createContinuation, bindRequest, type ClaimStore } from './mrtr-continuation.js';

export interface ClaimStoreConformanceOptions {
  /** A new handle on the store under test. Called several times: each handle stands for a replica, and
   *  all of them must share one backend (for Redis: one client per call, same URL). */
  make: () => ClaimStore | Promise<ClaimStore>;
  /** A handle on the same kind of store whose backend cannot be reached (a closed port, a stopped
   *  server): every claim must throw. Leave it out only for a store that cannot fail, with `cannotFail`. */
  unreachable?: () => ClaimStore | Promise<ClaimStore>;
  /** True for an in-process store with no backend to lose (MemoryClaimStore). */
  cannotFail?: boolean;
  /** Releases a handle `make` or `unreachable` returned (close its connection). */
  release?: (store: ClaimStore) => void | Promise<void>;
  /** Concurrent claims of one key in the atomicity check (default 200), spread over 4 handles. */
  concurrency?: number;
  /** How long a claim on the unreachable store may take to throw, in ms (default 10000). */
  failWithinMs?: number;
}

export class ClaimStoreConformanceError extends Error {
  constructor(
    readonly check: string,
    detail: string,
  ) {
    super(`claim store conformance, ${check}: ${detail}`);
    this.name = 'ClaimStoreConformanceError';
  }
}

/** The checks that ran, in order; throws ClaimStoreConformanceError at the first that fails. */
export async function claimStoreConformance(options: ClaimStoreConformanceOptions): Promise<string[]> {
  if (options.unreachable === undefined && options.cannotFail !== true) {
    throw new TypeError('claimStoreConformance: pass `unreachable` (a handle whose backend is down), or `cannotFail: true` for an in-process store');
  }
  const run = `mrtr-conformance:${randomToken()}:`;
  const handles: ClaimStore[] = [];
  const open = async (factory: () => ClaimStore | Promise<ClaimStore>): Promise<ClaimStore> => {
    const store = await factory();
    handles.push(store);
    return store;
  };
  const passed: string[] = [];
  /** Runs one check; `expect` and `fail` inside it report under the check's name. */
  const check = async (name: string, body: (expect: AnswerCheck, fail: (detail: string) => never) => Promise<void>): Promise<void> => {
    const fail = (detail: string): never => {
      throw new ClaimStoreConformanceError(name, detail);
    };
    const expect: AnswerCheck = (answer, expected, what) => {
      if (answer !== expected) fail(`${what} answered ${JSON.stringify(answer)} (expected ${expected})`);
    };
    try {
      await body(expect, fail);
    } catch (error) {
      if (error instanceof ClaimStoreConformanceError) throw error;
      throw new ClaimStoreConformanceError(name, `threw ${error instanceof Error ? error.message : String(error)}`);
    }
    passed.push(name);
  };
  try {
    const replicas = [await open(options.make), await open(options.make), await open(options.make), await open(options.make)];
    const [one, two] = replicas as [ClaimStore, ClaimStore];

    await check('one claim per key, seen by every replica', async (expect, fail) => {
      const key = `${run}once`;
      expect(await one.claim(key, 30), true, 'the first claim of a key');
      expect(await one.claim(key, 30), false, 'a second claim on the same handle');
      expect(await two.claim(key, 30), false, 'a claim of the same key on another replica');
      expect(await two.claim(`${run}other`, 30), true, 'the first claim of another key');
    });

    await check('atomic under concurrency', async (_expect, fail) => {
      const key = `${run}race`;
      const count = options.concurrency ?? 200;
      const answers = await Promise.all(Array.from({ length: count }, (_, i) => replicas[i % replicas.length]!.claim(key, 30)));
      const wins = answers.filter((answer) => answer === true).length;
      const refusals = answers.filter((answer) => answer === false).length;
      if (wins !== 1 || refusals !== count - 1) {
        fail(`${count} concurrent claims of one key gave ${wins} true and ${refusals} false (expected 1 and ${count - 1})`);
      }
    });

    await check('independent keys under concurrency', async (_expect, fail) => {
      const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => replicas[i % replicas.length]!.claim(`${run}many:${i}`, 30)));
      const lost = answers.filter((answer) => answer !== true).length;
      if (lost > 0) fail(`${lost} of 100 first claims of distinct keys were refused`);
    });

    await check('keys of 200 characters', async (expect, fail) => {
      const key = `${run}${'k'.repeat(200 - run.length)}`;
      expect(await one.claim(key, 30), true, 'the first claim of a 200-character key');
      expect(await two.claim(key, 30), false, 'a second claim of it');
    });

    await check('held for its TTL, then free', async (expect, fail) => {
      const key = `${run}ttl`;
      const start = Date.now();
      expect(await one.claim(key, 1), true, 'a claim with a TTL of 1 s');
      await sleep(Math.max(0, start + 600 - Date.now()));
      if (Date.now() - start < 1000) expect(await two.claim(key, 1), false, 'a claim 0.6 s into a 1 s claim');
      else fail('the store took over 1 s to answer, so the TTL cannot be checked');
      await sleep(Math.max(0, start + 1400 - Date.now()));
      expect(await two.claim(key, 1), true, 'a claim 1.4 s after a 1 s claim');
    });

    await check('claimOnce on an opened state, replayed on another replica', async (expect, fail) => {
      const continuation = createContinuation({ keys: [randomToken() + randomToken()] });
      const ctx = { mcpReq: { method: 'tools/call', requestState: (): unknown => state } };
      let state: string | undefined;
      state = await continuation.seal(ctx, { step: 'conformance', bind: bindRequest(ctx, 'conformance', { run }) });
      const opened = await continuation.openState(ctx, bindRequest(ctx, 'conformance', { run }));
      if (opened === undefined) return fail('the state did not open');
      expect(await claimOnce(opened, { store: one }), true, 'the first completion');
      expect(await claimOnce(opened, { store: two }), false, 'a replay on another replica');
    });

    if (options.unreachable !== undefined) {
      const down = await open(options.unreachable);
      await check('fails closed when its backend is unreachable', async (_expect, fail) => {
        const limit = options.failWithinMs ?? 10_000;
        const outcome = await Promise.race([
          Promise.resolve()
            .then(() => down.claim(`${run}down`, 30))
            .then(
              (answer) => ({ answer }),
              (error: unknown) => ({ error }),
            ),
          sleep(limit).then(() => ({ hung: true as const })),
        ]);
        if ('hung' in outcome) fail(`a claim on the unreachable store did not settle within ${limit} ms`);
        if ('answer' in outcome) {
          fail(`a claim on the unreachable store answered ${JSON.stringify(outcome.answer)} instead of throwing`);
        }
      });
    }
    return passed;
  } finally {
    for (const store of handles) await options.release?.(store);
  }
}

type AnswerCheck = (answer: unknown, expected: boolean, what: string) => void;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function randomToken(): string {
  return Array.from(globalThis.crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('');
}
