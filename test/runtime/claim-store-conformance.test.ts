// The exported conformance test: the in-memory store passes it, and each way a store can break the
// at-most-once promise makes it fail, naming the check.
import { describe, it, expect } from 'vitest';
import { claimStoreConformance, ClaimStoreConformanceError } from '../../src/runtime/claim-store-conformance.js';
import { MemoryClaimStore, type ClaimStore } from '../../src/runtime/mrtr-continuation.js';
import { CONFORMANCE_CHECKS } from './helpers.js';

const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 1));

describe('claimStoreConformance', () => {
  it('MemoryClaimStore passes (one shared instance stands for every replica; it cannot lose a backend)', async () => {
    const shared = new MemoryClaimStore();
    const passed = await claimStoreConformance({ make: () => shared, cannotFail: true });
    expect(passed).toEqual(CONFORMANCE_CHECKS.slice(0, -1)); // no backend to lose: no fail-closed check
  });

  it('asks for an unreachable handle unless the store says it cannot fail', async () => {
    await expect(claimStoreConformance({ make: () => new MemoryClaimStore() })).rejects.toThrow(/pass `unreachable`/);
  });

  async function failure(options: Parameters<typeof claimStoreConformance>[0]): Promise<ClaimStoreConformanceError> {
    const error = await claimStoreConformance(options).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ClaimStoreConformanceError);
    return error as ClaimStoreConformanceError;
  }

  it('catches per-process stores posing as shared ones (each replica its own memory)', async () => {
    const error = await failure({ make: () => new MemoryClaimStore(), cannotFail: true });
    expect(error.check).toBe('one claim per key, seen by every replica');
    expect(error.message).toMatch(/another replica answered true/);
  });

  it('catches a check-then-set store (not atomic)', async () => {
    const seen = new Set<string>();
    const racy: ClaimStore = {
      async claim(key) {
        const taken = seen.has(key);
        await tick(); // the gap between GET and SET
        if (taken) return false;
        seen.add(key);
        return true;
      },
    };
    const error = await failure({ make: () => racy, cannotFail: true });
    expect(error.check).toBe('atomic under concurrency');
    expect(error.message).toMatch(/200 concurrent claims of one key gave \d+ true/);
  });

  it('catches a store that ignores the TTL (claims never lapse)', async () => {
    const forever = new Set<string>();
    const store: ClaimStore = { claim: (key) => (forever.has(key) ? false : (forever.add(key), true)) };
    const error = await failure({ make: () => store, cannotFail: true });
    expect(error.check).toBe('held for its TTL, then free');
    expect(error.message).toMatch(/1\.4 s after a 1 s claim answered false/);
  });

  it('catches a store that takes seconds for milliseconds (lapses too early)', async () => {
    const shared = new MemoryClaimStore();
    const store: ClaimStore = { claim: (key, ttl) => shared.claim(key, ttl / 1000) };
    const error = await failure({ make: () => store, cannotFail: true });
    expect(error.check).toBe('held for its TTL, then free');
    expect(error.message).toMatch(/0\.6 s into a 1 s claim answered true/);
  });

  it('catches a store that answers a string instead of a boolean', async () => {
    const shared = new MemoryClaimStore();
    const store = { claim: (key: string, ttl: number) => (shared.claim(key, ttl) ? 'OK' : null) } as unknown as ClaimStore;
    const error = await failure({ make: () => store, cannotFail: true });
    expect(error.message).toMatch(/the first claim of a key answered "OK" \(expected true\)/);
  });

  it('catches a store that fails open (true when its backend is down), one that answers false, and one that hangs', async () => {
    const shared = new MemoryClaimStore();
    const make = () => shared;
    const open = await failure({ make, unreachable: () => ({ claim: () => true }) });
    expect(open.message).toMatch(/fails closed when its backend is unreachable: a claim on the unreachable store answered true instead of throwing/);
    const quiet = await failure({ make, unreachable: () => ({ claim: () => false }) });
    expect(quiet.message).toMatch(/answered false instead of throwing/);
    const hung = await failure({ make, unreachable: () => ({ claim: () => new Promise<boolean>(() => {}) }), failWithinMs: 200 });
    expect(hung.message).toMatch(/did not settle within 200 ms/);
  });

  it('a store that throws when unreachable passes that check', async () => {
    const shared = new MemoryClaimStore();
    const passed = await claimStoreConformance({
      make: () => shared,
      unreachable: () => ({
        claim: async () => {
          throw new Error('ECONNREFUSED');
        },
      }),
    });
    expect(passed.at(-1)).toBe('fails closed when its backend is unreachable');
  });

  it('releases every handle it made, even when a check fails', async () => {
    const released: ClaimStore[] = [];
    const made: ClaimStore[] = [];
    await failure({
      make: () => {
        const s = new MemoryClaimStore();
        made.push(s);
        return s;
      },
      cannotFail: true,
      release: (s) => void released.push(s),
    });
    expect(released).toEqual(made);
    expect(made).toHaveLength(4);
  });
});
