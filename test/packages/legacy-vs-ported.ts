/**
 * The suite every JavaScript fixture package goes through: ported by the real CLI, its report checked,
 * then two replica processes of the port (plain `node`) against the legacy original (its stdio entry,
 * one process, 2025 era), the same scripted user answering both. Results and the ordered ledger must be
 * equal, random references included (compared by order of first appearance, so one drawn again shows).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comparable, perform, scriptFor, type E2eFixture, type Outcome, type ScenarioName } from '../e2e/fixtures.js';
import {
  callRounds,
  copyPackage,
  emptyFile,
  portPackage,
  readLedger,
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

export interface PackageSpec {
  /** Folder under fixtures/packages. */
  readonly name: string;
  readonly modules: 'esm' | 'cjs';
  /** The module exporting the server factory, and its export name. */
  readonly serverModule: string;
  readonly factory: string;
  /** The legacy stdio entry (the package's bin). */
  readonly stdioEntry: string;
  /** The environment variable naming the file the package appends its business events to. */
  readonly ledgerVariable: string;
  /** Where the helpers must land, and their extension. */
  readonly helperDir: string;
  readonly helperExtension: '.js' | '.mjs' | '.cjs';
  /** The files the port must rewrite. */
  readonly portedFiles: readonly string[];
  /** Review markers the port leaves on purpose (`file: reason`); nothing else may be marked. */
  readonly reviewMarkers: readonly string[];
  /** Each tool call with its scenarios (the e2e fixtures' vocabulary, reused). */
  readonly calls: readonly E2eFixture[];
}

interface Reference {
  readonly outcome: Outcome;
  readonly ledger: LedgerEntry[];
  readonly asks: { elicit: number; sample: number; roots: number };
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

export function describePortedPackage(spec: PackageSpec): void {
  let legacy: PackageCopy;
  let ported: PackageCopy;
  let port: CliRun & { report: PortReport };
  let replicas: PackageReplica[] = [];
  let ledgerDir: string;
  let portedLedger: string;
  const references = new Map<string, Reference>();
  const key = (call: E2eFixture, scenario: ScenarioName): string => `${call.name}/${scenario}`;

  beforeAll(async () => {
    legacy = copyPackage(spec.name);
    ported = copyPackage(spec.name);
    ledgerDir = mkdtempSync(join(tmpdir(), 'mrtr-pkg-ledgers-'));
    portedLedger = emptyFile(join(ledgerDir, 'ported.jsonl'));
    // the legacy references, one stdio process each, run while the CLI ports the other copy
    const legacyRuns = spec.calls.flatMap((call) =>
      [...new Set(Object.keys(call.scenarios).map((s) => referenceScenario(s as ScenarioName)))].map(async (scenario) => {
        const ledger = emptyFile(join(ledgerDir, `legacy-${call.name}-${scenario}.jsonl`));
        const run = await runLegacyStdio({ dir: legacy.dir, entry: spec.stdioEntry, env: { [spec.ledgerVariable]: ledger } }, scriptFor(call, scenario), (c) => perform(c, call.call));
        references.set(key(call, scenario), { outcome: run.result, ledger: readLedger(ledger), asks: run.asks });
      }),
    );
    [port] = await Promise.all([portPackage(ported.dir), ...legacyRuns]);
    if (port.report.summary.failed !== 0) throw new Error(`the port failed: ${port.stdout}`);
    const env = { MRTR_STATE_KEYS: STATE_KEYS, [spec.ledgerVariable]: portedLedger };
    const replicaOptions = { serverFile: join(ported.dir, spec.serverModule), factory: spec.factory, modules: spec.modules, env };
    replicas = await Promise.all([startPackageReplica('A', replicaOptions), startPackageReplica('B', replicaOptions)]);
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    for (const copy of [legacy, ported]) copy?.remove();
    if (ledgerDir !== undefined) rmSync(ledgerDir, { recursive: true, force: true });
  });

  describe('mrtr-port port (the CLI)', () => {
    it('ports every tool, leaves only the review markers, and says what to do next', () => {
      const { report } = port;
      expect(port.exitCode, port.stderr).toBe(spec.reviewMarkers.length > 0 ? 1 : 0); // markers left exit 1
      expect(report.files.filter((f) => f.status === 'changed').map((f) => f.file).sort()).toEqual([...spec.portedFiles].sort());
      const marked = report.files.flatMap((f) => (f.markers > 0 ? [f.file] : []));
      expect(marked.sort()).toEqual([...new Set(spec.reviewMarkers.map((m) => m.split(': ')[0]))].sort());
      for (const marker of spec.reviewMarkers) {
        const [file, reason] = marker.split(': ');
        const text = readFileSync(join(ported.dir, file), 'utf8');
        expect(text.match(/@mrtr-port-todo\((\S+?)\)/g)).toEqual([`@mrtr-port-todo(${reason})`]);
      }
      expect(report.nextSteps.map((s) => s.id)).toEqual(['state-keys', 'claims', 'host-2026', ...(spec.reviewMarkers.length > 0 ? ['markers'] : [])]);
      expect(report.nextSteps.find((s) => s.id === 'host-2026')?.files).toEqual([spec.stdioEntry]);
      // the markers left are review notes on ported sites: the step says so, and does not call them unported
      if (spec.reviewMarkers.length > 0) expect(report.nextSteps.find((s) => s.id === 'markers')?.text).toMatch(/^Review \d+ markers? .*the sites are ported/);
      // both dependencies the ported code imports were declared already: package.json is left alone
      expect(report.manifests.filter((m) => m.status !== 'unchanged')).toEqual([]);
    });

    it(`writes the helpers in the package's own module system (${spec.modules}, ${spec.helperExtension}), and no TypeScript`, () => {
      const helpers = ['mrtr-claims', 'mrtr-continuation', 'mrtr-flow'].map((stem) => join(spec.helperDir, `${stem}${spec.helperExtension}`));
      expect(port.report.helpers.map((h) => [h.file, h.status]).sort()).toEqual(helpers.map((h) => [h, 'written']));
      for (const helper of helpers) {
        const text = readFileSync(join(ported.dir, helper), 'utf8');
        if (spec.modules === 'cjs') expect(text, helper).not.toMatch(/^\s*(import|export)\s/m);
        else expect(text, helper).not.toMatch(/\brequire\(/);
      }
      const typescript = filesUnder(ported.dir).filter((f) => /\.[cm]?ts$/.test(f)).map((f) => relative(ported.dir, f));
      expect(typescript).toEqual([]);
    });
  });

  describe('two replicas of the port (plain node) against the legacy package (stdio)', () => {
    for (const call of spec.calls) {
      for (const [scenario, expectedText] of Object.entries(call.scenarios) as [ScenarioName, string][]) {
        it(`${call.call.kind === 'tool' ? call.call.name : call.name}: ${scenario}`, async () => {
          const reference = references.get(key(call, referenceScenario(scenario)))!;
          const legacyRun = comparable(call, reference.outcome, reference.ledger);
          expect(legacyRun.result.error).toBeUndefined();
          expect(legacyRun.result.texts.join('\n')).toContain(expectedText);

          const before = readLedger(portedLedger).length;
          const run = await runOnReplicas(replicas, scriptFor(call, scenario), (c) => perform(c, call.call));
          const portedRun = comparable(call, run.result, readLedger(portedLedger).slice(before));
          expect(run.era).toBe('modern');
          expect(portedRun.result).toEqual(legacyRun.result);
          // the same events, in the legacy order, each once: an effect before the ask ran on one round only
          expect(portedRun.effects).toEqual(legacyRun.effects);

          const rounds = callRounds(run.routed);
          for (let i = 1; i < rounds.length; i++) {
            expect(rounds[i].hasRequestState).toBe(true);
            expect(rounds[i].replica).not.toBe(rounds[i - 1].replica); // every retry on the other replica
          }
          if (scenario === 'no-elicitation') {
            expect(run.asks).toEqual({ elicit: 0, sample: 0, roots: 0 });
            expect(rounds).toHaveLength(1);
          } else if (scenario === 'invalid-then-valid') {
            expect(run.asks.elicit).toBe(reference.asks.elicit + 1); // the invalid answer was asked again
          } else {
            expect(run.asks).toEqual(reference.asks);
            expect(rounds.length).toBeGreaterThanOrEqual(2);
          }
          for (const replica of replicas) expect(replica.stderr()).not.toMatch(/server error|Error:/);
        });
      }
    }
  });
}
