/**
 * Raw rounds of one call (tool, prompt or resource) against one chosen replica, from a real 2026-07-28
 * client in manual `input_required` mode: the test decides where each round (and each replay of it) goes.
 */
import { StreamableHTTPClientTransport, type Client, type ClientCapabilities } from '@modelcontextprotocol/client';
import { requestOf, type Call } from '../e2e/fixtures.js';
import { makeClient, type Replica } from '../e2e/harness.js';

export type RoundOutcome =
  | { kind: 'input_required'; requestState: string; inputKeys: string[] }
  | { kind: 'complete'; text: string }
  | { kind: 'error'; text: string }
  /** A JSON-RPC error response: its code and message. */
  | { kind: 'jsonrpc-error'; code: number; text: string };

/** A manual-mode client connected to `replica` alone; it declares elicitation unless told otherwise. */
export async function manualClient(replica: Replica, capabilities: ClientCapabilities = { elicitation: { form: {} } }): Promise<Client> {
  const { client } = makeClient({ capabilities }, 'modern', true);
  await client.connect(new StreamableHTTPClientTransport(new URL(replica.url('mcp'))));
  return client;
}

type Block = { type: string; text?: string };

/** The text of a complete result: a tool's content, a prompt's messages, a resource's contents. */
function textOf(result: { content?: Block[]; messages?: { content: Block }[]; contents?: { text?: string }[] }): string {
  const blocks = result.content ?? result.messages?.map((m) => m.content) ?? result.contents?.map((c) => ({ type: 'text', text: c.text })) ?? [];
  return blocks.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');
}

/** One round of `call`; a retry carries the state and the answers. A tool's error result is `error`; a JSON-RPC error response `jsonrpc-error`. */
export async function callRound(client: Client, call: Call, retry: { requestState?: string; inputResponses?: Record<string, unknown> } = {}): Promise<RoundOutcome> {
  const { method, params } = requestOf(call);
  try {
    const result = (await client.request({ method, params: { ...params, ...retry } }, { allowInputRequired: true })) as Parameters<typeof textOf>[0] & {
      resultType?: string;
      requestState?: string;
      inputRequests?: Record<string, unknown>;
      isError?: boolean;
    };
    if (result.resultType === 'input_required') {
      if (typeof result.requestState !== 'string') throw new Error('input_required without a requestState');
      return { kind: 'input_required', requestState: result.requestState, inputKeys: Object.keys(result.inputRequests ?? {}) };
    }
    return result.isError === true ? { kind: 'error', text: textOf(result) } : { kind: 'complete', text: textOf(result) };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'number') return { kind: 'jsonrpc-error', code, text: (error as Error).message };
    return { kind: 'error', text: error instanceof Error ? error.message : String(error) };
  }
}

/** One `tools/call` round. */
export function toolRound(client: Client, name: string, args: Record<string, unknown>, retry: { requestState?: string; inputResponses?: Record<string, unknown> } = {}): Promise<RoundOutcome> {
  return callRound(client, { kind: 'tool', name, arguments: args }, retry);
}

/** The first round of `call`, which must ask: its state, and the given answer to every request. */
export async function askedCallRound(client: Client, call: Call, answer: unknown): Promise<{ requestState: string; inputResponses: Record<string, unknown> }> {
  const first = await callRound(client, call);
  if (first.kind !== 'input_required') throw new Error(`${requestOf(call).method} did not ask: ${JSON.stringify(first)}`);
  return { requestState: first.requestState, inputResponses: Object.fromEntries(first.inputKeys.map((key) => [key, answer])) };
}

/** The first round of a tool call, which must ask: its state and the answers that accept every request. */
export function askedRound(client: Client, name: string, args: Record<string, unknown>, content: Record<string, unknown>): Promise<{ requestState: string; inputResponses: Record<string, unknown> }> {
  return askedCallRound(client, { kind: 'tool', name, arguments: args }, { action: 'accept', content });
}
