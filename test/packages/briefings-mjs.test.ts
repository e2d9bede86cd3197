// fixtures/packages/briefings-mjs, a legacy JavaScript package of `.mjs` modules (no "type") whose
// prompt samples the client's model and whose resource template asks which view to render, next to a
// tool that asks. Through the real CLI (`--claims redis`) to two replica processes (plain node) sharing
// one real redis-server: the prompt and resource behave as the legacy ones, and a completed final round
// of either, replayed on the other replica (or the same one), is refused with a JSON-RPC error, and runs
// nothing a second time.
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';
import { SAMPLED_REPLY } from '../e2e/fixtures.js';
import { describePortedPackage } from './legacy-vs-ported.js';
import { askedCallRound, callRound, manualClient } from './manual-rounds.js';
import { readLedger } from './package-run.js';

/** The flow's refusal of a replayed final round (src/runtime/mrtr-flow.ts FlowReplayedError): a prompt or a resource has no error result, so the SDK answers it as a JSON-RPC error, -32603 (internal error) with the flow's message. */
const REPLAYED = { kind: 'jsonrpc-error', code: -32603, text: 'This request was already answered: its requestState cannot be used again. Call it again to start over.' };

describePortedPackage(
  {
    name: 'briefings-mjs',
    modules: 'esm',
    serverModule: 'server/briefings.mjs',
    factory: 'createBriefingsServer',
    stdioEntry: 'server/stdio.mjs',
    ledgerVariable: 'BRIEFINGS_AUDIT',
    helperDir: 'server',
    helperExtension: '.mjs',
    portedFiles: ['server/briefings.mjs'],
    reviewMarkers: [],
    // replicas must share claims for a replay on the other replica to be refused
    claims: 'redis',
    nextSteps: ['install', 'state-keys', 'claims', 'host-2026'],
    manifest: { added: { redis: '6.3.1' }, removed: [] },
    calls: [
      {
        name: 'brief',
        call: { kind: 'prompt', name: 'quarter_brief', arguments: { quarter: '2026-Q3' } },
        scenarios: { sampled: 'Brief the board on 2026-Q3. Known risks: Revenue grew 12% on new subscriptions.' },
      },
      {
        name: 'report',
        call: { kind: 'resource', uri: 'report://2026-Q3' },
        scenarios: {
          accept: 'Report 2026-Q3 (full, access <uuid-1>):\nrevenue 4.6M (+12%)\nchurn 2.1%',
          decline: 'Report 2026-Q3 not shown (decline)',
          cancel: 'Report 2026-Q3 not shown (cancel)',
          'invalid-then-valid': 'Report 2026-Q3 (full, access <uuid-1>)',
        },
        valid: { view: 'full' },
        invalid: { view: 'everything' },
        normalize: 'uuids',
      },
      {
        name: 'share',
        call: { kind: 'tool', name: 'share_report', arguments: { quarter: '2026-Q3', audience: 'the board' } },
        scenarios: {
          accept: 'Shared the 2026-Q3 report with the board',
          decline: 'not shared (decline)',
          cancel: 'not shared (cancel)',
          'invalid-then-valid': 'Shared the 2026-Q3 report with the board',
        },
        valid: { confirm: true, note: 'numbers before Friday' },
        invalid: { confirm: true, note: 'a note far longer than the forty characters allowed' },
      },
    ],
    // a prompt or resource has no error result: a client that cannot answer gets a JSON-RPC error, legacy and port alike
    custom: [
      {
        call: 'report',
        name: 'a client without elicitation',
        script: () => ({ capabilities: { sampling: {} }, sample: () => SAMPLED_REPLY }),
        text: 'Client does not support form elicitation',
        error: { ported: 'Client does not support form elicitation' },
      },
      {
        call: 'brief',
        name: 'a client without sampling',
        script: () => ({ capabilities: { elicitation: { form: {} } } }),
        // the legacy requestSampling sends the request anyway, and the client refuses it; the port refuses it itself, as SDK v2's capability check does
        text: 'Method not found',
        error: { ported: 'Client does not support sampling' },
      },
    ],
  },
  (running) => {
    const clients: Client[] = [];
    const connect = async (index: 0 | 1): Promise<Client> => {
      const client = await manualClient(running().replicas[index], { elicitation: { form: {} }, sampling: {} });
      clients.push(client);
      return client;
    };
    afterAll(async () => {
      await Promise.allSettled(clients.map((c) => c.close()));
    });
    const entries = (kind: string, matches: (detail: Record<string, unknown>) => boolean) =>
      readLedger(running().ledger).filter((e) => e.kind === kind && matches(e.detail));

    describe('a completed final round replayed: refused with the documented JSON-RPC error, nothing runs again', () => {
      it('prompt quarter_brief: completed on B, replayed on A and on B', async () => {
        const [onA, onB] = [await connect(0), await connect(1)];
        const call = { kind: 'prompt', name: 'quarter_brief', arguments: { quarter: 'replay-Q' } } as const;
        const final = await askedCallRound(onA, call, SAMPLED_REPLY);
        expect(await callRound(onB, call, final)).toEqual({ kind: 'complete', text: expect.stringContaining('Brief the board on replay-Q.') });
        for (const client of [onA, onB]) expect(await callRound(client, call, final)).toEqual(REPLAYED);
        expect(entries('brief.requested', (d) => d.quarter === 'replay-Q')).toHaveLength(1);
        expect(entries('brief.built', (d) => d.quarter === 'replay-Q')).toHaveLength(1);
      });

      it('resource report://{quarter}: completed on B, replayed on A and on B', async () => {
        const [onA, onB] = [await connect(0), await connect(1)];
        const call = { kind: 'resource', uri: 'report://2026-Q2' } as const;
        const final = await askedCallRound(onA, call, { action: 'accept', content: { view: 'summary' } });
        const done = await callRound(onB, call, final);
        expect(done).toEqual({ kind: 'complete', text: expect.stringMatching(/^Report 2026-Q2 \(summary, access [0-9a-f-]{36}\):\nrevenue 4\.1M/) });
        const accessId = /access ([0-9a-f-]{36})/.exec((done as { text: string }).text)![1];
        for (const client of [onA, onB]) expect(await callRound(client, call, final)).toEqual(REPLAYED);
        // the access drawn on A's asking round is the one rendered on B, each written once
        expect(entries('report.opened', (d) => d.accessId === accessId)).toHaveLength(1);
        expect(entries('report.rendered', (d) => d.accessId === accessId)).toEqual([{ kind: 'report.rendered', detail: { accessId, view: 'summary' } }]);
      });
    });
  },
);
