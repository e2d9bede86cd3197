/**
 * Every fixture server: the legacy original in the 2025 era (in-process) and its port in the 2026 era
 * (two replica processes, requests alternating between them) answer the same user the same way, and each
 * side effect happens exactly once per completed call, never on an asking round.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findMarkers } from '../../src/port/markers.js';
import { FIXTURES, MCP_ALLOWED_ROOTS, comparable, loadLegacy, perform, scriptFor, type ScenarioName } from './fixtures.js';
import { portSource, preparePortedSet, runLegacy, runModern, startReplica, untagged, type PortedSet, type Replica } from './harness.js';

const SHARED_KEYS = 'e2e-shared-key-0123456789abcdef-0123456789abcdef';
const CALL_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);
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
          const legacy = comparable(fixture, legacyRun.result, legacyRun.effects);
          expect(legacy.result.error).toBeUndefined();
          expect(legacy.result.texts.join('\n')).toContain(expectedText);

          const portedRun = await runModern(set, replicas, fixture.name, scriptFor(fixture, scenario), (c) => perform(c, fixture.call));
          const ported = { ...portedRun, ...comparable(fixture, portedRun.result, untagged(portedRun.effects)) };
          expect(ported.era).toBe('modern');
          expect(ported.result).toEqual(legacy.result);
          // same effects, same count, same values: exactly once per completed call, in the legacy order
          expect(ported.effects).toEqual(legacy.effects);

          const rounds = ported.routed.filter((r) => r.method !== undefined && CALL_METHODS.has(r.method));
          for (let i = 1; i < rounds.length; i++) {
            // every retry echoes the state and is served by the other replica than the round before
            expect(rounds[i].hasRequestState).toBe(true);
            expect(rounds[i].replica).not.toBe(rounds[i - 1].replica);
          }

          if (scenario === 'roots') {
            expect(legacyRun.asks.roots).toBe(1);
            expect(ported.asks.roots).toBe(0); // retired to configuration: no round at all
            expect(rounds).toHaveLength(1);
          } else if (scenario === 'no-elicitation') {
            expect(ported.asks).toEqual({ elicit: 0, sample: 0, roots: 0 }); // the fallback, in one round
            expect(rounds).toHaveLength(1);
          } else if (scenario === 'invalid-then-valid') {
            expect(ported.asks.elicit).toBeGreaterThan(legacyRun.asks.elicit); // the invalid answer was asked again
            expect(rounds.length).toBeGreaterThanOrEqual(3);
          } else {
            expect(ported.asks).toEqual(legacyRun.asks);
            expect(rounds.length).toBeGreaterThanOrEqual(2);
            // independent asks share a round; dependent ones take one each
            if (scenario === 'accept' && fixture.acceptRounds !== undefined) expect(rounds).toHaveLength(fixture.acceptRounds);
          }
        });
      }
    });
  }
});

