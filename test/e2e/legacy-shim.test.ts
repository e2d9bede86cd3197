/**
 * A port must not lock out old clients: the ported servers, connected in-process to a 2025-era client
 * (InMemoryTransport), are served through the SDK's legacy shim, which turns each `input_required` into
 * real server→client requests. They must answer like the legacy originals, with the same side effects.
 */
import { pathToFileURL } from 'node:url';
import type { McpServer, Server } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureModule } from './contract.js';
import { FIXTURES, MCP_ALLOWED_ROOTS, comparable, loadLegacy, perform, scriptFor, type ScenarioName } from './fixtures.js';
import { portSource, preparePortedSet, runLegacy, type PortedSet } from './harness.js';

let set: PortedSet;

beforeAll(async () => {
  // this process hosts the ported servers itself: configure the runtime as a deployment would
  process.env.MRTR_STATE_KEYS = 'e2e-shim-key-0123456789abcdef-0123456789abcdef';
  process.env.MCP_ALLOWED_ROOTS = MCP_ALLOWED_ROOTS;
  set = await preparePortedSet(FIXTURES.map((f) => f.name));
});

afterAll(() => set?.remove());

async function loadPorted(name: string): Promise<FixtureModule<McpServer | Server>> {
  return (await import(pathToFileURL(set.ported.get(name) ?? '').href)) as FixtureModule<McpServer | Server>;
}

describe(`ported servers (ported by: ${portSource()}) serving a 2025-era client through the legacy shim`, () => {
  for (const fixture of FIXTURES) {
    describe(fixture.name, () => {
      for (const scenario of Object.keys(fixture.scenarios) as ScenarioName[]) {
        it(scenario, async () => {
          const reference = scenario === 'invalid-then-valid' ? 'accept' : scenario;
          const legacy = await runLegacy(await loadLegacy(fixture.name), scriptFor(fixture, reference), (c) => perform(c, fixture.call));
          const ported = await runLegacy(await loadPorted(fixture.name), scriptFor(fixture, scenario), (c) => perform(c, fixture.call));
          expect(comparable(fixture, ported.result, ported.effects)).toEqual(comparable(fixture, legacy.result, legacy.effects));
          if (scenario === 'invalid-then-valid') expect(ported.asks.elicit).toBeGreaterThan(legacy.asks.elicit);
          else if (scenario === 'roots') expect(ported.asks.roots).toBe(0);
          else if (scenario === 'no-elicitation') expect(ported.asks).toEqual({ elicit: 0, sample: 0, roots: 0 });
          else expect(ported.asks).toEqual(legacy.asks);
        });
      }
    });
  }
});
