/**
 * Raw rounds of one tool call against one chosen replica, from a real 2026-07-28 client in manual
 * `input_required` mode: the test decides where each round (and each replay of it) goes.
 */
import { StreamableHTTPClientTransport, type Client } from '@modelcontextprotocol/client';
import { makeClient, type Replica } from '../e2e/harness.js';

export type RoundOutcome =
  | { kind: 'input_required'; requestState: string; inputKeys: string[] }
  | { kind: 'complete'; text: string }
  | { kind: 'error'; text: string };

/** A manual-mode client connected to `replica` alone; it declares elicitation unless told otherwise. */
export async function manualClient(replica: Replica): Promise<Client> {
  const { client } = makeClient({ capabilities: { elicitation: { form: {} } } }, 'modern', true);
  await client.connect(new StreamableHTTPClientTransport(new URL(replica.url('mcp'))));
  return client;
}

function textOf(result: { content?: { type: string; text?: string }[] }): string {
  return (result.content ?? []).map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');
}

/** One `tools/call` round; a retry carries the state and the answers. */
export async function toolRound(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  retry: { requestState?: string; inputResponses?: Record<string, unknown> } = {},
): Promise<RoundOutcome> {
  try {
    const result = (await client.request({ method: 'tools/call', params: { name, arguments: args, ...retry } }, { allowInputRequired: true })) as {
      resultType?: string;
      requestState?: string;
      inputRequests?: Record<string, unknown>;
      isError?: boolean;
      content?: { type: string; text?: string }[];
    };
    if (result.resultType === 'input_required') {
      if (typeof result.requestState !== 'string') throw new Error('input_required without a requestState');
      return { kind: 'input_required', requestState: result.requestState, inputKeys: Object.keys(result.inputRequests ?? {}) };
    }
    return result.isError === true ? { kind: 'error', text: textOf(result) } : { kind: 'complete', text: textOf(result) };
  } catch (error) {
    return { kind: 'error', text: error instanceof Error ? error.message : String(error) };
  }
}

/** The first round, which must ask: its state and the answers that accept every request. */
export async function askedRound(client: Client, name: string, args: Record<string, unknown>, content: Record<string, unknown>): Promise<{ requestState: string; inputResponses: Record<string, unknown> }> {
  const first = await toolRound(client, name, args);
  if (first.kind !== 'input_required') throw new Error(`${name} did not ask: ${JSON.stringify(first)}`);
  return { requestState: first.requestState, inputResponses: Object.fromEntries(first.inputKeys.map((key) => [key, { action: 'accept', content }])) };
}
