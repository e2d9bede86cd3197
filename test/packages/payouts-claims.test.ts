// fixtures/packages/payouts-ts, a legacy TypeScript package, ported by the real CLI with `--claims redis`
// and run as two replica processes (its sources compiled as tsx compiles them, then plain node) sharing
// one real redis-server: a completed final round replayed on the other replica (once, and 200 times at
// once) sends no second payout, and the replay gets the
// documented refusal; the probe with --allow-effects passes every check, and fails replay-final on a
// copy whose claim the test removed; Redis killed mid-run fails the calls closed. Ported with
// `--claims memory`, a replay on the same replica is refused, and one on another replica is not.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProbeReport } from '../../src/probe/model.js';
import { typeCheckProject } from '../perf/shared-source-files.js';
import { startRedis, type RedisServer } from '../runtime/redis-server.js';
import { askedRound, manualClient, toolRound, type RoundOutcome } from './manual-rounds.js';
import { compileSourcesForNode, copyPackage, emptyFile, portPackage, readLedger, runCli, SETUP_TIMEOUT_MS, startPackageReplica, type CliRun, type PackageCopy, type PackageReplica, type PortReport } from './package-run.js';

const STATE_KEYS = 'payouts-e2e-shared-key-0123456789abcdef-0123456789';
// Long enough for the probe's multi-round flows on a loaded machine; its expiry check waits it out.
const TTL_SECONDS = 12;
/** The flow's refusal of a replayed final round (src/runtime/mrtr-flow.ts FlowReplayedError), as a tool error result. */
const REPLAYED = 'This request was already answered: its requestState cannot be used again. Call it again to start over.';
/** The claim the flow takes before the code after the last answer runs; the broken copy has it cut out. */
const CLAIM_LINE = 'if (!(await claimOnce(opened.state, { store: claimStore }))) throw new FlowReplayedError();';
const ACCEPT = { confirm: true };

interface Deployment {
  readonly copy: PackageCopy;
  readonly port: CliRun & { report: PortReport };
  readonly replicas: PackageReplica[];
}

let redis: RedisServer;
let scratch: string;
let ledger: string;
let redisPort: Deployment;
let memoryPort: Deployment;
let brokenPort: Deployment;
let probe: Promise<CliRun>;
let brokenProbe: Promise<CliRun>;
const clients: Client[] = [];

/** Compiles the copy's sources as they are now (ported, or with the claim cut out) and starts its replicas. */
function startReplicas(copy: PackageCopy, env: Record<string, string>, names: string[]): Promise<PackageReplica[]> {
  const options = { serverFile: compileSourcesForNode(copy.dir)('server.ts'), factory: 'createServer', modules: 'esm' as const, env };
  return Promise.all(names.map((name) => startPackageReplica(name, options)));
}

/** Ports a fresh copy and starts its replicas. */
async function deploy(claims: 'redis' | 'memory', env: Record<string, string>, names: string[]): Promise<Deployment> {
  const copy = copyPackage('payouts-ts');
  const port = await portPackage(copy.dir, ['--claims', claims]);
  if (port.exitCode !== 0) throw new Error(`port --claims ${claims} exited ${port.exitCode}:\n${port.stdout}\n${port.stderr}`);
  return { copy, port, replicas: await startReplicas(copy, env, names) };
}

/** The broken variant: a copy of a port's output with the flow's claim removed. */
async function deployWithoutClaim(ported: Deployment, env: Record<string, string>, names: string[]): Promise<Deployment> {
  const copy = copyPackage('payouts-ts', ported.copy.dir);
  const flow = join(copy.dir, 'src/mrtr-flow.ts');
  const text = readFileSync(flow, 'utf8');
  if (!text.includes(CLAIM_LINE)) throw new Error('the flow helper no longer holds the claim line this test removes');
  writeFileSync(flow, text.replace(CLAIM_LINE, '/* claim removed by the test */'));
  return { copy, port: ported.port, replicas: await startReplicas(copy, env, names) };
}

/** The probe's JSON report; a run that printed none fails with what it said. */
function probeReport(run: CliRun): ProbeReport {
  try {
    return JSON.parse(run.stdout) as ProbeReport;
  } catch {
    throw new Error(`mrtr-port probe exited ${run.exitCode} without a JSON report:\n${run.stdout}\n${run.stderr}`);
  }
}

function probeCli(replicas: readonly PackageReplica[], payee: string): Promise<CliRun> {
  const args = JSON.stringify({ payee, amount: 5 });
  return runCli(scratch, [
    'probe', replicas[0].url('mcp'), '--replica', replicas[1].url('mcp'),
    '--call', 'send_payout', '--args', args, '--call', 'schedule_payout', '--args', args,
    '--allow-effects', '--ttl-wait', String(TTL_SECONDS + 1.5), '--format', 'json',
  ]);
}

function payoutsTo(payee: string): number {
  return readLedger(ledger).filter((entry) => entry.kind === 'payout.sent' && entry.detail.payee === payee).length;
}

async function clientOf(replica: PackageReplica): Promise<Client> {
  const client = await manualClient(replica);
  clients.push(client);
  return client;
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'mrtr-pkg-payouts-'));
  ledger = emptyFile(join(scratch, 'ledger.jsonl'));
  redis = await startRedis();
  const base = { NODE_ENV: 'production', MRTR_STATE_KEYS: STATE_KEYS, MRTR_STATE_TTL_SECONDS: String(TTL_SECONDS), PAYOUTS_LEDGER: ledger };
  const withRedis = { ...base, MRTR_CLAIMS_REDIS_URL: redis.url };
  [[redisPort, brokenPort], memoryPort] = await Promise.all([
    deploy('redis', withRedis, ['A', 'B']).then(async (ported) => [ported, await deployWithoutClaim(ported, withRedis, ['X', 'Y'])] as const),
    deploy('memory', base, ['M1', 'M2']),
  ]);
  // the probes run (and wait out the expiry) while the replay tests below run; each uses its own payee
  probe = probeCli(redisPort.replicas, 'probe-payee');
  brokenProbe = probeCli(brokenPort.replicas, 'broken-probe-payee');
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  for (const deployment of [redisPort, memoryPort, brokenPort]) {
    if (deployment === undefined) continue;
    await Promise.all(deployment.replicas.map((r) => r.stop()));
    deployment.copy.remove();
  }
  await redis?.stop();
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

describe('mrtr-port port --claims redis (the CLI) on a TypeScript package', () => {
  it('ports both tools, writes the Redis claim store, adds redis to package.json, and says what to set', () => {
    const { report, exitCode } = redisPort.port;
    expect(exitCode).toBe(0);
    expect(report.files.filter((f) => f.status === 'changed').map((f) => [f.file, f.sites, f.markers])).toEqual([['src/server.ts', 2, 0]]);
    expect(report.helpers.map((h) => [h.file, h.status]).sort()).toEqual([
      ['src/mrtr-claims-redis.ts', 'written'],
      ['src/mrtr-continuation.ts', 'written'],
      ['src/mrtr-flow.ts', 'written'],
    ]);
    expect(readFileSync(join(redisPort.copy.dir, 'src/mrtr-flow.ts'), 'utf8')).toContain("from './mrtr-claims-redis.js'");
    expect(report.manifests.map((m) => [m.file, m.status, m.added])).toEqual([['package.json', 'written', { redis: '6.3.1' }]]);
    expect((JSON.parse(readFileSync(join(redisPort.copy.dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies.redis).toBe('6.3.1');
    expect(report.nextSteps.map((s) => s.id)).toEqual(['install', 'state-keys', 'claims', 'host-2026']);
    expect(report.nextSteps.find((s) => s.id === 'claims')?.text).toMatch(/MRTR_CLAIMS_REDIS_URL/);
  });

  it('the ported package type-checks (its own tsconfig, strict, NodeNext)', () => {
    // `tsc --noEmit -p .` in this process, inside a test: it holds the event loop (seconds when the machine
    // is loaded), and no request of this process is in flight between tests (the probes run in their own)
    expect(typeCheckProject(redisPort.copy.dir)).toEqual([]);
  }, SETUP_TIMEOUT_MS);

  it('with --claims memory the store is the process memory, package.json is left alone, and replicas are warned about', () => {
    const { report } = memoryPort.port;
    expect(report.helpers.map((h) => h.file).sort()).toEqual(['src/mrtr-claims.ts', 'src/mrtr-continuation.ts', 'src/mrtr-flow.ts']);
    expect(report.manifests.filter((m) => m.status !== 'unchanged')).toEqual([]);
    expect(report.nextSteps.find((s) => s.id === 'claims')?.text).toMatch(/--claims redis/);
    // production, in-memory claims: one start-up warning per replica that claims do not span replicas
    for (const replica of memoryPort.replicas) expect(replica.stderr().match(/claims are recorded in this process only/g)).toHaveLength(1);
  });
});

describe('two replicas sharing one real Redis: a replayed final round sends no second payout', () => {
  it('completed on B, replayed on A (and on B again): refused, with the documented error result', async () => {
    const [A, B] = redisPort.replicas;
    const args = { payee: 'seq-payee', amount: 120 };
    const [onA, onB] = [await clientOf(A), await clientOf(B)];
    const final = await askedRound(onA, 'send_payout', args, ACCEPT);
    const done = await toolRound(onB, 'send_payout', args, final);
    expect(done).toMatchObject({ kind: 'complete', text: expect.stringMatching(/^Sent 120 EUR to seq-payee as [0-9a-f-]{36}$/) });
    // the transfer id the user confirmed is the one sent (drawn on A, used on B)
    const sent = readLedger(ledger).find((e) => e.detail.payee === 'seq-payee');
    expect((done as { text: string }).text).toContain(String(sent?.detail.transferId));
    for (const client of [onA, onB, onA]) expect(await toolRound(client, 'send_payout', args, final)).toEqual({ kind: 'error', text: REPLAYED });
    expect(payoutsTo('seq-payee')).toBe(1);
  });

  it('200 concurrent final rounds of one state over both replicas: exactly one payout, 199 refusals', async () => {
    const [A, B] = redisPort.replicas;
    const args = { payee: 'burst-payee', amount: 7 };
    const [onA, onB] = [await clientOf(A), await clientOf(B)];
    const final = await askedRound(onA, 'send_payout', args, ACCEPT);
    const outcomes = await Promise.all(Array.from({ length: 200 }, (_, i) => toolRound(i % 2 === 0 ? onB : onA, 'send_payout', args, final)));
    const completed = outcomes.filter((o) => o.kind === 'complete');
    expect(completed).toHaveLength(1);
    expect(outcomes.filter((o) => o.kind === 'error' && o.text === REPLAYED)).toHaveLength(199);
    // both replicas refused replays: the claim spans processes
    const refusedOn = new Set(outcomes.flatMap((o, i) => (o.kind === 'error' ? [i % 2] : [])));
    expect(refusedOn).toEqual(new Set([0, 1]));
    expect(payoutsTo('burst-payee')).toBe(1);
  });
});

describe('--claims memory', () => {
  it('a replay on the same replica is refused; on the other replica it completes again (claims do not span processes)', async () => {
    const [M1, M2] = memoryPort.replicas;
    const args = { payee: 'memory-payee', amount: 30 };
    const [on1, on2] = [await clientOf(M1), await clientOf(M2)];
    const final = await askedRound(on1, 'send_payout', args, ACCEPT);
    expect((await toolRound(on1, 'send_payout', args, final)).kind).toBe('complete');
    expect(await toolRound(on1, 'send_payout', args, final)).toEqual({ kind: 'error', text: REPLAYED });
    expect(payoutsTo('memory-payee')).toBe(1);
    // the documented limit (docs/runtime.md): M2 never saw M1's claim, so the replay sends a second payout
    expect((await toolRound(on2, 'send_payout', args, final)).kind).toBe('complete');
    expect(await toolRound(on2, 'send_payout', args, final)).toEqual({ kind: 'error', text: REPLAYED });
    expect(payoutsTo('memory-payee')).toBe(2);
  });
});

describe('mrtr-port probe --allow-effects against the ported replicas', () => {
  it('every check passes, replay-final and expired included', async () => {
    const run = await probe;
    const report = probeReport(run);
    const notPassed = report.calls.flatMap((call) => call.checks.filter((k) => k.status !== 'pass').map((k) => `${call.call.kind === 'tool' ? call.call.name : ''} ${k.id}: ${k.status} ${k.summary}`));
    expect(notPassed).toEqual([]);
    expect(run.exitCode).toBe(0);
    expect(report.calls.map((c) => c.checks.find((k) => k.id === 'replay-final')?.status)).toEqual(['pass', 'pass']);
  }, SETUP_TIMEOUT_MS);

  it('on the copy with the claim removed, replay-final fails (and the probe exits 1)', async () => {
    const run = await brokenProbe;
    const report = probeReport(run);
    expect(run.exitCode).toBe(1);
    const failed = report.calls.flatMap((call) => call.checks.filter((k) => k.status === 'fail').map((k) => k.id));
    expect(failed).toEqual(['replay-final', 'replay-final']);
  }, SETUP_TIMEOUT_MS);
});

describe('Redis killed mid-run', () => {
  it('final rounds racing the kill complete at most once per state; after it every call fails closed and nothing runs', async () => {
    await Promise.all([probe, brokenProbe]); // the probes use this Redis too: let them finish first
    const [A, B] = redisPort.replicas;
    const [onA, onB] = [await clientOf(A), await clientOf(B)];
    const calls = Array.from({ length: 30 }, (_, i) => ({ payee: `kill-payee-${i}`, amount: 1 + i }));
    const states = await Promise.all(calls.map((args, i) => askedRound(i % 2 === 0 ? onA : onB, 'send_payout', args, ACCEPT)));
    const racing = Promise.all(calls.flatMap((args, i) => [toolRound(onA, 'send_payout', args, states[i]), toolRound(onB, 'send_payout', args, states[i])]));
    await redis.kill();
    const raced = await racing;
    for (const [i, args] of calls.entries()) {
      const pair: RoundOutcome[] = [raced[2 * i], raced[2 * i + 1]];
      const completed = pair.filter((o) => o.kind === 'complete').length;
      expect(completed).toBeLessThanOrEqual(1);
      expect(payoutsTo(args.payee)).toBe(completed); // a payout only where a round completed
      for (const o of pair) if (o.kind === 'error') expect(o.text).toMatch(/already answered|claim store failed/);
    }
    // with the store down, every retry (completed before or not) is refused, on both replicas, and nothing runs
    const before = readLedger(ledger).length;
    const after = await Promise.all(calls.flatMap((args, i) => [toolRound(onA, 'send_payout', args, states[i]), toolRound(onB, 'send_payout', args, states[i])]));
    for (const o of after) expect(o).toMatchObject({ kind: 'error', text: expect.stringMatching(/claim store failed/) });
    expect(readLedger(ledger).length).toBe(before);
  }, SETUP_TIMEOUT_MS);
});
