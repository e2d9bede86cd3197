/**
 * A capability check in a helper the handler calls (fixtures/e2e/capability-helper), on a connection
 * where the deprecated connection getter says nothing: `serveStdio` pinned to the 2026-07-28 era keeps
 * no `initialize`, so `server.server.getClientCapabilities()` is undefined there (over HTTP,
 * `createMcpHandler` backfills it from each request's envelope, which is why scenarios.test.ts cannot
 * tell). A 2026-era client that can show a form must still be asked: the port reads the request's
 * capabilities in the helper too. The port left that read as it was before (the helper asks nothing),
 * and this client was never asked: the handler took its fallback. Outside a request the rewritten
 * helper still answers from the connection, as the legacy one did.
 */
import { pathToFileURL } from 'node:url';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import type { ClientCapabilities, ElicitResult } from '@modelcontextprotocol/client';
import type { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryEffectLog, type FixtureModule, type SideEffect } from './contract.js';
import { fixtureNamed, loadLegacy, perform, scriptFor, type Outcome } from './fixtures.js';
import { makeClient, portSource, preparePortedSet, runLegacy, type AnswerScript, type AskCounts, type PortedSet } from './harness.js';

const NAME = 'capability-helper';
const fixture = fixtureNamed(NAME);

type CapabilityFixture = FixtureModule<McpServer> & { reviewSupport(server: McpServer): string };

let set: PortedSet;
let ported: CapabilityFixture;

beforeAll(async () => {
  // this process hosts the ported server itself: configure the runtime as a deployment would
  process.env.MRTR_STATE_KEYS = 'e2e-stdio-key-0123456789abcdef-0123456789abcdef';
  set = await preparePortedSet([NAME]);
  ported = (await import(pathToFileURL(set.ported.get(NAME) ?? '').href)) as CapabilityFixture;
});

afterAll(() => set?.remove());

interface StdioRun {
  result: Outcome;
  effects: SideEffect[];
  asks: AskCounts;
  era: string | undefined;
  /** What the deprecated connection getter said on the server instance that served the call. */
  connectionCapabilities: ClientCapabilities | undefined;
}

/** The ported server behind `serveStdio` (in-memory pipes), called once by a 2026-era client. */
async function runStdio(script: AnswerScript): Promise<StdioRun> {
  const log = new MemoryEffectLog();
  const instances: McpServer[] = [];
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const handle = serveStdio(
    () => {
      const server = ported.buildServer(log);
      instances.push(server);
      return server;
    },
    { transport: serverTransport, legacy: 'reject' },
  );
  const { client, asks } = makeClient(script, 'modern');
  await client.connect(clientTransport);
  try {
    const era = client.getProtocolEra();
    const result = await perform(client, fixture.call);
    expect(instances).toHaveLength(1); // one instance pinned for the connection
    return { result, effects: log.effects, asks, era, connectionCapabilities: instances[0].server.getClientCapabilities() };
  } finally {
    await client.close();
    await handle.close();
  }
}

describe(`a capability check in a helper, on a 2026-07-28 stdio connection (ported by: ${portSource()})`, () => {
  for (const scenario of ['accept', 'decline', 'no-elicitation'] as const) {
    it(`${scenario}: answers as the legacy server did on its 2025 connection`, async () => {
      const legacy = await runLegacy(await loadLegacy(NAME), scriptFor(fixture, scenario), (c) => perform(c, fixture.call));
      expect(legacy.result.texts.join('\n')).toContain(fixture.scenarios[scenario]);

      const run = await runStdio(scriptFor(fixture, scenario));
      expect(run.era).toBe('modern');
      // the connection getter has nothing here: only the request's capabilities can say "form"
      expect(run.connectionCapabilities).toBeUndefined();
      expect(run.result).toEqual(legacy.result);
      expect(run.effects).toEqual(legacy.effects);
      expect(run.asks).toEqual(legacy.asks);
      if (scenario === 'no-elicitation') expect(run.asks.elicit).toBe(0);
      else expect(run.asks.elicit).toBe(1); // asked: the fallback was not taken
    });
  }

  it('outside a request, the rewritten helper answers from the connection, like the legacy one', async () => {
    const legacyModule = (await loadLegacy(NAME)) as CapabilityFixture;
    for (const capabilities of [{ elicitation: { form: {} } }, { sampling: {} }] satisfies ClientCapabilities[]) {
      const answers: string[] = [];
      for (const module of [legacyModule, ported]) {
        const server = module.buildServer(new MemoryEffectLog());
        const unconnected = module.reviewSupport(server);
        const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
        await server.connect(serverTransport);
        const { client } = makeClient({ capabilities, elicit: (): ElicitResult => ({ action: 'decline' }) }, 'legacy');
        await client.connect(clientTransport);
        try {
          answers.push(`${unconnected} / ${module.reviewSupport(server)}`);
        } finally {
          await client.close();
          await server.close();
        }
      }
      const expected = capabilities.elicitation ? 'no reviews / reviews by form' : 'no reviews / no reviews';
      expect(answers).toEqual([expected, expected]);
    }
  });
});
