/**
 * An outer array changed in place before the ask and read after the answer (fixtures/e2e/guestbook):
 * why the port leaves such a handler to a human (`array-write-across-ask`, docs/engine.md "What is
 * memoized"). Against two replicas, requests alternating between them, as in scenarios.test.ts:
 * - the transform marks the handler and leaves its legacy call;
 * - the rewrite it made before (guestbook.memoized.ts: the push memoized, the read live) answers otherwise
 *   than the legacy server: the push ran on the replica of the asking round, the answer reached the other;
 * - the port the marker's advice leads to (guestbook.expected.ts: the push after the last answer) answers
 *   as the legacy server does, with the same effect, once.
 * Each module is loaded once (in-process, and per replica) and called once: its signatures start empty.
 */
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findMarkers } from '../../src/port/markers.js';
import { expectSameAsLegacy } from './same-as-legacy.js';
import { strictDiagnostics } from './strict-diagnostics.js';
import { comparable, loadLegacy, perform, scriptFor, type E2eFixture } from './fixtures.js';
import { fixturePath, portWithTransform, runLegacy, runModern, setOfModules, startReplica, untagged, type PortedSet, type Replica } from './harness.js';

const SHARED_KEYS = 'e2e-shared-key-0123456789abcdef-0123456789abcdef';
const GUESTBOOK: E2eFixture = {
  name: 'guestbook',
  call: { kind: 'tool', name: 'sign_guestbook', arguments: { name: 'Ada' } },
  scenarios: { accept: 'Signed by Ada: 1 signature(s) (Ada)' },
  valid: { confirm: true },
};
const MEMOIZED = 'guestbook-memoized';

let set: PortedSet;
let replicas: Replica[] = [];

beforeAll(async () => {
  const texts = new Map([
    [GUESTBOOK.name, readFileSync(fixturePath(GUESTBOOK.name, 'expected'), 'utf8')],
    [MEMOIZED, readFileSync(fixturePath(GUESTBOOK.name, 'memoized'), 'utf8')],
  ]);
  set = setOfModules(texts, 'expected');
  const env = { MRTR_STATE_KEYS: SHARED_KEYS };
  replicas = await Promise.all([startReplica(set, 'A', env), startReplica(set, 'B', env)]);
});

afterAll(async () => {
  await Promise.all(replicas.map((r) => r.stop()));
  set?.remove();
});

describe('an outer array pushed before the ask and read after the answer (guestbook)', () => {
  it('the transform leaves the handler to a human: an array-write-across-ask marker naming the array, the legacy call kept', () => {
    const ported = portWithTransform(GUESTBOOK.name);
    const markers = findMarkers(ported);
    expect(markers.map((m) => m.reason)).toEqual(['array-write-across-ask']);
    expect(markers[0].message).toContain('`signatures` (changed in place before the ask by `signatures.push(name)`, read after the answer by `signatures.length`)');
    expect(ported).toContain('ctx.mcpReq.elicitInput(');
    expect(ported).not.toContain('resumable(');
  });

  it('memoized (the old rewrite), the answer reaches the replica that never saw the push: another reply than the legacy one', async () => {
    const legacyRun = await runLegacy(await loadLegacy(GUESTBOOK.name), scriptFor(GUESTBOOK, 'accept'), (c) => perform(c, GUESTBOOK.call));
    const memoizedRun = await runModern(set, replicas, MEMOIZED, scriptFor(GUESTBOOK, 'accept'), (c) => perform(c, GUESTBOOK.call));
    const legacy = comparable(GUESTBOOK, legacyRun.result, legacyRun.effects);
    const memoized = comparable(GUESTBOOK, memoizedRun.result, untagged(memoizedRun.effects));
    expect(legacy.result.texts).toEqual(['Signed by Ada: 1 signature(s) (Ada)']);
    expect(legacy.effects).toEqual([{ kind: 'guestbook.signed', detail: { name: 'Ada', count: 1 } }]);
    // asked on one replica, answered on the other
    const replicasServing = new Set(memoizedRun.routed.filter((r) => r.method === 'tools/call').map((r) => r.replica));
    expect(replicasServing.size).toBe(2);
    expect(memoized.result.texts).toEqual(['Signed by Ada: 0 signature(s) ()']);
    expect(memoized.effects).toEqual([{ kind: 'guestbook.signed', detail: { name: 'Ada', count: 0 } }]);
  });

  it('the port the marker advises (the push after the last answer) answers as the legacy server, the effect once', async () => {
    const legacyRun = await runLegacy(await freshLegacy(), scriptFor(GUESTBOOK, 'accept'), (c) => perform(c, GUESTBOOK.call));
    const portedRun = await runModern(set, replicas, GUESTBOOK.name, scriptFor(GUESTBOOK, 'accept'), (c) => perform(c, GUESTBOOK.call));
    expectSameAsLegacy(GUESTBOOK, 'accept', GUESTBOOK.scenarios.accept!, legacyRun, portedRun);
  });

  it('the three modules type-check with strict, noUnusedLocals and noUnusedParameters, next to the runtime', () => {
    const input = join(set.dir, `${GUESTBOOK.name}.input.ts`);
    copyFileSync(fixturePath(GUESTBOOK.name, 'input'), input);
    expect(strictDiagnostics(set.dir, [input, ...set.ported.values()])).toEqual([]);
  }, 120_000);
});

/** The legacy module loaded again (a query string makes another module instance): its signatures start empty. */
async function freshLegacy(): ReturnType<typeof loadLegacy> {
  const { pathToFileURL } = await import('node:url');
  return (await import(`${pathToFileURL(fixturePath(GUESTBOOK.name, 'input')).href}?fresh`)) as Awaited<ReturnType<typeof loadLegacy>>;
}
