// The continuation in a real @modelcontextprotocol/server 2.4 server driven by a real client: the two-pass
// shape the port writes, over the 2026-07-28 path (createMcpHandler) and the 2025 legacy shim (in memory).
import { describe, it, expect } from 'vitest';
import { Client, InMemoryTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, inputRequired, McpServer } from '@modelcontextprotocol/server';
import type { CallToolResult, ElicitRequestFormParams, InputRequiredResult } from '@modelcontextprotocol/server';
import * as z from 'zod';
import * as aeadRuntime from '../../src/runtime/mrtr-continuation.js';
import * as sdkRuntime from '../../src/runtime/mrtr-continuation-sdk.js';
import { KEY_A } from './helpers.js';

type Continuation = aeadRuntime.Continuation;

describe.each([
  ['AES-256-GCM', aeadRuntime],
  ['SDK codec', sdkRuntime],
] as const)('%s variant', (_variant, runtime) => {
  const { bindRequest, createContinuation, elicitationAnswer, requestStateVerifier } = runtime;

  type FormSchema = ElicitRequestFormParams['requestedSchema'];
  const CONFIRM_SCHEMA: FormSchema = { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] };
  const REASON_SCHEMA: FormSchema = { type: 'object', properties: { reason: { type: 'string', minLength: 3 } }, required: ['reason'] };

  /** A refund tool ported to MRTR: confirm, then a reason (data-dependent second question), then the side effect. */
  function buildServer(c: Continuation, refunds: string[], seam: boolean): McpServer {
    const server = new McpServer({ name: 'shop', version: '1.0.0' }, seam ? { requestState: { verify: requestStateVerifier(c) } } : {});
    server.registerTool(
      'refund',
      { inputSchema: z.object({ orderId: z.string() }) },
      async ({ orderId }, ctx): Promise<CallToolResult | InputRequiredResult> => {
        const bind = bindRequest(ctx, 'refund', { orderId });
        const state = await c.open<{ step: 'confirm' } | { step: 'reason'; confirmed: boolean }>(ctx, bind);
        const askConfirm = async () =>
          inputRequired({
            inputRequests: { confirm: inputRequired.elicit({ message: `Refund ${orderId}?`, requestedSchema: CONFIRM_SCHEMA }) },
            requestState: await c.seal(ctx, { step: 'confirm', bind }),
          });
        if (state === undefined) return askConfirm();
        if (state.step === 'confirm') {
          const answer = elicitationAnswer(ctx.mcpReq.inputResponses, 'confirm', CONFIRM_SCHEMA);
          if (answer === undefined) return askConfirm();
          if (answer.action !== 'accept' || answer.content.confirm !== true) return { content: [{ type: 'text', text: `not refunded (${answer.action})` }] };
          return inputRequired({
            inputRequests: { reason: inputRequired.elicit({ message: 'Why?', requestedSchema: REASON_SCHEMA }) },
            requestState: await c.seal(ctx, { step: 'reason', bind, confirmed: true }),
          });
        }
        const reason = elicitationAnswer(ctx.mcpReq.inputResponses, 'reason', REASON_SCHEMA);
        if (reason === undefined || !state.confirmed) return askConfirm();
        if (reason.action !== 'accept') return { content: [{ type: 'text', text: `not refunded (${reason.action})` }] };
        refunds.push(`${orderId}:${String(reason.content.reason)}`); // the side effect, on the last round only
        return { content: [{ type: 'text', text: `refunded ${orderId}` }] };
      },
    );
    return server;
  }

  function client(answers: { confirm: unknown; reason: unknown }, modern: boolean): Client {
    const c = new Client(
      { name: 'probe', version: '0.0.1' },
      { capabilities: { elicitation: { form: {} } }, ...(modern ? { versionNegotiation: { mode: 'auto' as const } } : {}) },
    );
    c.setRequestHandler('elicitation/create', async (request) =>
      (request.params.message === 'Why?' ? answers.reason : answers.confirm) as never,
    );
    return c;
  }

  type Tamper = (state: string) => string;

  async function modernCall(
    answers: { confirm: unknown; reason: unknown },
    options: { seam?: boolean; tamper?: Tamper; continuation?: Continuation } = {},
  ): Promise<{ result: CallToolResult; refunds: string[]; states: string[] }> {
    const refunds: string[] = [];
    const states: string[] = [];
    const c = options.continuation ?? createContinuation({ keys: [KEY_A], audience: 'shop' });
    const handler = createMcpHandler(() => buildServer(c, refunds, options.seam ?? false));
    const fetchThrough = async (url: string | URL, init?: RequestInit): Promise<Response> => {
      if (typeof init?.body === 'string' && init.body.includes('"requestState"')) {
        const message = JSON.parse(init.body) as { params: { requestState: string } };
        states.push(message.params.requestState);
        if (options.tamper) message.params.requestState = options.tamper(message.params.requestState);
        init = { ...init, body: JSON.stringify(message) };
      }
      return handler.fetch(new Request(url, init));
    };
    const probe = client(answers, true);
    await probe.connect(new StreamableHTTPClientTransport(new URL('http://test.local/mcp'), { fetch: fetchThrough }));
    try {
      const result = (await probe.callTool({ name: 'refund', arguments: { orderId: 'o-1' } })) as CallToolResult;
      return { result, refunds, states };
    } finally {
      await probe.close();
    }
  }

  const text = (r: CallToolResult): string => (r.content[0] as { text: string }).text;
  const ACCEPT = { confirm: { action: 'accept', content: { confirm: true } }, reason: { action: 'accept', content: { reason: 'damaged' } } };

  describe('a ported handler on @modelcontextprotocol/server 2.4', () => {
    it('2026-07-28: two questions over three rounds, the side effect once, on the last', async () => {
      const { result, refunds, states } = await modernCall(ACCEPT);
      expect(text(result)).toBe('refunded o-1');
      expect(refunds).toEqual(['o-1:damaged']);
      expect(states).toHaveLength(2);
      expect(states.every((s) => s.startsWith('v1.'))).toBe(true);
    });

    it('2026-07-28: decline keeps its own outcome', async () => {
      const { result, refunds } = await modernCall({ ...ACCEPT, confirm: { action: 'decline' } });
      expect(text(result)).toBe('not refunded (decline)');
      expect(refunds).toEqual([]);
    });

    it('2026-07-28 with the SDK verify seam: same flow', async () => {
      const { result, refunds } = await modernCall(ACCEPT, { seam: true });
      expect(text(result)).toBe('refunded o-1');
      expect(refunds).toEqual(['o-1:damaged']);
    });

    it('with the verify seam, a tampered state is refused by the SDK with -32602 before the handler runs', async () => {
      const flip: Tamper = (s) => s.slice(0, -2) + (s.at(-2) === 'A' ? 'B' : 'A') + s.at(-1);
      await expect(modernCall(ACCEPT, { seam: true, tamper: flip })).rejects.toMatchObject({ code: -32602 });
    });

    it('without the seam, a tampered state reads as no state: the question is asked again, nothing happens', async () => {
      const flip: Tamper = (s) => s.slice(0, -2) + (s.at(-2) === 'A' ? 'B' : 'A') + s.at(-1);
      // Every retry is tampered, so the client keeps being asked until its round limit.
      const outcome = await modernCall(ACCEPT, { tamper: flip }).catch((error: unknown) => error);
      expect(outcome).toMatchObject({ code: 'INPUT_REQUIRED_ROUNDS_EXCEEDED' });
    });

    it('2025-11-25 through the legacy shim, in memory: same outcome', async () => {
      const refunds: string[] = [];
      const c = createContinuation({ keys: [KEY_A] });
      const server = buildServer(c, refunds, true);
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      const probe = client(ACCEPT, false);
      await probe.connect(clientSide);
      try {
        const result = (await probe.callTool({ name: 'refund', arguments: { orderId: 'o-2' } })) as CallToolResult;
        expect(text(result)).toBe('refunded o-2');
        expect(refunds).toEqual(['o-2:damaged']);
      } finally {
        await probe.close();
      }
    });
  });
});
