/**
 * The e2e harness: ports the fixture servers into a temp dir, runs the legacy originals in-process
 * (2025 era, InMemoryTransport), runs the ported set in replica processes (2026 era, createMcpHandler
 * over node:http), and drives both with a real @modelcontextprotocol/client.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, InMemoryTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
} from '@modelcontextprotocol/client';
import type { McpServer, Server } from '@modelcontextprotocol/server';
import { applyPortSource } from '../../transforms/index.js';
import { compileTypeScript } from '../compile-typescript.js';
import { compiledScript } from '../compiled.js';
import { MemoryEffectLog, readEffects, type FixtureModule, type SideEffect } from './contract.js';
import { sharedPort } from './shared-ports.js';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const FIXTURE_DIR = join(REPO_ROOT, 'fixtures/e2e');
/** The runtime file `port` writes next to a user's sources, per `--codec`. */
const RUNTIME_FILES = {
  aead: 'mrtr-continuation.ts',
  sdk: 'mrtr-continuation-sdk.ts',
} as const;

/** The flow runtime ported handlers import (it imports the continuation file of the codec). */
const FLOW_FILE = 'mrtr-flow.ts';

/** The claim store the flow imports (`port`'s default, `--claims memory`); it imports the continuation file too. */
const CLAIMS_FILE = 'mrtr-claims.ts';

export function flowRuntimeFor(codec: Codec, file: string = FLOW_FILE): string {
  const text = readFileSync(join(REPO_ROOT, 'src/runtime', file), 'utf8');
  return codec === 'aead' ? text : text.replaceAll("'./mrtr-continuation.js'", "'./mrtr-continuation-sdk.js'");
}

/** How ported servers seal `requestState`: our AES-GCM continuation, or the SDK's HMAC codec (`--codec sdk`). */
export type Codec = keyof typeof RUNTIME_FILES;
const HERE = dirname(fileURLToPath(import.meta.url));
const REPLICA_SCRIPT = join(HERE, 'replica.ts');
const REPLICA_START_TIMEOUT_MS = 60_000;

/** Where the ported modules came from: the real transform, or the hand-written `*.expected.ts`. */
export type PortSource = 'transform' | 'expected';

export interface PortedSet {
  readonly dir: string;
  readonly source: PortSource;
  readonly codec: Codec;
  /** Absolute path of each ported module, by fixture name. */
  readonly ported: ReadonlyMap<string, string>;
  /** Where every replica of this set appends its side effects. */
  readonly effectsFile: string;
  remove(): void;
}

/** The real transform's output, unless `E2E_PORT_SOURCE=expected` asks for the hand ports (to tell a harness fault from a transform fault). */
export function portSource(): PortSource {
  return process.env.E2E_PORT_SOURCE === 'expected' ? 'expected' : 'transform';
}

export function fixturePath(name: string, variant: 'input' | 'expected' | 'memoized'): string {
  return join(FIXTURE_DIR, `${name}.${variant}.ts`);
}

/** Ports one fixture with the real transform (the options `mrtr-port port` uses by default, but the codec). */
export function portWithTransform(name: string, codec: Codec = 'aead'): string {
  const path = fixturePath(name, 'input');
  return applyPortSource({
    source: readFileSync(path, 'utf8'),
    path,
    options: { codec, roots: 'config', continuationImport: './mrtr-continuation.js' },
  });
}

/** `portWithTransform`'s text, ported once per suite run and shared by the test files (shared-ports.ts). */
export function portedFixture(name: string, codec: Codec = 'aead'): Promise<string> {
  return sharedPort({ name, codec, input: readFileSync(fixturePath(name, 'input'), 'utf8') }, () => portWithTransform(name, codec));
}

/** A hand-written port (written for the default codec) as `port --codec <codec>` would import it. */
function expectedPort(name: string, codec: Codec): string {
  const text = readFileSync(fixturePath(name, 'expected'), 'utf8');
  return codec === 'aead' ? text : text.replaceAll("'./mrtr-continuation.js'", "'./mrtr-continuation-sdk.js'");
}

/**
 * Writes the ported modules (the real transform's, ported once per run: portedFixture), the runtime and
 * the contract into a fresh dir under the repo's `.tmp/`
 * (inside the repo so `@modelcontextprotocol/server` and zod resolve from its node_modules).
 */
export async function preparePortedSet(names: readonly string[], codec: Codec = 'aead'): Promise<PortedSet> {
  const source = portSource();
  const texts = new Map<string, string>();
  for (const name of names) texts.set(name, source === 'transform' ? await portedFixture(name, codec) : expectedPort(name, codec));
  return setOfModules(texts, source, codec);
}

/**
 * A set of given module texts (mount → text, written as `<mount>.ported.ts`) with the runtime files and
 * the contract, as preparePortedSet writes them: for a test that serves hand-written modules side by side.
 */
export function setOfModules(texts: ReadonlyMap<string, string>, source: PortSource, codec: Codec = 'aead'): PortedSet {
  mkdirSync(join(REPO_ROOT, '.tmp'), { recursive: true });
  const dir = mkdtempSync(join(REPO_ROOT, '.tmp', 'e2e-'));
  // the runtime files exactly as `port` writes them next to a user's sources (the flow seals through the codec's file)
  copyFileSync(join(REPO_ROOT, 'src/runtime', RUNTIME_FILES[codec]), join(dir, RUNTIME_FILES[codec]));
  writeFileSync(join(dir, FLOW_FILE), flowRuntimeFor(codec));
  writeFileSync(join(dir, CLAIMS_FILE), flowRuntimeFor(codec, CLAIMS_FILE));
  copyFileSync(join(HERE, 'contract.ts'), join(dir, 'contract.ts'));
  const ported = new Map<string, string>();
  for (const [name, text] of texts) {
    const file = join(dir, `${name}.ported.ts`);
    writeFileSync(file, text);
    ported.set(name, file);
  }
  return portedSetIn(dir, ported, source, codec);
}

/**
 * A folder that already holds ported modules and the runtime files they import (`ported`: fixture name →
 * module path in `dir`), made a set the replicas can serve: compiled for Node, with an empty effects file.
 */
export function portedSetIn(dir: string, ported: ReadonlyMap<string, string>, source: PortSource, codec: Codec): PortedSet {
  compileSetForNode(dir);
  const effectsFile = join(dir, 'effects.jsonl');
  writeFileSync(effectsFile, '');
  return { dir, source, codec, ported, effectsFile, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Every module of the set compiled to JavaScript under `<dir>/js/` (same names, .js), for the replicas:
 * they start in plain Node (test/compiled.ts), not under tsx. In-process tests import the .ts files.
 */
function compileSetForNode(dir: string): void {
  mkdirSync(join(dir, 'js'));
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    writeFileSync(join(dir, 'js', file.replace(/\.ts$/, '.js')), compileTypeScript(readFileSync(join(dir, file), 'utf8'), join(dir, file)));
  }
}

/** The compiled module a replica loads for a ported module of the set. */
function compiledModule(set: PortedSet, file: string): string {
  return join(set.dir, 'js', basename(file).replace(/\.ts$/, '.js'));
}

export interface Replica {
  readonly name: string;
  /** `http://127.0.0.1:<port>/<mount>` */
  url(mount: string): string;
  /** Everything the process wrote on stderr so far (warnings, crashes). */
  stderr(): string;
  stop(): Promise<void>;
}

/** Starts one replica process serving every module of `set`; resolves once it listens. */
export function startReplica(set: PortedSet, name: string, env: Record<string, string>): Promise<Replica> {
  const modules = [...set.ported].map(([mount, file]) => ({ mount, file: compiledModule(set, file) }));
  const child: ChildProcess = spawn(process.execPath, [compiledScript(REPLICA_SCRIPT)], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env, E2E_REPLICA: name, E2E_MODULES: JSON.stringify(modules), E2E_EFFECTS_FILE: set.effectsFile },
    stdio: ['pipe', 'pipe', 'pipe'], // stdin is the replica's lifeline to this process
  });
  return whenListening(child, name, REPLICA_START_TIMEOUT_MS);
}

/**
 * A spawned replica, once it prints `LISTENING <port>` (fails if it exits first or takes longer than
 * `timeoutMs`); the e2e replicas and the ported packages' launcher both speak this line.
 */
export function whenListening(child: ChildProcess, name: string, timeoutMs: number): Promise<Replica & { readonly process: ChildProcess }> {
  let stderr = '';
  let stdout = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return new Promise((ready, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`replica ${name} did not start within ${timeoutMs} ms:\n${stderr}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`replica ${name} exited with ${code} before listening:\n${stderr}`));
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /LISTENING (\d+)/.exec(stdout);
      if (match === null) return;
      clearTimeout(timer);
      const port = Number(match[1]);
      ready({
        name,
        process: child,
        url: (mount) => `http://127.0.0.1:${port}/${mount}`,
        stderr: () => stderr,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    });
  });
}

/** One HTTP request as the round-robin fetch routed it. */
export interface RoutedRequest {
  readonly replica: string;
  readonly method?: string;
  readonly hasRequestState: boolean;
  readonly inputResponseKeys: readonly string[];
}

/**
 * A `fetch` for StreamableHTTPClientTransport that sends every HTTP request to the next replica in turn
 * (keeping the path), so a retry never lands where the previous round was served. With `principal`, every
 * request carries `Authorization: Bearer <principal>` (the replicas' test-only identity).
 */
export function roundRobinFetch(
  replicas: readonly Replica[],
  principal?: string,
): { fetch: typeof fetch; routed: RoutedRequest[] } {
  let next = 0;
  const routed: RoutedRequest[] = [];
  const routedFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const original = new URL(input instanceof Request ? input.url : input);
    const replica = replicas[next % replicas.length];
    next += 1;
    const target = new URL(replica.url(original.pathname.slice(1)));
    routed.push({ replica: replica.name, ...describeBody(init?.body) });
    const request = new Request(target, input instanceof Request ? new Request(input, init) : init);
    if (principal !== undefined) request.headers.set('authorization', `Bearer ${principal}`);
    return fetch(request);
  };
  return { fetch: routedFetch as typeof fetch, routed };
}

function describeBody(body: unknown): Omit<RoutedRequest, 'replica'> {
  if (typeof body !== 'string') return { hasRequestState: false, inputResponseKeys: [] };
  try {
    const message = JSON.parse(body) as { method?: string; params?: { requestState?: unknown; inputResponses?: object } };
    return {
      method: message.method,
      hasRequestState: typeof message.params?.requestState === 'string',
      inputResponseKeys: Object.keys(message.params?.inputResponses ?? {}),
    };
  } catch {
    return { hasRequestState: false, inputResponseKeys: [] };
  }
}

/** How the scripted user answers; counts how often the server asked. */
export interface AnswerScript {
  /** What the client declares (default: elicitation, sampling and roots). */
  capabilities?: ClientCapabilities;
  elicit?(params: ElicitRequestParams, askNumber: number): ElicitResult;
  sample?(params: CreateMessageRequestParams): CreateMessageResult;
  roots?: { uri: string; name?: string }[];
}

export interface AskCounts {
  elicit: number;
  sample: number;
  roots: number;
}

export const CLIENT_CAPABILITIES: ClientCapabilities = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };

/** A real client; `era` picks the negotiation, `manual` turns off automatic input_required fulfilment. */
export function makeClient(script: AnswerScript, era: 'legacy' | 'modern', manual = false): { client: Client; asks: AskCounts } {
  const client = new Client(
    { name: 'mrtr-port-e2e', version: '0.0.1' },
    {
      capabilities: script.capabilities ?? CLIENT_CAPABILITIES,
      ...(era === 'modern' ? { versionNegotiation: { mode: 'auto' as const } } : {}),
      ...(manual ? { inputRequired: { autoFulfill: false } } : {}),
    },
  );
  const asks: AskCounts = { elicit: 0, sample: 0, roots: 0 };
  const declared = script.capabilities ?? CLIENT_CAPABILITIES;
  // the client refuses handlers for capabilities it does not declare
  if (declared.elicitation !== undefined) {
    client.setRequestHandler('elicitation/create', async (request) => {
      asks.elicit += 1;
      if (script.elicit === undefined) throw new Error('this scenario does not answer elicitations');
      return script.elicit(request.params, asks.elicit);
    });
  }
  if (declared.sampling !== undefined) {
    client.setRequestHandler('sampling/createMessage', async (request) => {
      asks.sample += 1;
      if (script.sample === undefined) throw new Error('this scenario does not answer sampling');
      return script.sample(request.params as CreateMessageRequestParams);
    });
  }
  if (declared.roots !== undefined) {
    client.setRequestHandler('roots/list', async () => {
      asks.roots += 1;
      return { roots: script.roots ?? [] };
    });
  }
  return { client, asks };
}

export interface Run<T> {
  readonly result: T;
  readonly effects: SideEffect[];
  readonly asks: AskCounts;
}

/** The legacy original, in-process, 2025 era. */
export async function runLegacy<T>(
  fixture: FixtureModule<McpServer | Server>,
  script: AnswerScript,
  act: (client: Client) => Promise<T>,
): Promise<Run<T>> {
  const log = new MemoryEffectLog();
  const server = fixture.buildServer(log);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const { client, asks } = makeClient(script, 'legacy');
  await client.connect(clientTransport);
  try {
    const result = await act(client);
    return { result, effects: log.effects, asks };
  } finally {
    await client.close();
    await server.close();
  }
}

/** The ported server, 2026 era, over HTTP with every request routed round-robin across `replicas`. */
export async function runModern<T>(
  set: PortedSet,
  replicas: readonly Replica[],
  mount: string,
  script: AnswerScript,
  act: (client: Client) => Promise<T>,
  manual = false,
): Promise<Run<T> & { routed: RoutedRequest[]; era: string | undefined }> {
  const before = readEffects(set.effectsFile).length;
  const { fetch: routedFetch, routed } = roundRobinFetch(replicas);
  const { client, asks } = makeClient(script, 'modern', manual);
  await client.connect(new StreamableHTTPClientTransport(new URL(replicas[0].url(mount)), { fetch: routedFetch }));
  try {
    const era = client.getProtocolEra();
    const result = await act(client);
    return { result, effects: readEffects(set.effectsFile).slice(before), asks, routed, era };
  } finally {
    await client.close();
  }
}

/** Effects without the replica tag, to compare with the in-process legacy run. */
export function untagged(effects: readonly SideEffect[]): { kind: string; detail: Record<string, unknown> }[] {
  return effects.map(({ kind, detail }) => ({ kind, detail }));
}
