/**
 * The e2e harness for SDK v1 servers (`fixtures/e2e-v1/<name>.input.ts`, written against
 * `@modelcontextprotocol/sdk` 1.x): the legacy original runs in-process with the v1 SDK's own `Client` and
 * `InMemoryTransport` (2025 era, push-style requests to the client); the port is made the way `mrtr-port
 * port` makes it, by the real runner (`runPort`: the official v1→v2 codemod, then the MRTR port, the
 * helpers written next to the sources) in a folder under the repository's `.tmp/`, and is served by the v2
 * harness's replicas (test/e2e/harness.ts `portedSetIn`, `startReplica`, `runModern`).
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as V1InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServer as V1McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server as V1Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Client, CreateMessageRequestParams, ElicitRequestParams } from '@modelcontextprotocol/client';
import { runPort, type PortResult } from '../../src/port/index.js';
import { MemoryEffectLog, type FixtureModule } from './contract.js';
import { perform, type Call, type Outcome } from './fixtures.js';
import { CLIENT_CAPABILITIES, REPO_ROOT, portedSetIn, type AnswerScript, type AskCounts, type PortedSet, type Run } from './harness.js';

const V1_FIXTURE_DIR = join(REPO_ROOT, 'fixtures/e2e-v1');
const HERE = join(REPO_ROOT, 'test/e2e');

export function v1FixturePath(name: string): string {
  return join(V1_FIXTURE_DIR, `${name}.input.ts`);
}

/** The legacy v1 original, imported in-process. */
export async function loadLegacyV1(name: string): Promise<FixtureModule<V1McpServer | V1Server>> {
  return (await import(pathToFileURL(v1FixturePath(name)).href)) as FixtureModule<V1McpServer | V1Server>;
}

/**
 * A v1 `Client` declaring what the script declares (elicitation, sampling, roots by default) and answering
 * from it, counting the asks: test/e2e/harness.ts `makeClient`, on the v1 SDK. The v1 and v2 request and
 * result shapes are the same wire JSON; only the TypeScript types are two packages' (hence the casts).
 */
function makeV1Client(script: AnswerScript): { client: V1Client; asks: AskCounts } {
  const declared = script.capabilities ?? CLIENT_CAPABILITIES;
  const client = new V1Client({ name: 'mrtr-port-e2e-v1', version: '0.0.1' }, { capabilities: declared });
  const asks: AskCounts = { elicit: 0, sample: 0, roots: 0 };
  // the v1 client, too, refuses handlers for capabilities it does not declare
  if (declared.elicitation !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asks.elicit += 1;
      if (script.elicit === undefined) throw new Error('this scenario does not answer elicitations');
      return script.elicit(request.params as ElicitRequestParams, asks.elicit);
    });
  }
  if (declared.sampling !== undefined) {
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      asks.sample += 1;
      if (script.sample === undefined) throw new Error('this scenario does not answer sampling');
      return script.sample(request.params as CreateMessageRequestParams);
    });
  }
  if (declared.roots !== undefined) {
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      asks.roots += 1;
      return { roots: script.roots ?? [] };
    });
  }
  return { client, asks };
}

/** The v1 original, in-process, 2025 era, driven by the v1 SDK's own client. */
export async function runLegacyV1(fixture: FixtureModule<V1McpServer | V1Server>, script: AnswerScript, call: Call): Promise<Run<Outcome>> {
  const log = new MemoryEffectLog();
  const server = fixture.buildServer(log);
  const [clientTransport, serverTransport] = V1InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const { client, asks } = makeV1Client(script);
  await client.connect(clientTransport);
  try {
    // perform() reads only callTool / getPrompt / readResource, which the v1 Client has with the same
    // arguments and results (the same wire JSON): the v2 type is a stand-in
    const result = await perform(client as unknown as Client, call);
    return { result, effects: log.effects, asks };
  } finally {
    await client.close();
    await server.close();
  }
}

export interface PortedV1Set extends PortedSet {
  /** What the runner reported. */
  readonly report: PortResult;
}

/**
 * Ports the v1 fixtures as a user's package would be ported: each input copied into a fresh folder under
 * the repository's `.tmp/` (so the v2 packages resolve from its node_modules) as `<name>.ts`, with the
 * contract the fixtures import and the modules of fixtures/e2e-v1 that are not servers (`asks.ts`), then `runPort({ cwd: that folder, paths: ['.'] })` rewrites them in place
 * and writes the helpers (flow, continuation, claim store) beside them. Once per test file.
 */
export async function portV1Set(files: readonly string[]): Promise<PortedV1Set> {
  mkdirSync(join(REPO_ROOT, '.tmp'), { recursive: true });
  const dir = mkdtempSync(join(REPO_ROOT, '.tmp', 'e2e-v1-'));
  copyFileSync(join(HERE, 'contract.ts'), join(dir, 'contract.ts'));
  const ported = new Map<string, string>();
  for (const name of new Set(files)) {
    const file = join(dir, `${name}.ts`);
    copyFileSync(v1FixturePath(name), file);
    ported.set(name, file);
  }
  // the modules the servers import (not servers themselves), under their own names
  for (const support of readdirSync(V1_FIXTURE_DIR).filter((f) => f.endsWith('.ts') && !f.endsWith('.input.ts'))) {
    copyFileSync(join(V1_FIXTURE_DIR, support), join(dir, support));
  }
  const report = await runPort({ cwd: dir, paths: ['.'] });
  return { ...portedSetIn(dir, ported, 'transform', 'aead'), report };
}

/** The ported text of one fixture of the set. */
export function portedText(set: PortedSet, name: string): string {
  return readFileSync(set.ported.get(name) ?? '', 'utf8');
}
