/**
 * In-process harness for the flow runtime: a server factory served by two `createMcpHandler`
 * "replicas" (every request builds a fresh server, so only requestState carries a call across rounds),
 * a round-robin fetch between them, and a real 2026-07-28 client answering from a script.
 */
import { Client, InMemoryTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { createContinuation } from '../../src/runtime/mrtr-continuation.js';

export const FLOW_KEYS = ['flow-test-secret-0123456789abcdef-0123456789'];
export const flowContinuation = createContinuation({ keys: FLOW_KEYS });

/** What the server did, in order, across every replica. */
export class EffectLog {
  readonly effects: string[] = [];
  record(effect: string): void {
    this.effects.push(effect);
  }
}

export type Answer = { action: 'accept'; content?: Record<string, unknown> } | { action: 'decline' } | { action: 'cancel' };

export interface ClientScript {
  /** Answers to elicitation requests, in order; the last one repeats. */
  elicit?: Answer[];
  sampled?: string;
  roots?: { uri: string; name?: string }[];
  capabilities?: ClientCapabilities;
}

export interface Exchange {
  client: Client;
  /** Elicitation messages the client was shown, in order. */
  asked: string[];
  /** requests seen by each replica (index 0 and 1). */
  hits: [number, number];
  /** JSON-RPC methods posted, in order (one `tools/call` per round). */
  methods: string[];
  close(): Promise<void>;
}

const DEFAULT_CAPABILITIES: ClientCapabilities = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };

/** A 2026-era client talking to two replicas of `build()` in turn. */
export async function connectModern(build: () => McpServer, script: ClientScript = {}): Promise<Exchange> {
  const replicas = [createMcpHandler(() => build()), createMcpHandler(() => build())];
  const hits: [number, number] = [0, 0];
  const methods: string[] = [];
  let next = 0;
  const fetchRoundRobin = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const i = next++ % 2;
    hits[i as 0 | 1]++;
    if (typeof init?.body === 'string') methods.push(String((JSON.parse(init.body) as { method?: string }).method));
    return replicas[i]!.fetch(new Request(url, init));
  };
  const { client, asked } = scriptedClient(script, true);
  await client.connect(new StreamableHTTPClientTransport(new URL('http://replicas.test/mcp'), { fetch: fetchRoundRobin }));
  return {
    client,
    asked,
    hits,
    methods,
    close: async () => {
      await client.close();
      await Promise.all(replicas.map((r) => r.close()));
    },
  };
}

/** A 2025-era client on one in-memory connection: the SDK's legacy shim serves the MRTR handler. */
export async function connectLegacy(build: () => McpServer, script: ClientScript = {}): Promise<Exchange> {
  const server = build();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const { client, asked } = scriptedClient(script, false);
  await client.connect(clientSide);
  return {
    client,
    asked,
    hits: [1, 0],
    methods: [],
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

function scriptedClient(script: ClientScript, modern: boolean): { client: Client; asked: string[] } {
  const client = new Client(
    { name: 'flow-test', version: '0.0.1' },
    {
      capabilities: script.capabilities ?? DEFAULT_CAPABILITIES,
      ...(modern ? { versionNegotiation: { mode: 'auto' as const } } : {}),
    },
  );
  const asked: string[] = [];
  const answers = script.elicit ?? [{ action: 'accept', content: {} }];
  const caps = script.capabilities ?? DEFAULT_CAPABILITIES;
  if (caps.elicitation) {
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(String(request.params.message));
      const answer = answers[Math.min(asked.length - 1, answers.length - 1)]!;
      return answer as never;
    });
  }
  if (caps.sampling) {
    client.setRequestHandler('sampling/createMessage', async () => ({
      role: 'assistant' as const,
      content: { type: 'text' as const, text: script.sampled ?? 'sampled text' },
      model: 'test-model',
    }));
  }
  if (caps.roots) client.setRequestHandler('roots/list', async () => ({ roots: script.roots ?? [{ uri: 'file:///srv/work', name: 'work' }] }));
  return { client, asked };
}

export function newServer(): McpServer {
  return new McpServer({ name: 'flow-test', version: '0.0.1' }, { capabilities: { tools: {}, prompts: {}, resources: {} } });
}

/** The text of a tool result's first content block. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((c) => c.text ?? '').join('\n');
}
