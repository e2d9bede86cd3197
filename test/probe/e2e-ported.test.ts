/**
 * The probe against the end-to-end suite's fixture servers as `mrtr-port port` ports them (the real
 * transform, default AES-GCM continuation), hosted as two replica processes behind createMcpHandler
 * exactly as test/e2e does: a sound port passes every check (those that need more skip, saying why).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProbeCall, ProbeReport } from '../../src/probe/model.js';
import { runProbe } from '../../src/probe/run.js';
import { FIXTURES, MCP_ALLOWED_ROOTS } from '../e2e/fixtures.js';
import { portSource, preparePortedSet, startReplica, type PortedSet, type Replica } from '../e2e/harness.js';

// Long enough for a multi-round call on a loaded machine (test files run side by side on two cores: at 4 s a
// state sometimes expired between two rounds); only the expiry check waits it out, on a timer.
const TTL_SECONDS = 12;
/** Just past the state's lifetime: the runtime's expiry is strict (its clock slack only admits states dated in the future). */
const TTL_WAIT_SECONDS = TTL_SECONDS + 1.5;

/** Sibling tools that ask the same question with the same arguments: the other call each state is replayed on. */
const SIBLINGS: Record<string, ProbeCall[]> = {
  'delete-file': [{ kind: 'tool', name: 'archive_file', arguments: { path: '/srv/data/old-report.csv' } }],
  'shared-helper': [{ kind: 'tool', name: 'drop_table', arguments: { target: 'sessions' } }],
  'key-rotation-lowlevel': [{ kind: 'tool', name: 'list_keys', arguments: {} }],
};

let set: PortedSet;
let replicas: Replica[];
const reports = new Map<string, ProbeReport>();

beforeAll(async () => {
  set = await preparePortedSet(FIXTURES.map((f) => f.name));
  const env = { MRTR_STATE_KEYS: 'probe-e2e-key-0123456789abcdef-0123456789abcdef', MRTR_STATE_TTL_SECONDS: String(TTL_SECONDS), MCP_ALLOWED_ROOTS };
  replicas = await Promise.all([startReplica(set, 'A', env), startReplica(set, 'B', env)]);
  const [A, B] = replicas;
  await Promise.all(
    FIXTURES.map(async (fixture) => {
      const report = await runProbe({
        url: A.url(fixture.name),
        replicas: [B.url(fixture.name)],
        headers: {},
        answers: 'all',
        allowEffects: false,
        ttlWaitSeconds: TTL_WAIT_SECONDS,
        calls: [fixture.call as ProbeCall, ...(SIBLINGS[fixture.name] ?? [])],
      });
      reports.set(fixture.name, report);
    }),
  );
}, 240_000);

afterAll(async () => {
  if (replicas !== undefined) await Promise.all(replicas.map((r) => r.stop()));
  set?.remove();
});

/**
 * Servers whose own check refuses every answer a black-box probe can invent, so the probe's flow cannot
 * complete: a name off an allow list (the handler throws), an odd count (asked again until the 10-round
 * cap). The probe must say so, by the round-trip check, and that is all it can say about them.
 */
const REFUSES_PROBE_ANSWERS: Readonly<Record<string, RegExp>> = {
  'blind-policy-error': /failed after 1 answered round: error result: "probe answer may not approve production access"/,
  'blind-alias-ask': /still asking after 10 answered rounds/,
};

describe(`probe against the e2e servers (ported by: ${portSource()}), two replicas`, () => {
  for (const [name, summary] of Object.entries(REFUSES_PROBE_ANSWERS)) {
    it(`${name}: the round trip fails on the server's own check of the probe's answers, and the probe says why`, () => {
      const roundTrip = reports.get(name)!.calls[0].checks.find((k) => k.id === 'round-trip')!;
      expect(roundTrip.status).toBe('fail');
      expect(roundTrip.summary).toMatch(summary);
    });
  }

  for (const fixture of FIXTURES.filter((f) => !(f.name in REFUSES_PROBE_ANSWERS))) {
    it(`${fixture.name}: no check fails, no warning`, () => {
      const report = reports.get(fixture.name)!;
      for (const call of report.calls) {
        const flagged = call.checks.filter((k) => k.status === 'fail' || k.warning !== undefined);
        expect(flagged, JSON.stringify(flagged, null, 2)).toEqual([]);
      }
      expect(report.calls[0].checks.find((k) => k.id === 'round-trip')!.status).toBe('pass');
    });
  }

  it('on every server that asks an elicitation in its last round, the state checks ran and passed (not skipped)', () => {
    const attacked = ['replica', 'tamper', 'no-state', 'expired', 'missing-answer', 'decline', 'cancel', 'capability', 'ineligible', 'state-readable', 'state-size'];
    // summarize, issue-wizard, blind-email-draft and blind-explain-prompt end on a sampling request, workspace-roots asks nothing
    const notAsking = ['summarize', 'issue-wizard', 'blind-email-draft', 'blind-explain-prompt', 'workspace-roots'];
    const asking = FIXTURES.filter((f) => !notAsking.includes(f.name) && !(f.name in REFUSES_PROBE_ANSWERS));
    for (const fixture of asking) {
      const checks = reports.get(fixture.name)!.calls[0].checks;
      const notPassed = checks.filter((k) => attacked.includes(k.id) && k.status !== 'pass').map((k) => `${k.id}: ${k.summary}`);
      expect(notPassed, `${fixture.name}: ${notPassed.join('; ')}`).toEqual([]);
    }
  });

  it('the sibling tools refuse each other\'s states', () => {
    for (const name of ['delete-file', 'shared-helper']) {
      for (const call of reports.get(name)!.calls) expect(call.checks.find((k) => k.id === 'other-call')!.status, name).toBe('pass');
    }
  });

  it('a call that never asks (workspace roots retired to configuration) passes round-trip in one request and skips the state checks', () => {
    const checks = reports.get('workspace-roots')!.calls[0].checks;
    expect(checks.find((k) => k.id === 'round-trip')!.summary).toBe('completed at once, without asking for input');
    expect(checks.find((k) => k.id === 'tamper')!.status).toBe('skip');
  });
});
