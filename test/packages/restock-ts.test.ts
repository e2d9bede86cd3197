// fixtures/packages/restock-ts, a legacy TypeScript package built with the strict flags real repositories
// use: a tool that asks once per order line in a `for … of` with a running total and `break` on a decline
// or an exceeded budget, and a tool that asks two independent questions in one `Promise.all`, through the
// real CLI, built with its own tsconfig, to two replica processes.
import type { ElicitResult } from '@modelcontextprotocol/client';
import { CLIENT_ROOTS, SAMPLED_REPLY } from '../e2e/fixtures.js';
import { describePortedPackage } from './legacy-vs-ported.js';

/** The answers of one run, by ask number (the last one repeats). */
function answers(...results: ElicitResult[]) {
  return () => ({ sample: () => SAMPLED_REPLY, roots: CLIENT_ROOTS, elicit: (_params: unknown, askNumber: number): ElicitResult => results[Math.min(askNumber, results.length) - 1]! });
}

const ORDER = {
  lines: [
    { sku: 'A-100', qty: 10, unitPrice: 2.5 },
    { sku: 'B-200', qty: 4, unitPrice: 10 },
    { sku: 'C-300', qty: 3, unitPrice: 20 },
  ],
  budget: 60,
};

describePortedPackage({
  name: 'restock-ts',
  modules: 'esm',
  serverModule: 'src/server.ts',
  factory: 'createServer',
  stdioEntry: 'src/index.ts',
  built: { serverModule: 'dist/server.js', stdioEntry: 'dist/index.js' },
  ledgerVariable: 'RESTOCK_JOURNAL',
  helperDir: 'src',
  portedFiles: ['src/server.ts'],
  reviewMarkers: [],
  asksPerRound: { audit: 2 },
  calls: [
    {
      name: 'restock',
      call: { kind: 'tool', name: 'restock_items', arguments: ORDER },
      scenarios: {
        // 2 of each: 5 + 20 EUR ordered, the third line (40 EUR) would pass the budget: the loop breaks there
        accept: 'Ordered 2 x A-100, 2 x B-200 for 25 EUR (stopped: budget reached at C-300)',
        decline: 'Ordered nothing for 0 EUR (stopped: decline at A-100)',
        cancel: 'Ordered nothing for 0 EUR (stopped: cancel at A-100)',
        'invalid-then-valid': 'Ordered 2 x A-100, 2 x B-200 for 25 EUR (stopped: budget reached at C-300)',
        // no fallback in the legacy code: its elicitInput fails the call before any line, and so must the port's
        'no-elicitation': 'Client does not support form elicitation',
      },
      valid: { qty: 2 },
      invalid: { qty: 11 },
    },
    {
      name: 'audit',
      call: { kind: 'tool', name: 'schedule_audit', arguments: { warehouse: 'north' } },
      scenarios: {
        accept: 'Audit of north on 2026-12-24 by ravi',
        decline: 'No audit of north scheduled (decline/decline)',
        cancel: 'No audit of north scheduled (cancel/cancel)',
        'invalid-then-valid': 'Audit of north on 2026-12-24 by ravi',
        'no-elicitation': 'Client does not support form elicitation',
      },
      valid: { date: '2026-12-24', auditor: 'ravi' },
      invalid: { date: 'next week', auditor: 'bob' },
    },
  ],
  custom: [
    {
      call: 'restock',
      name: 'one line ordered, one skipped, then declined (the loop breaks after two journaled lines)',
      script: answers({ action: 'accept', content: { qty: 1 } }, { action: 'accept', content: { qty: 0 } }, { action: 'decline' }),
      text: 'Ordered 1 x A-100 for 2.5 EUR (stopped: decline at C-300)',
    },
    {
      call: 'restock',
      name: 'every line within budget (the loop runs to its end)',
      script: answers({ action: 'accept', content: { qty: 4 } }, { action: 'accept', content: { qty: 1 } }, { action: 'accept', content: { qty: 1 } }),
      text: 'Ordered 4 x A-100, 1 x B-200, 1 x C-300 for 40 EUR',
    },
    {
      call: 'audit',
      name: 'the day accepted, the auditor declined (both asked at once: one answer each)',
      script: answers({ action: 'accept', content: { date: '2026-12-24' } }, { action: 'decline' }),
      text: 'No audit of north scheduled (accept/decline)',
    },
  ],
});
