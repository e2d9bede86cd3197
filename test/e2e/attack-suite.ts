/**
 * The requestState attack suite, defined once and run per codec (`attacks.test.ts`: the default AES-GCM
 * continuation; `attacks-sdk-codec.test.ts`: `port --codec sdk`, the SDK's HMAC codec).
 *
 * Attacks on the ported servers' `requestState`, from a real client in manual `input_required` mode:
 * tampered state, state replayed with other arguments, on another tool, on another server sharing the
 * key, an accept answer with no state, a replica with other keys, an expired state. In every case the
 * server must ask again (or fail) and never run the code after the ask: no side effect is recorded.
 *
 * Each attack starts from a genuine flow that completed (one effect: the control), then replays its
 * final round with one thing changed, so the change is the only reason the attack does not complete.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Client, ElicitRequestParams } from '@modelcontextprotocol/client';
import { readEffects } from './contract.js';
import { CLIENT_ROOTS, SAMPLED_REPLY, contentFor, fixtureNamed, requestOf, type Call, type E2eFixture } from './fixtures.js';
import { makeClient, portSource, preparePortedSet, roundRobinFetch, startReplica, type Codec, type PortedSet, type Replica } from './harness.js';

const SHARED_KEYS = 'e2e-shared-key-0123456789abcdef-0123456789abcdef';
const OTHER_KEYS = 'e2e-other-key-fedcba9876543210-fedcba9876543210';
const SHORT_TTL_SECONDS = 1;

/**
 * Fixtures whose code after the ask has a side effect, and the same call with other arguments (none for
 * a static resource: its only argument is its URI, and another URI never reaches the handler).
 */
const TARGETS: readonly { fixture: E2eFixture; otherArguments?: Call }[] = [
  { fixture: fixtureNamed('delete-file'), otherArguments: { kind: 'tool', name: 'delete_file', arguments: { path: '/etc/passwd' } } },
  { fixture: fixtureNamed('refund'), otherArguments: { kind: 'tool', name: 'refund', arguments: { orderId: 'B-200' } } },
  { fixture: fixtureNamed('booking'), otherArguments: { kind: 'tool', name: 'book_table', arguments: { restaurant: 'Le Procope' } } },
  { fixture: fixtureNamed('summarize'), otherArguments: { kind: 'tool', name: 'summarize', arguments: { text: 'Ignore the text.' } } },
  { fixture: fixtureNamed('onboarding-prompt'), otherArguments: { kind: 'prompt', name: 'onboarding', arguments: { team: 'security' } } },
  { fixture: fixtureNamed('incident-resource'), otherArguments: { kind: 'resource', uri: 'incident://INC-7' } },
  { fixture: fixtureNamed('runbook-resource') },
  { fixture: fixtureNamed('key-rotation-lowlevel'), otherArguments: { kind: 'tool', name: 'rotate_key', arguments: { keyId: 'signing-2026' } } },
  { fixture: fixtureNamed('export-capability'), otherArguments: { kind: 'tool', name: 'export_report', arguments: { report: 'payroll' } } },
  { fixture: fixtureNamed('expense-send'), otherArguments: { kind: 'tool', name: 'approve_expense', arguments: { expenseId: 'EXP-311', amount: 8450 } } },
  { fixture: fixtureNamed('calendar-url'), otherArguments: { kind: 'tool', name: 'connect_calendar', arguments: { account: 'mallory@example.com' } } },
  { fixture: fixtureNamed('digest-publish'), otherArguments: { kind: 'tool', name: 'publish_digest', arguments: { channel: '#all-hands', notes: 'Q3 revenue up 12%; subscriptions drove it.' } } },
  { fixture: fixtureNamed('shared-helper'), otherArguments: { kind: 'tool', name: 'purge_cache', arguments: { target: 'users' } } },
  // blind cases (test/e2e/fixtures.ts): a branching wizard, a resource template, a class server with a counter
  { fixture: fixtureNamed('blind-project-wizard'), otherArguments: { kind: 'tool', name: 'new_project', arguments: { name: 'payroll-api' } } },
  { fixture: fixtureNamed('blind-vault-resource'), otherArguments: { kind: 'resource', uri: 'vault://api-token' } },
  { fixture: fixtureNamed('blind-inventory-class'), otherArguments: { kind: 'tool', name: 'restock', arguments: { sku: 'widget', quantity: 500 } } },
];

/**
 * Pairs of tools on one server that ask the same question with the same arguments, so only the tool
 * name tells their states apart: a state minted for `from` must not complete `to`.
 */
const SIBLING_TOOLS: readonly { fixture: E2eFixture; to: Call; why: string }[] = [
  {
    fixture: fixtureNamed('delete-file'),
    to: { kind: 'tool', name: 'archive_file', arguments: { path: '/srv/data/old-report.csv' } },
    why: 'same arguments, same question',
  },
  {
    fixture: fixtureNamed('shared-helper'),
    to: { kind: 'tool', name: 'drop_table', arguments: { target: 'sessions' } },
    why: 'both ask through one shared helper',
  },
];

interface InputRequiredShape {
  resultType: 'input_required';
  inputRequests?: Record<string, { method: string; params?: Record<string, unknown> }>;
  requestState?: string;
}
type RoundOutcome =
  | { kind: 'input_required'; result: InputRequiredShape }
  | { kind: 'complete'; result: unknown }
  | { kind: 'error'; message: string };

/** What a retry carries on top of the call's own params. */
interface Retry {
  requestState?: string;
  inputResponses?: Record<string, unknown>;
}

/** One raw round in manual mode: the call's params plus what the retry carries. */
async function round(client: Client, call: Call, retry: Retry = {}): Promise<RoundOutcome> {
  const { method, params } = requestOf(call);
  try {
    const result = (await client.request({ method, params: { ...params, ...retry } }, { allowInputRequired: true })) as {
      resultType?: string;
    };
    if (result.resultType === 'input_required') return { kind: 'input_required', result: result as InputRequiredShape };
    // a tool refuses through an error result (the SDK turns a tool's thrown error into one)
    if ((result as { isError?: unknown }).isError === true) return { kind: 'error', message: JSON.stringify(result) };
    return { kind: 'complete', result };
  } catch (error) {
    return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
  }
}

/** Valid answers to every request of an input_required result, as the scripted user gives them. */
function answersFor(fixture: E2eFixture, result: InputRequiredShape): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  for (const [key, request] of Object.entries(result.inputRequests ?? {})) {
    if (request.method === 'elicitation/create') {
      answers[key] = { action: 'accept', content: contentFor(request.params as ElicitRequestParams, fixture.valid ?? {}) };
    } else if (request.method === 'sampling/createMessage') {
      answers[key] = SAMPLED_REPLY;
    } else if (request.method === 'roots/list') {
      answers[key] = { roots: CLIENT_ROOTS };
    } else {
      throw new Error(`unexpected input request ${request.method}`);
    }
  }
  return answers;
}

/** The state with one base64url character changed, at the first, middle or last one after the version prefix. */
function flipped(state: string, pick: 'first' | 'middle' | 'last'): string {
  const positions = [...state].flatMap((ch, i) => (/[A-Za-z0-9_-]/.test(ch) ? [i] : []));
  // skip a version prefix such as "v1." so the flip lands in sealed bytes
  const sealed = positions.filter((i) => i > state.indexOf('.'));
  const at = pick === 'first' ? sealed[0] : pick === 'last' ? sealed[sealed.length - 1] : sealed[Math.floor(sealed.length / 2)];
  const replacement = state[at] === 'A' ? 'B' : 'A';
  return state.slice(0, at) + replacement + state.slice(at + 1);
}

export function defineAttackSuite(codec: Codec): void {
  let set: PortedSet;
  let replicas: Record<'A' | 'B' | 'C' | 'D', Replica>;
  const clients: Client[] = [];
  let shortLived: { state: string; responses: Record<string, unknown>; mintedAt: number };

  /** A manual-mode client talking to exactly one replica (or alternating over several). */
  async function manualClient(mount: string, ...targets: Replica[]): Promise<Client> {
    return principalClient(mount, undefined, ...targets);
  }

  /** The same, calling as `principal` (`Authorization: Bearer <principal>`). */
  async function principalClient(mount: string, principal: string | undefined, ...targets: Replica[]): Promise<Client> {
    const { client } = makeClient({}, 'modern', true);
    const { fetch: routedFetch } = roundRobinFetch(targets, principal);
    await client.connect(new StreamableHTTPClientTransport(new URL(targets[0].url(mount)), { fetch: routedFetch }));
    clients.push(client);
    return client;
  }

  /**
   * Runs a call to completion with valid answers and returns every retry it took, the last being the
   * final round (the one whose code after the ask ran). Checks that exactly one side effect happened:
   * the control for every attack.
   */
  async function genuineFlow(client: Client, fixture: E2eFixture, call: Call): Promise<Required<Retry>[]> {
    const before = readEffects(set.effectsFile).length;
    const retries: Required<Retry>[] = [];
    let retry: Retry = {};
    for (let rounds = 0; rounds < 6; rounds++) {
      const outcome = await round(client, call, retry);
      if (outcome.kind === 'complete') {
        expect(readEffects(set.effectsFile).length - before).toBe(1);
        if (retries.length === 0) throw new Error(`${fixture.name} completed without asking`);
        return retries;
      }
      if (outcome.kind === 'error') throw new Error(`${fixture.name}: ${outcome.message}`);
      if (typeof outcome.result.requestState !== 'string') throw new Error(`${fixture.name} asked without a requestState`);
      retry = { requestState: outcome.result.requestState, inputResponses: answersFor(fixture, outcome.result) };
      retries.push(retry as Required<Retry>);
    }
    throw new Error(`${fixture.name} still asked after 6 rounds`);
  }

  async function genuineFinalRound(client: Client, fixture: E2eFixture, call: Call): Promise<Required<Retry>> {
    const retries = await genuineFlow(client, fixture, call);
    return retries[retries.length - 1];
  }

  /**
   * A genuine final round that has not been sent yet: a final round runs at most once (a replay of a
   * completed one is refused), so a control that must complete needs one nobody has used. Learns how many
   * rounds the call takes from a first genuine flow, then stops the second one before its last retry.
   */
  async function heldFinalRound(client: Client, fixture: E2eFixture, call: Call): Promise<Required<Retry>> {
    const rounds = (await genuineFlow(client, fixture, call)).length;
    let retry: Retry = {};
    for (let i = 0; i < rounds; i++) {
      const outcome = await round(client, call, retry);
      if (outcome.kind !== 'input_required' || typeof outcome.result.requestState !== 'string') {
        throw new Error(`${fixture.name}: round ${i + 1} of ${rounds} did not ask (${outcome.kind})`);
      }
      retry = { requestState: outcome.result.requestState, inputResponses: answersFor(fixture, outcome.result) };
    }
    return retry as Required<Retry>;
  }

  /** Sends one forged round; the server must not run the code after the ask. */
  async function expectRefused(client: Client, call: Call, retry: Retry): Promise<RoundOutcome> {
    const before = readEffects(set.effectsFile).length;
    const outcome = await round(client, call, retry);
    expect(readEffects(set.effectsFile).slice(before)).toEqual([]);
    expect(['input_required', 'error']).toContain(outcome.kind);
    return outcome;
  }

  beforeAll(async () => {
    set = await preparePortedSet(TARGETS.map((t) => t.fixture.name), codec);
    const [A, B, C, D] = await Promise.all([
      startReplica(set, 'A', { MRTR_STATE_KEYS: SHARED_KEYS }),
      startReplica(set, 'B', { MRTR_STATE_KEYS: SHARED_KEYS }),
      startReplica(set, 'C', { MRTR_STATE_KEYS: OTHER_KEYS }),
      startReplica(set, 'D', { MRTR_STATE_KEYS: SHARED_KEYS, MRTR_STATE_TTL_SECONDS: String(SHORT_TTL_SECONDS) }),
    ]);
    replicas = { A, B, C, D };
    // Mint the state the expiry attack replays first, so its wait overlaps the other attacks.
    const deleteFile = fixtureNamed('delete-file');
    const onD = await manualClient(deleteFile.name, D);
    const first = await round(onD, deleteFile.call);
    if (first.kind !== 'input_required' || first.result.requestState === undefined) throw new Error('delete-file did not ask on D');
    shortLived = { state: first.result.requestState, responses: answersFor(deleteFile, first.result), mintedAt: Date.now() };
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    if (replicas !== undefined) await Promise.all(Object.values(replicas).map((r) => r.stop()));
    set?.remove();
  });

  describe(`attacks on requestState (ported by: ${portSource()}, codec: ${codec})`, () => {
    for (const { fixture, otherArguments } of TARGETS) {
      describe(fixture.name, () => {
        it('a tampered state (one character flipped, at three places) is refused', async () => {
          const alternating = await manualClient(fixture.name, replicas.A, replicas.B);
          const final = await genuineFinalRound(alternating, fixture, fixture.call);
          const onB = await manualClient(fixture.name, replicas.B);
          for (const pick of ['first', 'middle', 'last'] as const) {
            const tampered = flipped(final.requestState, pick);
            expect(tampered).not.toBe(final.requestState);
            await expectRefused(onB, fixture.call, { ...final, requestState: tampered });
          }
        });

        if (otherArguments !== undefined) {
          it('a state replayed with other arguments is refused', async () => {
            const alternating = await manualClient(fixture.name, replicas.A, replicas.B);
            const final = await genuineFinalRound(alternating, fixture, fixture.call);
            const onB = await manualClient(fixture.name, replicas.B);
            await expectRefused(onB, otherArguments, final);
          });
        }

        it('a final round with one answer missing, or answered with the wrong kind, is asked again', async () => {
          const alternating = await manualClient(fixture.name, replicas.A, replicas.B);
          const final = await genuineFinalRound(alternating, fixture, fixture.call);
          const onB = await manualClient(fixture.name, replicas.B);
          for (const key of Object.keys(final.inputResponses)) {
            const { [key]: answer, ...others } = final.inputResponses;
            expect((await expectRefused(onB, fixture.call, { ...final, inputResponses: others })).kind).toBe('input_required');
            // an elicitation answered with a model reply, a model reply answered with an elicitation result
            const foreign = (answer as { action?: unknown }).action === undefined ? { action: 'accept', content: {} } : SAMPLED_REPLY;
            const swapped = { ...others, [key]: foreign };
            expect((await expectRefused(onB, fixture.call, { ...final, inputResponses: swapped })).kind).toBe('input_required');
          }
        });

        it('an accept answer sent with no state is refused', async () => {
          const alternating = await manualClient(fixture.name, replicas.A, replicas.B);
          const final = await genuineFinalRound(alternating, fixture, fixture.call);
          const onB = await manualClient(fixture.name, replicas.B);
          await expectRefused(onB, fixture.call, { inputResponses: final.inputResponses });
        });

        it('a state minted for one principal is refused for another; the same principal completes it', async () => {
          const asAlice = await principalClient(fixture.name, 'alice', replicas.A, replicas.B);
          const final = await heldFinalRound(asAlice, fixture, fixture.call);
          await expectRefused(await principalClient(fixture.name, 'mallory', replicas.B), fixture.call, final);
          await expectRefused(await manualClient(fixture.name, replicas.B), fixture.call, final); // anonymous
          // control: alice's own final round runs the code after the ask
          const before = readEffects(set.effectsFile).length;
          expect((await round(await principalClient(fixture.name, 'alice', replicas.B), fixture.call, final)).kind).toBe('complete');
          expect(readEffects(set.effectsFile).length - before).toBe(1);
        });

        it('a state minted by a replica with other keys is refused; the same state on a same-key replica completes', async () => {
          const onA = await manualClient(fixture.name, replicas.A);
          const final = await heldFinalRound(onA, fixture, fixture.call);
          const onC = await manualClient(fixture.name, replicas.C);
          await expectRefused(onC, fixture.call, final);
          // control: the very same round on B (shared keys) runs the code after the ask
          const onB = await manualClient(fixture.name, replicas.B);
          const before = readEffects(set.effectsFile).length;
          expect((await round(onB, fixture.call, final)).kind).toBe('complete');
          expect(readEffects(set.effectsFile).slice(before).map((e) => e.replica)).toEqual(['B']);
        });

        // one replica: its claims are in memory (a claim store shared by replicas is not wired here yet)
        it('a completed final round sent again is refused: its code after the ask runs once', async () => {
          const onA = await manualClient(fixture.name, replicas.A);
          const final = await genuineFinalRound(onA, fixture, fixture.call);
          const outcome = await expectRefused(onA, fixture.call, final);
          expect(outcome.kind).toBe('error');
        });
      });
    }

    for (const name of ['refund', 'digest-publish']) {
      it(`a state from an earlier step, sent with every answer at once, cannot skip the later steps (${name})`, async () => {
        const fixture = fixtureNamed(name);
        const alternating = await manualClient(fixture.name, replicas.A, replicas.B);
        const retries = await genuineFlow(alternating, fixture, fixture.call);
        expect(retries.length).toBeGreaterThanOrEqual(2); // dependent asks: one round per step
        const everyAnswer = Object.assign({}, ...retries.map((r) => r.inputResponses)) as Record<string, unknown>;
        const onB = await manualClient(fixture.name, replicas.B);
        for (const earlier of retries.slice(0, -1)) {
          await expectRefused(onB, fixture.call, { requestState: earlier.requestState, inputResponses: everyAnswer });
        }
      });
    }

    for (const { fixture, to, why } of SIBLING_TOOLS) {
      it(`a state replayed on another tool of the same server (${fixture.name}: ${why}) is refused`, async () => {
        const alternating = await manualClient(fixture.name, replicas.A, replicas.B);
        const final = await genuineFinalRound(alternating, fixture, fixture.call);
        const onB = await manualClient(fixture.name, replicas.B);
        await expectRefused(onB, to, final);
        // control: the other tool completes with its own state
        await genuineFinalRound(onB, fixture, to);
      });
    }

    it('a state replayed on another server sharing the key is refused', async () => {
      const finals = new Map<string, Required<Retry>>();
      for (const { fixture } of TARGETS) {
        finals.set(fixture.name, await genuineFinalRound(await manualClient(fixture.name, replicas.A), fixture, fixture.call));
      }
      for (const [i, { fixture }] of TARGETS.entries()) {
        const foreign = TARGETS[(i + 1) % TARGETS.length].fixture.name;
        const onB = await manualClient(fixture.name, replicas.B);
        const own = finals.get(fixture.name);
        await expectRefused(onB, fixture.call, { inputResponses: own?.inputResponses, requestState: finals.get(foreign)?.requestState });
      }
    });

    it('an expired state is refused; a fresh one from the same replica completes', async () => {
      const fixture = fixtureNamed('delete-file');
      const onD = await manualClient(fixture.name, replicas.D);
      await genuineFinalRound(onD, fixture, fixture.call); // control: TTL 1 s is enough when used at once
      // expiry is strict (clock slack only admits states dated in the future): just past the TTL is enough
      const expiresAt = shortLived.mintedAt + (SHORT_TTL_SECONDS + 1.5) * 1000;
      await new Promise((done) => setTimeout(done, Math.max(0, expiresAt - Date.now())));
      await expectRefused(onD, fixture.call, { requestState: shortLived.state, inputResponses: shortLived.responses });
    }, 30_000);
  });
}
