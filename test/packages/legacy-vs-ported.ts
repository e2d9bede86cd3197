/**
 * The suite every fixture package goes through: ported by the real CLI, its report checked, then two
 * replica processes of the port (plain `node`) against the legacy original (its stdio entry, one process,
 * 2025 era), the same scripted user answering both. Results and the ordered ledger must be equal, random
 * references included (compared by order of first appearance, so one drawn again shows). A TypeScript
 * package is built by its own tsconfig, legacy and port alike, and both run as built (`dist/`), as its
 * users run it; the port must type-check there.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comparable, MCP_ALLOWED_ROOTS, perform, scriptFor, type E2eFixture, type Outcome, type ScenarioName } from '../e2e/fixtures.js';
import type { AnswerScript } from '../e2e/harness.js';
import { buildProject } from '../perf/shared-source-files.js';
import { startRedis, type RedisServer } from '../runtime/redis-server.js';
import {
  callRounds,
  copyPackage,
  emptyFile,
  portPackage,
  readLedger,
  runCli,
  runLegacyStdio,
  runOnReplicas,
  startPackageReplica,
  type CliRun,
  type LedgerEntry,
  type PackageCopy,
  type PackageReplica,
  type PortReport,
  SETUP_TIMEOUT_MS,
} from './package-run.js';

const STATE_KEYS = 'packages-e2e-shared-key-0123456789abcdef-0123456789';

/** A scenario of one package only: the same scripted answers for both runs (e.g. answers that differ per ask). */
export interface CustomScenario {
  /** The call (one of the spec's `calls`, by its `name`). */
  readonly call: string;
  readonly name: string;
  readonly script: () => AnswerScript;
  /** A text the legacy result must contain (proves the path taken); with `error`, the legacy call's error message. */
  readonly text: string;
  /** The legacy call fails (a JSON-RPC error, `text` in its message): the port must fail too, with `ported` in its message. */
  readonly error?: { readonly ported: string };
}

/** What a test file added with `more` may reach once the package runs. */
export interface RunningPackage {
  readonly replicas: readonly PackageReplica[];
  /** The ledger every replica of the port appends to. */
  readonly ledger: string;
  readonly dir: string;
}

export interface PackageSpec {
  /** Folder under fixtures/packages. */
  readonly name: string;
  /** The module system the package's code runs as (for TypeScript: what its tsconfig emits). */
  readonly modules: 'esm' | 'cjs';
  /** The module exporting the server factory, and its export name. */
  readonly serverModule: string;
  readonly factory: string;
  /** The legacy stdio entry (the package's bin; for TypeScript, its source). */
  readonly stdioEntry: string;
  /** TypeScript: the package is built with its own tsconfig; the built server module and stdio entry. */
  readonly built?: { readonly serverModule: string; readonly stdioEntry: string };
  /** The environment variable naming the file the package appends its business events to. */
  readonly ledgerVariable: string;
  /** Where the helpers must land, and (JavaScript) their extension; a TypeScript package gets `.ts`. */
  readonly helperDir: string;
  readonly helperExtension?: '.js' | '.mjs' | '.cjs';
  /** The files the port must rewrite. */
  readonly portedFiles: readonly string[];
  /** Review markers the port leaves on purpose (`file: reason`); nothing else may be marked. */
  readonly reviewMarkers: readonly string[];
  /** Each tool call with its scenarios (the e2e fixtures' vocabulary, reused). */
  readonly calls: readonly E2eFixture[];
  readonly custom?: readonly CustomScenario[];
  /** The next steps the report must give, in order (default: state-keys, claims, host-2026, markers if any). */
  readonly nextSteps?: readonly string[];
  /** `redis`: ported with `--claims redis`, the replicas share one real redis-server (claims span them). Default: memory. */
  readonly claims?: 'redis';
  /** Calls (by `name`) whose questions are asked several to a round (a `Promise.all` of asks): how many per round. Default 1. */
  readonly asksPerRound?: Readonly<Record<string, number>>;
  /** What the port must do to package.json (default: nothing). */
  readonly manifest?: { readonly added: Record<string, string>; readonly removed: readonly string[] };
}

interface Reference {
  readonly outcome: Outcome;
  readonly ledger: LedgerEntry[];
  readonly asks: { elicit: number; sample: number; roots: number };
}

/** One run both sides make: the call, the answers, and which legacy run it is compared with. */
interface Comparison {
  readonly call: E2eFixture;
  /** The test's name and the kind of check (`custom` compares like accept, asks included). */
  readonly label: string;
  readonly scenario: ScenarioName | 'custom';
  readonly script: () => AnswerScript;
  /** The key of the legacy run it is compared with, and that run's script. */
  readonly reference: string;
  readonly referenceScript: () => AnswerScript;
  readonly text: string;
  readonly error?: { readonly ported: string };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    if (entry === 'node_modules') return [];
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The legacy run a scenario is compared with: legacy elicitInput rejects invalid content, so invalid-then-valid compares with accept. */
function referenceScenario(scenario: ScenarioName): ScenarioName {
  return scenario === 'invalid-then-valid' ? 'accept' : scenario;
}

function comparisonsOf(spec: PackageSpec): Comparison[] {
  const standard = spec.calls.flatMap((call) =>
    (Object.entries(call.scenarios) as [ScenarioName, string][]).map(([scenario, text]): Comparison => {
      const reference = referenceScenario(scenario);
      return { call, label: scenario, scenario, script: () => scriptFor(call, scenario), reference: `${call.name}/${reference}`, referenceScript: () => scriptFor(call, reference), text };
    }),
  );
  const custom = (spec.custom ?? []).map((c): Comparison => {
    const call = spec.calls.find((f) => f.name === c.call);
    if (call === undefined) throw new Error(`custom scenario ${c.name}: the spec has no call named ${c.call}`);
    return { call, label: c.name, scenario: 'custom', script: c.script, reference: `${call.name}/${c.name}`, referenceScript: c.script, text: c.text, error: c.error };
  });
  return [...standard, ...custom];
}

/** The helper files the port must write, by stem, sorted. */
function helperStems(spec: PackageSpec): string[] {
  return [spec.claims === 'redis' ? 'mrtr-claims-redis' : 'mrtr-claims', 'mrtr-continuation', 'mrtr-flow'];
}

function callName(call: E2eFixture): string {
  return call.call.kind === 'resource' ? call.call.uri : call.call.name;
}

/**
 * `tsc -p .` in a package copy, in this process (test/perf/shared-source-files.ts: the lib, Node and SDK
 * declarations are parsed once per worker, not once per spawned tsc): its diagnostics, one a line. Throws
 * with them unless the legacy package builds cleanly. It holds this process's event loop for the build
 * (seconds on a loaded machine), so it runs only while no request or start-up timer of this process is
 * pending: a timer due during the build would fire before the answer that came in meanwhile is read.
 */
function build(dir: string, what: string): string[] {
  const errors = buildProject(dir);
  if (errors.length > 0 && what === 'legacy') throw new Error(`the legacy package does not build:\n${errors.join('\n')}`);
  return errors;
}

/**
 * Registers the package's tests. `more` may add tests of its own that use the running port (given
 * once the setup is done).
 */
export function describePortedPackage(spec: PackageSpec, more?: (running: () => RunningPackage) => void): void {
  let legacy: PackageCopy;
  let ported: PackageCopy;
  let port: CliRun & { report: PortReport };
  let portedBuild: string[] | undefined;
  let checkAfter: CliRun;
  let portAgain: CliRun & { report: PortReport };
  let replicas: PackageReplica[] = [];
  let ledgerDir: string;
  let portedLedger: string;
  let redis: RedisServer | undefined;
  const references = new Map<string, Reference>();
  const comparisons = comparisonsOf(spec);
  const legacyEntry = spec.built?.stdioEntry ?? spec.stdioEntry;

  beforeAll(async () => {
    legacy = copyPackage(spec.name);
    ported = copyPackage(spec.name);
    ledgerDir = mkdtempSync(join(tmpdir(), 'mrtr-pkg-ledgers-'));
    portedLedger = emptyFile(join(ledgerDir, 'ported.jsonl'));
    // the CLI ports one copy in its own process while this one builds the other, then runs the legacy
    // references (one stdio process each); the ported copy is built once nothing of this process is in flight
    const porting = portPackage(ported.dir, spec.claims === 'redis' ? ['--claims', 'redis'] : []);
    if (spec.built !== undefined) build(legacy.dir, 'legacy');
    const unique = [...new Map(comparisons.map((c) => [c.reference, c])).values()];
    const legacyRuns = unique.map(async (c, i) => {
      const ledger = emptyFile(join(ledgerDir, `legacy-${i}.jsonl`));
      const run = await runLegacyStdio({ dir: legacy.dir, entry: legacyEntry, env: { [spec.ledgerVariable]: ledger } }, c.referenceScript(), (client) => perform(client, c.call.call));
      references.set(c.reference, { outcome: run.result, ledger: readLedger(ledger), asks: run.asks });
    });
    const claimStore = spec.claims === 'redis' ? startRedis().then((server) => (redis = server)) : Promise.resolve(undefined);
    [port] = await Promise.all([porting, claimStore, ...legacyRuns]);
    if (port.report.summary.failed !== 0) throw new Error(`the port failed: ${port.stdout}`);
    if (spec.built !== undefined) portedBuild = build(ported.dir, 'ported');
    const env = { MRTR_STATE_KEYS: STATE_KEYS, MCP_ALLOWED_ROOTS, [spec.ledgerVariable]: portedLedger, ...(redis !== undefined ? { MRTR_CLAIMS_REDIS_URL: redis.url } : {}) };
    const replicaOptions = { serverFile: join(ported.dir, spec.built?.serverModule ?? spec.serverModule), factory: spec.factory, modules: spec.modules, env };
    // what a user runs next, read-only, while the replicas start: the CI gate, and the port once more
    const after = Promise.all([runCli(ported.dir, ['check', '.']), portPackage(ported.dir, ['--dry-run'])]);
    if (portedBuild === undefined || portedBuild.length === 0) {
      replicas = await Promise.all([startPackageReplica('A', replicaOptions), startPackageReplica('B', replicaOptions)]);
    }
    [checkAfter, portAgain] = await after;
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    await redis?.stop();
    for (const copy of [legacy, ported]) copy?.remove();
    if (ledgerDir !== undefined) rmSync(ledgerDir, { recursive: true, force: true });
  });

  describe('mrtr-port port (the CLI)', () => {
    it('ports every handler, leaves only the review markers, and says what to do next', () => {
      const { report } = port;
      expect(port.exitCode, port.stderr).toBe(spec.reviewMarkers.length > 0 ? 1 : 0); // markers left exit 1
      expect(report.files.filter((f) => f.status === 'changed').map((f) => f.file).sort()).toEqual([...spec.portedFiles].sort());
      const marked = report.files.flatMap((f) => (f.markers > 0 ? [f.file] : []));
      expect(marked.sort()).toEqual([...new Set(spec.reviewMarkers.map((m) => m.split(': ')[0]))].sort());
      for (const file of marked) {
        const text = readFileSync(join(ported.dir, file), 'utf8');
        const reasons = spec.reviewMarkers.filter((m) => m.startsWith(`${file}: `)).map((m) => `@mrtr-port-todo(${m.split(': ')[1]})`);
        expect(text.match(/@mrtr-port-todo\((\S+?)\)/g)).toEqual(reasons);
      }
      const defaultSteps = ['state-keys', 'claims', 'host-2026', ...(spec.reviewMarkers.length > 0 ? ['markers'] : [])];
      expect(report.nextSteps.map((s) => s.id)).toEqual(spec.nextSteps ?? defaultSteps);
      expect(report.nextSteps.find((s) => s.id === 'host-2026')?.files).toEqual([spec.stdioEntry]);
      // the markers left are review notes on ported sites: the step says so, and does not call them unported
      if (spec.reviewMarkers.length > 0) expect(report.nextSteps.find((s) => s.id === 'markers')?.text).toMatch(/^Review \d+ markers? .*the sites are ported/);
      const changed = report.manifests.filter((m) => m.status !== 'unchanged');
      if (spec.manifest === undefined) {
        // every dependency the ported code imports was declared already: package.json is left alone
        expect(changed).toEqual([]);
      } else {
        expect(changed.map((m) => [m.file, m.status, m.added, m.removed])).toEqual([['package.json', 'written', spec.manifest.added, spec.manifest.removed]]);
      }
    });

    it('then `check` passes but for the review markers, and the port run again changes nothing', () => {
      expect(checkAfter.exitCode, checkAfter.stdout + checkAfter.stderr).toBe(spec.reviewMarkers.length > 0 ? 1 : 0);
      expect(checkAfter.stdout).toMatch(spec.reviewMarkers.length > 0 ? new RegExp(`${spec.reviewMarkers.length} markers? left`) : /check passed/);
      expect(portAgain.exitCode, portAgain.stdout).toBe(spec.reviewMarkers.length > 0 ? 1 : 0);
      expect(portAgain.report.summary).toMatchObject({ changed: 0, failed: 0 });
    });

    if (spec.built === undefined) {
      it(`writes the helpers in the package's own module system (${spec.modules}, ${spec.helperExtension}), and no TypeScript`, () => {
        const helpers = helperStems(spec).map((stem) => join(spec.helperDir, `${stem}${spec.helperExtension ?? '(no extension given)'}`));
        expect(port.report.helpers.map((h) => [h.file, h.status]).sort()).toEqual(helpers.map((h) => [h, 'written']));
        for (const helper of helpers) {
          const text = readFileSync(join(ported.dir, helper), 'utf8');
          if (spec.modules === 'cjs') expect(text, helper).not.toMatch(/^\s*(import|export)\s/m);
          else expect(text, helper).not.toMatch(/\brequire\(/);
        }
        const typescript = filesUnder(ported.dir).filter((f) => /\.[cm]?ts$/.test(f)).map((f) => relative(ported.dir, f));
        expect(typescript).toEqual([]);
      });
    } else {
      it(`writes TypeScript helpers, and the port builds with the package's own tsconfig (strict, its target and lib, ${spec.modules} output)`, () => {
        const helpers = helperStems(spec).map((stem) => join(spec.helperDir, `${stem}.ts`));
        expect(port.report.helpers.map((h) => [h.file, h.status]).sort()).toEqual(helpers.map((h) => [h, 'written']));
        expect(portedBuild).toEqual([]);
        // the port wrote no JavaScript of its own: every .js file is tsc's, under the build folder
        const outDir = spec.built!.serverModule.split('/')[0];
        const javascript = filesUnder(ported.dir).map((f) => relative(ported.dir, f)).filter((f) => /\.[cm]?js$/.test(f) && !f.startsWith(`${outDir}/`));
        expect(javascript).toEqual([]);
      });
    }
  });

  describe('two replicas of the port (plain node) against the legacy package (stdio)', () => {
    for (const c of comparisons) {
      it(`${callName(c.call)}: ${c.label}`, async () => {
        const reference = references.get(c.reference)!;
        const legacyRun = comparable(c.call, reference.outcome, reference.ledger);
        if (c.error) expect(legacyRun.result.error).toContain(c.text);
        else expect(legacyRun.result.error).toBeUndefined();
        if (!c.error) expect(legacyRun.result.texts.join('\n')).toContain(c.text);

        const before = readLedger(portedLedger).length;
        const run = await runOnReplicas(replicas, c.script(), (client) => perform(client, c.call.call));
        const portedRun = comparable(c.call, run.result, readLedger(portedLedger).slice(before));
        expect(run.era).toBe('modern');
        if (c.error) {
          expect(portedRun.result).toEqual({ error: expect.stringContaining(c.error.ported), texts: [] });
        } else {
          expect(portedRun.result).toEqual(legacyRun.result);
        }
        // the same events, in the legacy order, each once: an effect before the ask ran on one round only
        expect(portedRun.effects).toEqual(legacyRun.effects);

        const rounds = callRounds(run.routed);
        for (let i = 1; i < rounds.length; i++) {
          expect(rounds[i].hasRequestState).toBe(true);
          expect(rounds[i].replica).not.toBe(rounds[i - 1].replica); // every retry on the other replica
        }
        if (c.scenario === 'no-elicitation') {
          expect(run.asks).toEqual({ elicit: 0, sample: 0, roots: 0 });
          expect(rounds).toHaveLength(1);
        } else if (c.scenario === 'roots') {
          expect(reference.asks.roots).toBe(1);
          expect(run.asks).toEqual({ elicit: 0, sample: 0, roots: 0 }); // retired to configuration (MCP_ALLOWED_ROOTS): no round
          expect(rounds).toHaveLength(1);
        } else if (c.scenario === 'invalid-then-valid') {
          expect(run.asks.elicit).toBe(reference.asks.elicit + 1); // the invalid answer was asked again
        } else {
          expect(run.asks).toEqual(reference.asks);
          // one round per ask (or per batch of asks), and the final one
          expect(rounds).toHaveLength(Math.ceil((run.asks.elicit + run.asks.sample) / (spec.asksPerRound?.[c.call.name] ?? 1)) + 1);
        }
        for (const replica of replicas) expect(replica.stderr()).not.toMatch(/server error|Error:/);
      });
    }
  });

  more?.(() => ({ replicas, ledger: portedLedger, dir: ported.dir }));
}
