// fixtures/packages/releases-v1-ts, a legacy TypeScript package on SDK v1's low-level Server (one
// tools/call dispatcher, asks in helpers of other files that receive the Server), through the real CLI
// (which migrates it to v2 first), built with its own tsconfig, to two replica processes of its build.
import { CLIENT_ROOTS } from '../e2e/fixtures.js';
import { describePortedPackage } from './legacy-vs-ported.js';

describePortedPackage({
  name: 'releases-v1-ts',
  modules: 'esm',
  serverModule: 'src/server.ts',
  factory: 'createServer',
  stdioEntry: 'src/index.ts',
  built: { serverModule: 'dist/server.js', stdioEntry: 'dist/index.js' },
  ledgerVariable: 'RELEASES_JOURNAL',
  helperDir: 'src/tools',
  // every v1 file is migrated; the dispatcher is wrapped, the three helpers ported
  portedFiles: ['src/catalog.ts', 'src/index.ts', 'src/server.ts', 'src/tools/audit.ts', 'src/tools/notes.ts', 'src/tools/rollback.ts'],
  reviewMarkers: ['src/tools/audit.ts: roots-retired', 'src/tools/rollback.ts: capability-fallback'],
  nextSteps: ['install', 'state-keys', 'claims', 'host-2026', 'markers'],
  manifest: { added: { '@modelcontextprotocol/server': '^2.4.0' }, removed: ['@modelcontextprotocol/sdk'] },
  calls: [
    {
      name: 'rollback',
      call: { kind: 'tool', name: 'rollback_release', arguments: { service: 'billing', version: '4.2.0' } },
      scenarios: {
        accept: 'Rolled billing back from 4.2.0 (canary) under plan',
        decline: 'abandoned (decline)',
        cancel: 'abandoned (cancel)',
        'invalid-then-valid': 'Rolled billing back from 4.2.0 (canary) under plan',
        'no-elicitation': 'Rollback of billing needs an operator',
      },
      valid: { confirm: true, strategy: 'canary' },
      invalid: { confirm: true, strategy: 'yolo' },
      normalize: 'uuids',
    },
    {
      name: 'notes',
      call: { kind: 'tool', name: 'draft_release_notes', arguments: { version: '4.3.0', changes: ['faster invoices', 'fix VAT rounding'] } },
      scenarios: { sampled: 'Notes for 4.3.0 (e2e-model-1): Revenue grew 12%' },
    },
    {
      name: 'audit',
      call: { kind: 'tool', name: 'audit_workspace', arguments: { check: 'licenses' } },
      scenarios: { roots: 'Audited licenses under file:///srv/data, file:///srv/logs' },
    },
  ],  custom: [
    {
      call: 'notes',
      name: 'a client without sampling (both fail the call, after the same journal line)',
      script: () => ({ capabilities: { elicitation: { form: {} }, roots: {} }, roots: CLIENT_ROOTS }),
      // v1's createMessage sends the request anyway and the client refuses it; the port refuses it itself, as SDK v2 does
      text: 'MCP error -32601: Method not found',
      error: { ported: 'Client does not support sampling (required for sampling/createMessage)' },
    },
  ],
});
