// fixtures/packages/helpdesk-cjs, a legacy CommonJS JavaScript package (no "type"), through the real CLI
// to two replica processes run with plain node.
import { describePortedPackage } from './legacy-vs-ported.js';

describePortedPackage({
  name: 'helpdesk-cjs',
  modules: 'cjs',
  serverModule: 'lib/server.js',
  factory: 'createServer',
  stdioEntry: 'lib/index.js',
  ledgerVariable: 'HELPDESK_JOURNAL',
  helperDir: 'lib',
  helperExtension: '.js',
  portedFiles: ['lib/server.js'],
  reviewMarkers: ['lib/server.js: capability-fallback'],
  calls: [
    {
      name: 'close',
      call: { kind: 'tool', name: 'close_ticket', arguments: { ticketId: 'T-88' } },
      scenarios: {
        accept: 'T-88 closed as duplicate under lock',
        decline: 'T-88 left open (decline)',
        cancel: 'T-88 left open (cancel)',
        'invalid-then-valid': 'T-88 closed as duplicate under lock',
      },
      valid: { resolution: 'duplicate' },
      invalid: { resolution: 'maybe' },
      normalize: 'uuids',
    },
    {
      name: 'draft',
      call: { kind: 'tool', name: 'draft_reply', arguments: { ticketId: 'T-90', question: 'Why was I billed twice?' } },
      scenarios: { sampled: 'Draft for T-90: Revenue grew 12%' },
    },
    {
      name: 'escalate',
      call: { kind: 'tool', name: 'escalate_ticket', arguments: { ticketId: 'T-91' } },
      scenarios: { accept: 'T-91 escalated (urgent)', decline: 'T-91 escalated (normal)', cancel: 'Escalation of T-91 cancelled', 'no-elicitation': 'T-91 escalated (normal)' },
      valid: { priority: 'urgent' },
    },
  ],
});
