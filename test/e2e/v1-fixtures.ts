/**
 * What each SDK v1 e2e fixture server (`fixtures/e2e-v1/<name>.input.ts`) is called with, which scenarios
 * apply to it, and what the codemod is expected to leave in its port. Answers come from the v2 harness's
 * scripts (test/e2e/fixtures.ts `scriptFor`): the same user for the v1 and the v2 fixtures.
 */
import type { E2eFixture } from './fixtures.js';

export interface V1Fixture extends E2eFixture {
  /** The file stem under fixtures/e2e-v1 (and the replica mount) when it is not `name`: several entries call one server. */
  readonly file?: string;
}

/**
 * The `@mcp-codemod-error` comments the port must leave in a fixture file, each by a text it contains (in
 * order): the migration's notes for a human that the port cannot settle. Every other file must have none.
 */
export const V1_CODEMOD_MARKS: Readonly<Record<string, readonly string[]>> = {
  'session-tag': ['The context object is forwarded to sessionTag(…)', 'Destructuring of context parameter in signature: "{ sendRequest, sessionId }"'],
};

export const V1_FIXTURES: readonly V1Fixture[] = [
  {
    name: 'delete-note',
    call: { kind: 'tool', name: 'delete_note', arguments: { id: 'N-1' } },
    scenarios: {
      accept: 'Deleted "Quarterly goals"',
      decline: 'Kept "Quarterly goals" (decline)',
      cancel: 'Kept "Quarterly goals" (cancel)',
      'invalid-then-valid': 'Deleted "Quarterly goals"',
    },
    valid: { confirm: true },
    invalid: { confirm: 'yes' },
  },
  {
    name: 'delete-note: hold_note (annotations, a random id and an effect before the ask)',
    file: 'delete-note',
    call: { kind: 'tool', name: 'hold_note', arguments: { id: 'N-2' } },
    scenarios: {
      accept: 'Note N-2 held as <uuid-1>',
      decline: 'Hold <uuid-1> released (decline)',
      cancel: 'Hold <uuid-1> released (cancel)',
      'invalid-then-valid': 'Note N-2 held as <uuid-1>',
    },
    valid: { confirm: true },
    invalid: { confirm: 'yes' },
    normalize: 'uuids',
  },
  {
    name: 'reports: draft_digest (createMessage)',
    file: 'reports',
    call: { kind: 'tool', name: 'draft_digest', arguments: { channel: '#eng', notes: 'Q3: revenue up 12%, driven by subscriptions.' } },
    scenarios: { sampled: 'Draft for #eng (e2e-model-1): Revenue grew 12% on new subscriptions.' },
  },
  {
    name: 'reports: export_report (capability branch)',
    file: 'reports',
    call: { kind: 'tool', name: 'export_report', arguments: { report: 'q3-revenue' } },
    scenarios: {
      accept: 'Exported q3-revenue as pdf',
      decline: 'Exported q3-revenue as csv',
      cancel: 'Export of q3-revenue cancelled',
      'invalid-then-valid': 'Exported q3-revenue as pdf',
      'no-elicitation': 'Exported q3-revenue as csv',
    },
    valid: { format: 'pdf' },
    invalid: { format: 'docx' },
  },
  {
    name: 'reports: scan_roots (listRoots)',
    file: 'reports',
    call: { kind: 'tool', name: 'scan_roots', arguments: {} },
    scenarios: { roots: 'Scanned file:///srv/data, file:///srv/logs' },
  },
  {
    name: 'lowlevel-keys: rotate_key (extra.sendRequest in a tools/call switch)',
    file: 'lowlevel-keys',
    call: { kind: 'tool', name: 'rotate_key', arguments: { keyId: 'signing-2025' } },
    scenarios: {
      accept: 'Rotated signing-2025 (compromised)',
      decline: 'Key signing-2025 kept (decline)',
      cancel: 'Key signing-2025 kept (cancel)',
      'invalid-then-valid': 'Rotated signing-2025 (compromised)',
    },
    valid: { confirm: true, reason: 'compromised' },
    invalid: { confirm: true, reason: 'bored' },
  },
  {
    name: 'lowlevel-keys: describe_key (server.createMessage)',
    file: 'lowlevel-keys',
    call: { kind: 'tool', name: 'describe_key', arguments: { keyId: 'signing-2026' } },
    scenarios: { sampled: 'signing-2026: Revenue grew 12% on new subscriptions.' },
  },
  {
    name: 'lowlevel-keys: prompts/get (server.elicitInput)',
    file: 'lowlevel-keys',
    call: { kind: 'prompt', name: 'key_handover', arguments: {} },
    scenarios: {
      accept: 'Write a key handover note for Grace.',
      decline: 'Write a key handover note for the on-call lead.',
      cancel: 'Write a key handover note for the on-call lead.',
      'invalid-then-valid': 'Write a key handover note for Grace.',
    },
    valid: { name: 'Grace' },
    invalid: { name: 'G' },
  },
  {
    name: 'prompts-resources: retro (server.prompt with arguments)',
    file: 'prompts-resources',
    call: { kind: 'prompt', name: 'retro', arguments: { team: 'payments' } },
    scenarios: {
      accept: 'Write a retrospective for payments. Highlight: shipped search.',
      decline: 'Highlight: nothing noted (decline).',
      cancel: 'Highlight: nothing noted (cancel).',
      'invalid-then-valid': 'Write a retrospective for payments. Highlight: shipped search.',
    },
    valid: { highlight: 'shipped search' },
    invalid: { highlight: 'ok' },
  },
  {
    name: 'prompts-resources: standup (no arguments, extra.sendRequest)',
    file: 'prompts-resources',
    call: { kind: 'prompt', name: 'standup', arguments: {} },
    scenarios: {
      accept: 'Write a stand-up update: yesterday fixed the build.',
      decline: 'Write a stand-up update: yesterday nothing to report.',
      cancel: 'Write a stand-up update: yesterday nothing to report.',
      'invalid-then-valid': 'Write a stand-up update: yesterday fixed the build.',
    },
    valid: { done: 'fixed the build' },
    invalid: { done: 'no' },
  },
  {
    name: 'prompts-resources: incident://{id} (server.resource, server.server.request)',
    file: 'prompts-resources',
    call: { kind: 'resource', uri: 'incident://INC-42' },
    scenarios: {
      accept: 'Incident INC-42: opened for postmortem',
      decline: 'Incident INC-42 stays closed (decline)',
      cancel: 'Incident INC-42 stays closed (cancel)',
      'invalid-then-valid': 'Incident INC-42: opened for postmortem',
    },
    valid: { reason: 'postmortem' },
    invalid: { reason: 'curiosity' },
  },
  {
    name: 'confirm-helper: purge_cache (context forwarded to a helper that asks)',
    file: 'confirm-helper',
    call: { kind: 'tool', name: 'purge_cache', arguments: { target: 'sessions' } },
    scenarios: {
      accept: 'Purged cache sessions',
      decline: 'Cache sessions kept',
      cancel: 'Cache sessions kept',
      'invalid-then-valid': 'Purged cache sessions',
    },
    valid: { confirm: true },
    invalid: { confirm: 'yes' },
  },
  {
    name: 'confirm-helper: rename_branch (context destructured in the signature)',
    file: 'confirm-helper',
    call: { kind: 'tool', name: 'rename_branch', arguments: { from: 'main', to: 'trunk' } },
    scenarios: {
      accept: 'Renamed main to trunk',
      decline: 'main not renamed (decline)',
      cancel: 'main not renamed (cancel)',
      'invalid-then-valid': 'Renamed main to trunk',
    },
    valid: { confirm: true },
    invalid: { confirm: 'yes' },
  },
  {
    name: 'confirm-helper: tag_release (context destructured in the body)',
    file: 'confirm-helper',
    call: { kind: 'tool', name: 'tag_release', arguments: { version: 'v3.1.0' } },
    scenarios: {
      accept: 'Tagged v3.1.0',
      decline: 'v3.1.0 not tagged (decline)',
      cancel: 'v3.1.0 not tagged (cancel)',
      'invalid-then-valid': 'Tagged v3.1.0',
    },
    valid: { confirm: true },
    invalid: { confirm: 'yes' },
  },
  {
    name: 'confirm-helper: archive_repo (a handler declared apart)',
    file: 'confirm-helper',
    call: { kind: 'tool', name: 'archive_repo', arguments: { repo: 'legacy-api' } },
    scenarios: {
      accept: 'Archived legacy-api',
      decline: 'legacy-api stays active (decline)',
      cancel: 'legacy-api stays active (cancel)',
      'invalid-then-valid': 'Archived legacy-api',
    },
    valid: { confirm: true },
    invalid: { confirm: 'yes' },
  },
  {
    name: 'confirm-helper: deploy (a helper taking the server, asked twice)',
    file: 'confirm-helper',
    call: { kind: 'tool', name: 'deploy', arguments: { service: 'api' } },
    scenarios: {
      accept: 'Deploying api to staging (rolling)',
      decline: 'api not deployed',
      cancel: 'api not deployed',
      'invalid-then-valid': 'Deploying api to staging (rolling)',
    },
    valid: { environment: 'staging', strategy: 'rolling' },
    invalid: { environment: 'moon', strategy: 'yolo' },
  },
  {
    name: 'confirm-helper: set_profile (two asks in Promise.all)',
    file: 'confirm-helper',
    call: { kind: 'tool', name: 'set_profile', arguments: { user: 'ada' } },
    scenarios: {
      accept: 'Profile of ada: Lisbon / Platform',
      decline: 'Profile of ada: unknown / none',
      cancel: 'Profile of ada: unknown / none',
      'invalid-then-valid': 'Profile of ada: Lisbon / Platform',
    },
    valid: { city: 'Lisbon', team: 'Platform' },
    invalid: { city: 'L', team: 'P' },
    acceptRounds: 2,
  },
  {
    name: 'confirm-helper: restart_service (context forwarded to a helper imported from another module)',
    file: 'confirm-helper',
    call: { kind: 'tool', name: 'restart_service', arguments: { service: 'billing' } },
    scenarios: {
      accept: 'Restarted billing (after the deploy)',
      decline: 'billing left running',
      cancel: 'billing left running',
      'invalid-then-valid': 'Restarted billing (after the deploy)',
    },
    valid: { confirm: true, note: 'after the deploy' },
    invalid: { confirm: true, note: 'x'.repeat(41) },
  },
  {
    name: 'session-tag',
    call: { kind: 'tool', name: 'invite_member', arguments: { workspace: 'atlas' } },
    scenarios: {
      accept: 'Invited ada@example.com to atlas as admin (sessionless)',
      decline: 'Nobody invited to atlas (decline)',
      cancel: 'Nobody invited to atlas (cancel)',
      'invalid-then-valid': 'Invited ada@example.com to atlas as admin (sessionless)',
    },
    valid: { email: 'ada@example.com', role: 'admin' },
    invalid: { email: 'ada@example.com', role: 'owner' },
  },
  {
    name: 'session-tag: cancel_invite (a destructured name the port leaves)',
    file: 'session-tag',
    call: { kind: 'tool', name: 'cancel_invite', arguments: { email: 'bob@example.com' } },
    scenarios: {
      accept: 'Cancelled the invitation of bob@example.com',
      decline: 'Invitation of bob@example.com kept (decline)',
      cancel: 'Invitation of bob@example.com kept (cancel)',
      'invalid-then-valid': 'Cancelled the invitation of bob@example.com',
    },
    valid: { confirm: true },
    invalid: { confirm: 'yes' },
  },
  {
    name: 'releases: publish_release (sampling, then an approval, by extra.sendRequest)',
    file: 'releases',
    call: { kind: 'tool', name: 'publish_release', arguments: { version: '2.4.0', changes: 'MRTR support; faster startup' } },
    scenarios: {
      accept: 'Published 2.4.0: Revenue grew 12% on new subscriptions.',
      decline: 'Release 2.4.0 not published (decline)',
      cancel: 'Release 2.4.0 not published (cancel)',
      'invalid-then-valid': 'Published 2.4.0: Revenue grew 12% on new subscriptions.',
    },
    valid: { approve: true },
    invalid: { approve: 'yes' },
  },
  {
    name: 'releases: cut_release (a class method asking through this.server.server)',
    file: 'releases',
    call: { kind: 'tool', name: 'cut_release', arguments: { version: '2.5.0' } },
    scenarios: {
      accept: 'Cut 2.5.0: Revenue grew 12% on new subscriptions.',
      decline: '2.5.0 not cut (decline)',
      cancel: '2.5.0 not cut (cancel)',
      'invalid-then-valid': 'Cut 2.5.0: Revenue grew 12% on new subscriptions.',
    },
    valid: { approve: true },
    invalid: { approve: 'yes' },
  },
  {
    name: 'releases: prune_branches (an ask in a loop)',
    file: 'releases',
    call: { kind: 'tool', name: 'prune_branches', arguments: { branches: ['old-1', 'old-2', 'old-3'] } },
    scenarios: {
      accept: 'Deleted old-1, old-2, old-3',
      decline: 'Deleted nothing',
      cancel: 'Deleted nothing',
      'invalid-then-valid': 'Deleted old-1, old-2, old-3',
    },
    valid: { approve: true },
    invalid: { approve: 'yes' },
    acceptRounds: 4,
  },
  {
    name: 'releases: yank_release (context forwarded to a module function that asks)',
    file: 'releases',
    call: { kind: 'tool', name: 'yank_release', arguments: { version: '2.3.9' } },
    scenarios: {
      accept: 'Yanked 2.3.9',
      decline: '2.3.9 stays published (decline)',
      cancel: '2.3.9 stays published (cancel)',
      'invalid-then-valid': 'Yanked 2.3.9',
    },
    valid: { approve: true },
    invalid: { approve: 'yes' },
  },
  // Blind cases: written as an outside tester would, before reading the other fixtures' inputs.
  {
    name: 'blind-helpdesk: resolve_ticket (low-level Server, a helper imported from another module asks)',
    file: 'blind-helpdesk',
    call: { kind: 'tool', name: 'resolve_ticket', arguments: { id: 'T-9' } },
    scenarios: {
      accept: 'T-9 closed as fixed after 45 min',
      decline: 'T-9 left open',
      cancel: 'T-9 left open',
      'invalid-then-valid': 'T-9 closed as fixed after 45 min',
    },
    valid: { resolution: 'fixed', minutes: 45 },
    invalid: { resolution: 'solved', minutes: 900 },
  },
  {
    name: 'blind-helpdesk: escalate_ticket (server.createMessage, then server.elicitInput)',
    file: 'blind-helpdesk',
    call: { kind: 'tool', name: 'escalate_ticket', arguments: { id: 'T-12' } },
    scenarios: {
      accept: 'T-12 escalated: Revenue grew 12% on new subscriptions.',
      decline: 'T-12 not escalated (decline)',
      cancel: 'T-12 not escalated (cancel)',
      'invalid-then-valid': 'T-12 escalated: Revenue grew 12% on new subscriptions.',
    },
    valid: { confirm: true },
    invalid: { confirm: 'yes' },
    acceptRounds: 3,
  },
  {
    name: 'blind-storefront: place_order (a store written before and after the ask)',
    file: 'blind-storefront',
    call: { kind: 'tool', name: 'place_order', arguments: { sku: 'mug' } },
    scenarios: {
      accept: 'Order #1000: 2 x mug, express',
      decline: 'Order #1000 cancelled (decline)',
      cancel: 'Order #1000 cancelled (cancel)',
      'invalid-then-valid': 'Order #1000: 2 x mug, express',
    },
    valid: { quantity: 2, shipping: 'express' },
    invalid: { quantity: 0, shipping: 'drone' },
  },
  {
    name: 'blind-storefront: link_payment (URL mode)',
    file: 'blind-storefront',
    call: { kind: 'tool', name: 'link_payment', arguments: { provider: 'stripe' } },
    scenarios: {
      accept: 'Linked stripe (<uuid-1>)',
      decline: 'stripe not linked (decline)',
      cancel: 'stripe not linked (cancel)',
    },
    normalize: 'uuids',
  },
  {
    name: 'blind-storefront: gift_note (extra.sendRequest in try/catch, a fallback)',
    file: 'blind-storefront',
    call: { kind: 'tool', name: 'gift_note', arguments: { order: 1000 } },
    scenarios: {
      accept: 'Order #1000 note: Happy birthday!',
      decline: 'Order #1000: no note',
      cancel: 'Order #1000: no note',
      'invalid-then-valid': 'Order #1000 note: Happy birthday!',
      'no-elicitation': 'Order #1000: no note',
    },
    valid: { note: 'Happy birthday!' },
    invalid: { note: 'x'.repeat(61) },
  },
];

/** The fixture file (and mount) an entry calls. */
export function fileOf(fixture: V1Fixture): string {
  return fixture.file ?? fixture.name;
}

/** Every fixture file the entries call, once each, in order. */
export const V1_FILES: readonly string[] = [...new Set(V1_FIXTURES.map(fileOf))];

/** The modules of fixtures/e2e-v1 the servers import that are not servers (ask helpers), each ported with them. */
export const V1_SUPPORT_MODULES: readonly string[] = ['asks', 'helpdesk-asks'];
