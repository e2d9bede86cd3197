/**
 * Every SDK v1 fixture server: the v1 original in the 2025 era (in-process, the v1 SDK's own client) and
 * what `mrtr-port port` makes of it (the official v1→v2 codemod, then the MRTR port, by the real runner)
 * in the 2026 era (two replica processes, requests alternating between them) answer the same user the
 * same way, and each side effect happens exactly once per completed call, never on an asking round.
 * The assertions are test/e2e/scenarios.test.ts's.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strictDiagnostics } from './strict-diagnostics.js';
import { findMarkers } from '../../src/port/markers.js';
import { expectSameAsLegacy } from './same-as-legacy.js';
import { MARKERS } from '../../src/vocabulary.js';
import { MCP_ALLOWED_ROOTS, perform, scriptFor, type ScenarioName } from './fixtures.js';
import { runModern, startReplica, type Replica } from './harness.js';
import { V1_CODEMOD_MARKS, V1_FILES, V1_FIXTURES, V1_SUPPORT_MODULES, fileOf } from './v1-fixtures.js';
import { loadLegacyV1, portV1Set, portedText, runLegacyV1, type PortedV1Set } from './v1-harness.js';

const SHARED_KEYS = 'e2e-shared-key-0123456789abcdef-0123456789abcdef';
/** Markers a complete port may leave: they ask for a configuration review, not for code to be ported. */
const REVIEW_ONLY_REASONS = new Set(['roots-retired', 'capability-fallback']);

let set: PortedV1Set;
let replicas: Replica[] = [];

beforeAll(async () => {
  set = await portV1Set(V1_FILES);
  const env = { MRTR_STATE_KEYS: SHARED_KEYS, MCP_ALLOWED_ROOTS };
  replicas = await Promise.all([startReplica(set, 'A', env), startReplica(set, 'B', env)]);
});

afterAll(async () => {
  await Promise.all(replicas.map((r) => r.stop()));
  set?.remove();
});

const codemodComments = (text: string): string[] => text.split('\n').filter((line) => line.includes(`/* ${MARKERS.sdkCodemod}`));

describe('SDK v1 servers ported by mrtr-port port (runPort: v1 migration, then the MRTR port) against the v1 originals', () => {
  it('the runner migrated and changed every fixture file and the modules they import, failed none', () => {
    const byFile = new Map(set.report.files.map((f) => [f.file, f]));
    for (const file of [...V1_FILES, ...V1_SUPPORT_MODULES]) expect(byFile.get(`${file}.ts`)).toMatchObject({ status: 'changed', v1Migrated: true });
    expect(set.report.summary).toMatchObject({ failed: 0, skipped: 0, v1Migrated: V1_FILES.length + V1_SUPPORT_MODULES.length, codemodMarkers: 2 });
  });

  it('the ported folder type-checks with strict, noUnusedLocals and noUnusedParameters (as test/e2e/typecheck.test.ts)', () => {
    const roots = readdirSync(set.dir).filter((f) => f.endsWith('.ts')).map((f) => join(set.dir, f));
    const diagnostics = strictDiagnostics(set.dir, roots);
    expect(diagnostics).toEqual([]);
  });

  for (const file of V1_FILES) {
    describe(`${file}.input.ts`, () => {
      it('is ported completely (no todo marker other than a review note)', () => {
        const todo = findMarkers(portedText(set, file)).filter((m) => !REVIEW_ONLY_REASONS.has(m.reason));
        expect(todo.map((m) => `line ${m.line}: ${m.reason}: ${m.message}`)).toEqual([]);
      });

      const marks = V1_CODEMOD_MARKS[file] ?? [];
      it(`imports no SDK v1 and keeps ${marks.length} codemod mark(s) for a human`, () => {
        const ported = portedText(set, file);
        expect(ported).not.toContain('@modelcontextprotocol/sdk');
        const comments = codemodComments(ported);
        expect(comments).toHaveLength(marks.length);
        marks.forEach((text, i) => expect(comments[i]).toContain(text));
      });
    });
  }

  for (const fixture of V1_FIXTURES) {
    describe(fixture.name, () => {
      for (const [scenario, expectedText] of Object.entries(fixture.scenarios) as [ScenarioName, string][]) {
        it(scenario, async () => {
          // Legacy elicitInput rejects schema-invalid content with an error, so the reference for
          // invalid-then-valid is the legacy run given only the valid answer.
          const reference = scenario === 'invalid-then-valid' ? 'accept' : scenario;
          const legacyRun = await runLegacyV1(await loadLegacyV1(fileOf(fixture)), scriptFor(fixture, reference), fixture.call);
          const portedRun = await runModern(set, replicas, fileOf(fixture), scriptFor(fixture, scenario), (c) => perform(c, fixture.call));
          expectSameAsLegacy(fixture, scenario, expectedText, legacyRun, portedRun);
        });
      }
    });
  }
});
