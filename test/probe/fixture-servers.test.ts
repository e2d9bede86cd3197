/**
 * The probe against servers written here (fixtures/probe/): a sound one written directly on node:http
 * with hand-written JSON-RPC (no MCP SDK), and one deliberately broken server per check. Each is
 * hosted as two replica processes; every broken server fails exactly its check, for the reason it is
 * broken, and the sound one passes everything. Without --allow-effects no side effect runs twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckId, ProbeCall, ProbeReport } from '../../src/probe/model.js';
import { runProbe } from '../../src/probe/run.js';
import { startFixtureFleet, type FixtureFleet } from './fixture-hosts.js';

/**
 * States live 12 s on these servers; the expiry retry waits 13 s. The other checks use a state within
 * milliseconds on a quiet machine, but test files run side by side on two cores: at 4 s a state sometimes
 * expired between two rounds. Only the expiry check waits, on a timer.
 */
const TTL_SECONDS = 12;
const TTL_WAIT_SECONDS = TTL_SECONDS + 1;

interface Case {
  fixture: string;
  /** Checks that must fail on every call; every other check must not. */
  fails: CheckId[];
  /** Checks that pass with a warning. */
  warns?: CheckId[];
  allowEffects?: boolean;
  /** A phrase the failing check's summary holds: it failed for the reason the server is broken. */
  because?: RegExp;
  extraCalls?: ProbeCall[];
}

const CASES: Case[] = [
  {
    fixture: 'sound',
    fails: [],
    extraCalls: [
      { kind: 'tool', name: 'book_table', arguments: { restaurant: 'Chez Ada' } },
      { kind: 'prompt', name: 'welcome', arguments: { team: 'payments' } },
    ],
  },
  { fixture: 'sound', fails: [], allowEffects: true },
  { fixture: 'unsigned-state', fails: ['tamper'], because: /accepted a state with \$\.carried\.ticket changed in the readable state/ },
  { fixture: 'per-process-key', fails: ['replica'], because: /did not open on/ },
  { fixture: 'unbound-arguments', fails: ['other-args'], because: /accepted the state replayed with path/ },
  { fixture: 'unbound-call', fails: ['other-call'], because: /accepted the state of this call on tool/ },
  { fixture: 'no-expiry', fails: ['expired'], because: /accepted a state minted [\d.]+ s earlier/ },
  { fixture: 'readable-state', fails: [], warns: ['state-readable'] },
  {
    fixture: 'unsigned-readable-state',
    fails: ['tamper', 'state-readable'],
    because: /^accepted a state with |^argument path .* in clear in a state with no signature/,
  },
  { fixture: 'effect-before-ask', fails: ['missing-answer'], because: /confirm changed: the code before the ask ran again/ },
  { fixture: 'reask-on-decline', fails: ['decline'], because: /asked confirm again after a decline/ },
  { fixture: 'error-on-missing-answer', fails: ['missing-answer'], because: /failed instead of asking again: error -32603/ },
  { fixture: 'asks-without-capability', fails: ['capability'], because: /declared no capabilities for confirm \(elicitation\/create/ },
  { fixture: 'input-required-on-list', fails: ['ineligible'], because: /tools\/list returned input_required/ },
  { fixture: 'replayable-final', fails: ['replay-final'], allowEffects: true, because: /the same final retry completed again/ },
  { fixture: 'stateless', fails: ['no-state'], because: /completed using the answers of the final round sent without any requestState/ },
  { fixture: 'oversized-state', fails: [], warns: ['state-size'] },
];

const label = (c: Case) => `${c.fixture}${c.allowEffects ? ' --allow-effects' : ''}`;
/** A path per case, so each case's side effects can be counted in the shared effects file. */
const pathOf = (c: Case) => `/srv/${label(c).replace(/[^a-z-]/g, '')}/report.csv`;

let fleet: FixtureFleet;
const reports = new Map<string, ProbeReport>();

beforeAll(async () => {
  fleet = await startFixtureFleet([...new Set(CASES.map((c) => c.fixture))], ['A', 'B'], TTL_SECONDS);
  const [A, B] = fleet.hosts;
  await Promise.all(
    CASES.map(async (c) => {
      const path = pathOf(c);
      const report = await runProbe({
        url: A.url(c.fixture),
        replicas: [B.url(c.fixture)],
        headers: {},
        answers: 'all',
        allowEffects: c.allowEffects ?? false,
        ttlWaitSeconds: TTL_WAIT_SECONDS,
        calls: [
          { kind: 'tool', name: 'delete_file', arguments: { path } },
          { kind: 'tool', name: 'archive_file', arguments: { path } },
          ...(c.extraCalls ?? []),
        ],
      });
      reports.set(label(c), report);
    }),
  );
}, 240_000);

afterAll(async () => {
  await fleet?.stop();
});

describe('probe against hand-written servers (two replicas each)', () => {
  for (const c of CASES) {
    it(`${label(c)}: ${c.fails.length === 0 ? 'no check fails' : `fails exactly ${c.fails.join(', ')}`}`, () => {
      const report = reports.get(label(c))!;
      for (const call of report.calls) {
        const failed = call.checks.filter((k) => k.status === 'fail');
        expect(failed.map((k) => k.id), JSON.stringify(failed, null, 2)).toEqual(c.fails);
        for (const check of failed) expect(check.summary).toMatch(c.because!);
        const warned = call.checks.filter((k) => k.warning !== undefined).map((k) => k.id);
        expect(warned).toEqual(c.warns ?? []);
      }
    });
  }

  it('sound: every check ran and passed on every call, tools and prompt, one to four rounds', () => {
    const report = reports.get('sound')!;
    expect(report.calls).toHaveLength(4);
    for (const call of report.calls) {
      const notPassed = call.checks.filter((k) => k.status !== 'pass').map((k) => `${k.id}: ${k.summary}`);
      expect(notPassed).toEqual(['replay-final: sends the completing retry twice, which repeats a side effect on a broken server: only with --allow-effects']);
    }
    const booking = report.calls.find((c) => c.call.kind === 'tool' && c.call.name === 'book_table')!;
    expect(booking.checks.find((k) => k.id === 'round-trip')!.summary).toMatch(/after 2 input_required rounds/);
  });

  it('sound --allow-effects: the replay of the final round is refused on both replicas', () => {
    const replay = reports.get('sound --allow-effects')!.calls[0].checks.find((k) => k.id === 'replay-final')!;
    expect(replay.status).toBe('pass');
    const replays = replay.evidence.exchanges.slice(-2);
    expect(new Set(replays.map((e) => e.to)).size).toBe(2);
    for (const exchange of replays) expect(exchange.response).toMatchObject({ kind: 'error', toolError: true });
  });

  it('without --allow-effects every call ran its side effect exactly once (the round-trip), broken servers included', () => {
    for (const c of CASES.filter((k) => !k.allowEffects)) {
      const done = fleet.effects().filter((e) => e.detail.path === pathOf(c));
      expect(done.map((e) => e.kind).sort(), label(c)).toEqual(['file.archived', 'file.deleted']);
    }
  });

  it('the per-process-key server completes on either replica alone: only the cross-replica retry fails', () => {
    const call = reports.get('per-process-key')!.calls[0];
    expect(call.checks.find((k) => k.id === 'round-trip')!.status).toBe('pass');
    const replica = call.checks.find((k) => k.id === 'replica')!;
    const [minted, retried] = replica.evidence.exchanges.slice(0, 2);
    expect(minted.to).not.toBe(retried.to);
  });

  it('effect-before-ask: the question asked again shows another ticket, and the call completes with a ticket nobody confirmed', () => {
    const ticketsOf = (report: ProbeReport) => {
      const exchanges = report.calls[0].checks.find((k) => k.id === 'round-trip')!.evidence.exchanges;
      return exchanges.map((e) => /ticket (T-[0-9a-f]{6})/.exec(JSON.stringify(e.response))![1]);
    };
    const [asked, completed] = ticketsOf(reports.get('effect-before-ask')!);
    expect(completed).not.toBe(asked);
    const [soundAsked, soundCompleted] = ticketsOf(reports.get('sound')!);
    expect(soundCompleted).toBe(soundAsked);
    const missing = reports.get('effect-before-ask')!.calls[0].checks.find((k) => k.id === 'missing-answer')!;
    const [first, again] = missing.evidence.exchanges.slice(-2).map((e) => /ticket (T-[0-9a-f]{6})/.exec(JSON.stringify(e.response))![1]);
    expect(again).not.toBe(first);
  });
});
