/**
 * One MCP server URL as the probe talks to it: a real `@modelcontextprotocol/client` pinned to protocol
 * revision 2026-07-28, in manual `input_required` mode (`autoFulfill: false`, and `allowInputRequired` on
 * every request), so each round is one request the probe builds itself and sees whole.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ClientCapabilities, RequestMethod } from '@modelcontextprotocol/client';
import { ProbeUnreachableError } from './errors.js';
import type { Exchange, ProbeCall } from './model.js';
import { outcomeOfError, outcomeOfResult } from './outcome.js';

export const PROTOCOL_REVISION = '2026-07-28';

/** What the full client declares: every kind of input a server may ask for. */
export const FULL_CAPABILITIES: ClientCapabilities = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };

export interface EndpointOptions {
  headers: Record<string, string>;
  /** Per-request timeout. */
  timeoutMs: number;
}

/** What a retry carries on top of the call's own params. */
export interface Retry {
  requestState?: string;
  inputResponses?: Record<string, unknown>;
}

export class Endpoint {
  private lastStatus: number | undefined;
  private transportFailure: string | undefined;

  private constructor(
    readonly url: string,
    readonly client: 'full' | 'no-capabilities',
    private readonly sdk: Client,
    private readonly options: EndpointOptions,
  ) {}

  /** Connects (the client's `server/discover` probe); a server that does not answer, or not in 2026-07-28, is unreachable. */
  static async open(url: string, client: Exchange['client'], options: EndpointOptions): Promise<Endpoint> {
    const sdk = new Client(
      { name: 'mrtr-port-probe', version: '1' },
      {
        capabilities: client === 'full' ? FULL_CAPABILITIES : {},
        versionNegotiation: { mode: { pin: PROTOCOL_REVISION }, probe: { timeoutMs: options.timeoutMs } },
        inputRequired: { autoFulfill: false },
      },
    );
    let endpoint: Endpoint | undefined;
    const recordingFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      try {
        const response = await fetch(input, init);
        if (endpoint !== undefined) endpoint.lastStatus = response.status;
        return response;
      } catch (error) {
        if (endpoint !== undefined) endpoint.transportFailure = describeCause(error);
        throw error;
      }
    };
    endpoint = new Endpoint(url, client, sdk, options);
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      fetch: recordingFetch,
      requestInit: { headers: options.headers },
    });
    try {
      await sdk.connect(transport, { timeout: options.timeoutMs });
    } catch (error) {
      await sdk.close().catch(() => undefined);
      throw new ProbeUnreachableError(
        `${url} did not open an MCP ${PROTOCOL_REVISION} connection: ${endpoint.transportFailure ?? describeCause(error)}`,
      );
    }
    return endpoint;
  }

  /** Sends the call (or, with `retry`, one retry of it): one round, one exchange. */
  async send(call: ProbeCall, retry: Retry = {}): Promise<Exchange> {
    const { method, params } = requestOf(call);
    return this.request(method, {
      ...params,
      ...(retry.inputResponses !== undefined ? { inputResponses: retry.inputResponses } : {}),
      ...(retry.requestState !== undefined ? { requestState: retry.requestState } : {}),
    });
  }

  /** Any request, e.g. `tools/list`, in manual mode. */
  async request(method: string, params: Record<string, unknown>): Promise<Exchange> {
    this.lastStatus = undefined;
    this.transportFailure = undefined;
    let response;
    try {
      const result = await this.sdk.request(
        { method: method as RequestMethod, params },
        { allowInputRequired: true, timeout: this.options.timeoutMs },
      );
      response = outcomeOfResult(result);
    } catch (error) {
      if (this.transportFailure !== undefined) {
        throw new ProbeUnreachableError(`${this.url} stopped answering during the probe (${method}): ${this.transportFailure}`);
      }
      response = outcomeOfError(error);
    }
    return {
      to: this.url,
      client: this.client,
      request: { method, params },
      ...(this.lastStatus !== undefined ? { status: this.lastStatus } : {}),
      response,
    };
  }

  async close(): Promise<void> {
    await this.sdk.close().catch(() => undefined);
  }
}

/** The JSON-RPC method and params of a call's first round. */
export function requestOf(call: ProbeCall): { method: 'tools/call' | 'prompts/get' | 'resources/read'; params: Record<string, unknown> } {
  switch (call.kind) {
    case 'tool':
      return { method: 'tools/call', params: { name: call.name, arguments: call.arguments } };
    case 'prompt':
      return { method: 'prompts/get', params: { name: call.name, arguments: call.arguments } };
    case 'resource':
      return { method: 'resources/read', params: { uri: call.uri } };
  }
}

/** `tool delete_file {"path":"/a"}`, `prompt onboarding {…}`, `resource incident://INC-1`. */
export function describeCall(call: ProbeCall): string {
  return call.kind === 'resource' ? `resource ${call.uri}` : `${call.kind} ${call.name} ${JSON.stringify(call.arguments)}`;
}

function describeCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as Error & { cause?: unknown }).cause;
  const inner = cause instanceof Error ? ` (${(cause as Error & { code?: string }).code ?? cause.message})` : '';
  return `${error.message}${inner}`;
}
