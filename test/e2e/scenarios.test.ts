/**
 * Every fixture server: the legacy original in the 2025 era (in-process) and its port in the 2026 era
 * (two replica processes, requests alternating between them) answer the same user the same way, and each
 * side effect happens exactly once per completed call, never on an asking round.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findMarkers } from '../../src/port/markers.js';
import { expectSameAsLegacy } from './same-as-legacy.js';
import { FIXTURES, MCP_ALLOWED_ROOTS, loadLegacy, perform, scriptFor, type ScenarioName } from './fixtures.js';
import { portSource, preparePortedSet, runLegacy, runModern, startReplica, type PortedSet, type Replica } from './harness.js';

const SHARED_KEYS = 'e2e-shared-key-0123456789abcdef-0123456789abcdef';
/** Markers a complete port may leave: they ask for a configuration review, not for code to be ported. */
const REVIEW_ONLY_REASONS = new Set(['roots-retired', 'capability-fallback']);

let set: PortedSet;
let replicas: Replica[] = [];

beforeAll(async () => {
  set = await preparePortedSet(FIXTURES.map((f) => f.name));
  const env = { MRTR_STATE_KEYS: SHARED_KEYS, MCP_ALLOWED_ROOTS };
  replicas = await Promise.all([startReplica(set, 'A', env), startReplica(set, 'B', env)]);
});

afterAll(async () => {
  await Promise.all(replicas.map((r) => r.stop()));
  set?.remove();
});

describe(`ported servers (ported by: ${portSource()}) against the legacy originals`, () => {
  for (const fixture of FIXTURES) {
    describe(fixture.name, () => {
      it('is ported completely (no todo marker other than a review note)', () => {
        const ported = readFileSync(set.ported.get(fixture.name) ?? '', 'utf8');
        const todo = findMarkers(ported).filter((m) => !REVIEW_ONLY_REASONS.has(m.reason));
        expect(todo.map((m) => `line ${m.line}: ${m.reason}: ${m.message}`)).toEqual([]);
      });

      for (const [scenario, expectedText] of Object.entries(fixture.scenarios) as [ScenarioName, string][]) {
        it(scenario, async () => {
          // Legacy elicitInput rejects schema-invalid content with an error, so the reference for
          // invalid-then-valid is the legacy run given only the valid answer.
          const reference = scenario === 'invalid-then-valid' ? 'accept' : scenario;
          const legacyRun = await runLegacy(await loadLegacy(fixture.name), scriptFor(fixture, reference), (c) => perform(c, fixture.call));
          const portedRun = await runModern(set, replicas, fixture.name, scriptFor(fixture, scenario), (c) => perform(c, fixture.call));
          expectSameAsLegacy(fixture, scenario, expectedText, legacyRun, portedRun);
        });
      }
    });
  }
});

