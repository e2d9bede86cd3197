/**
 * What each e2e fixture server is called with, which scenarios apply to it, and how the scripted user
 * answers. The servers themselves are `fixtures/e2e/<name>.input.ts`.
 */
import { pathToFileURL } from 'node:url';
import type { Client, CreateMessageResult, ElicitRequestParams, ElicitResult } from '@modelcontextprotocol/client';
import type { McpServer, Server } from '@modelcontextprotocol/server';
import type { FixtureModule } from './contract.js';
import { fixturePath, type AnswerScript } from './harness.js';

export type Call =
  | { kind: 'tool'; name: string; arguments: Record<string, unknown> }
  | { kind: 'prompt'; name: string; arguments: Record<string, string> }
  | { kind: 'resource'; uri: string };

/**
 * accept / decline / cancel: every elicitation gets that answer. invalid-then-valid: the first answer is an
 * accept whose content fails the requestedSchema, every later one is valid. sampled: the client model
 * replies. roots: the client lists its roots (the port reads them from configuration instead).
 * no-elicitation: the client does not declare elicitation, so the server must take its fallback.
 */
export type ScenarioName = 'accept' | 'decline' | 'cancel' | 'invalid-then-valid' | 'sampled' | 'roots' | 'no-elicitation';

export interface E2eFixture {
  /** File stem under fixtures/e2e, also the replica mount path. */
  readonly name: string;
  readonly call: Call;
  /** Each scenario that applies, with a text the legacy result must contain (proves the path taken). */
  readonly scenarios: Partial<Record<ScenarioName, string>>;
  /** Accepted content, by requested property name. */
  readonly valid?: Record<string, string | number | boolean>;
  /** Content that fails the requestedSchema, by requested property name. */
  readonly invalid?: Record<string, string | number | boolean>;
  /**
   * `uuids`: the server makes random UUIDs, so results and effects are compared with each UUID replaced by
   * its order of first appearance in the run (`<uuid-1>`, …): a value made again on a later round shows.
   */
  readonly normalize?: 'uuids';
  /** Calls of the ported accept scenario (asking rounds + the final one), when the fixture pins them: independent asks batched in one round. */
  readonly acceptRounds?: number;
}

export const SAMPLED_REPLY: CreateMessageResult = {
  role: 'assistant',
  content: { type: 'text', text: 'Revenue grew 12% on new subscriptions.' },
  model: 'e2e-model-1',
};

/** What the legacy client lists, and the same roots as the ported server's configuration. */
export const CLIENT_ROOTS = [{ uri: 'file:///srv/data', name: 'data' }, { uri: 'file:///srv/logs' }];
export const MCP_ALLOWED_ROOTS = 'file:///srv/data,/srv/logs';

export const FIXTURES: readonly E2eFixture[] = [
  {
    name: 'delete-file',
    call: { kind: 'tool', name: 'delete_file', arguments: { path: '/srv/data/old-report.csv' } },
    scenarios: {
      accept: 'Deleted /srv/data/old-report.csv',
      decline: 'Not deleted (decline)',
      cancel: 'Not deleted (cancel)',
      'invalid-then-valid': 'Deleted /srv/data/old-report.csv',
    },
    valid: { confirm: true },
    invalid: { confirm: 'yes' },
  },
  {
    name: 'refund',
    call: { kind: 'tool', name: 'refund', arguments: { orderId: 'A-100' } },
    scenarios: {
      accept: 'Refunded 25 EUR on A-100',
      decline: 'No refund (decline)',
      cancel: 'No refund (cancel)',
      'invalid-then-valid': 'Refunded 25 EUR on A-100',
    },
    valid: { amount: 25, confirm: true },
    invalid: { amount: 500, confirm: 'sure' },
  },
  {
    name: 'booking',
    call: { kind: 'tool', name: 'book_table', arguments: { restaurant: 'Chez Ada' } },
    scenarios: {
      accept: 'Booked Chez Ada on 2026-12-24 for 4',
      decline: 'Not booked (decline/decline)',
      cancel: 'Not booked (cancel/cancel)',
      'invalid-then-valid': 'Booked Chez Ada on 2026-12-24 for 4',
    },
    valid: { date: '2026-12-24', guests: 4 },
    invalid: { date: 20261224, guests: 40 },
  },
  {
    name: 'summarize',
    call: { kind: 'tool', name: 'summarize', arguments: { text: 'Q3: revenue up 12%, driven by subscriptions; churn flat.' } },
    scenarios: { sampled: 'Summary (e2e-model-1): Revenue grew 12% on new subscriptions.' },
  },
  {
    name: 'onboarding-prompt',
    call: { kind: 'prompt', name: 'onboarding', arguments: { team: 'payments' } },
    scenarios: {
      accept: 'Write a welcome note for Grace, who joins payments.',
      decline: 'a new teammate (decline)',
      cancel: 'a new teammate (cancel)',
      'invalid-then-valid': 'Write a welcome note for Grace, who joins payments.',
    },
    valid: { name: 'Grace' },
    invalid: { name: 'G' },
  },
  {
    name: 'incident-resource',
    call: { kind: 'resource', uri: 'incident://INC-42' },
    scenarios: {
      accept: 'Incident INC-42: primary database failover. Opened for postmortem.',
      decline: 'Incident INC-42 stays closed (decline)',
      cancel: 'Incident INC-42 stays closed (cancel)',
      'invalid-then-valid': 'Opened for postmortem.',
    },
    valid: { reason: 'postmortem' },
    invalid: { reason: 'curiosity' },
  },
  {
    name: 'runbook-resource',
    call: { kind: 'resource', uri: 'runbook://restart' },
    scenarios: {
      accept: 'Restart production: Page the on-call lead',
      decline: 'Runbook not shown (decline)',
      cancel: 'Runbook not shown (cancel)',
      'invalid-then-valid': 'Restart production: Page the on-call lead',
    },
    valid: { environment: 'production' },
    invalid: { environment: 'prod' },
  },
  {
    name: 'key-rotation-lowlevel',
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
    name: 'export-capability',
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
    name: 'capability-helper',
    call: { kind: 'tool', name: 'publish_post', arguments: { slug: 'hello-mrtr' } },
    scenarios: {
      accept: 'Published hello-mrtr (unlisted, reviewed)',
      decline: 'hello-mrtr not published (decline)',
      cancel: 'hello-mrtr not published (cancel)',
      'invalid-then-valid': 'Published hello-mrtr (unlisted, reviewed)',
      'no-elicitation': 'Published hello-mrtr (public, not reviewed)',
    },
    valid: { visibility: 'unlisted' },
    invalid: { visibility: 'secret' },
  },
  {
    name: 'shared-helper',
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
    name: 'expense-send',
    call: { kind: 'tool', name: 'approve_expense', arguments: { expenseId: 'EXP-311', amount: 84.5 } },
    scenarios: {
      accept: 'Expense EXP-311 approved: client dinner, within policy',
      decline: 'Expense EXP-311 not approved (decline)',
      cancel: 'Expense EXP-311 not approved (cancel)',
      'invalid-then-valid': 'Expense EXP-311 approved: client dinner, within policy',
    },
    valid: { approve: true, note: 'client dinner, within policy' },
    invalid: { approve: true, note: 'x'.repeat(81) },
  },
  {
    name: 'calendar-url',
    call: { kind: 'tool', name: 'connect_calendar', arguments: { account: 'ada@example.com' } },
    scenarios: {
      accept: 'Connected the calendar of ada@example.com',
      decline: 'Calendar of ada@example.com not connected (decline)',
      cancel: 'Calendar of ada@example.com not connected (cancel)',
    },
  },
  {
    name: 'digest-publish',
    call: { kind: 'tool', name: 'publish_digest', arguments: { channel: '#eng', notes: 'Q3 revenue up 12%; subscriptions drove it.' } },
    scenarios: {
      accept: 'Published to #eng: Revenue grew 12% on new subscriptions.',
      decline: 'Digest for #eng not published (decline)',
      cancel: 'Digest for #eng not published (cancel)',
      'invalid-then-valid': 'Published to #eng: Revenue grew 12% on new subscriptions.',
    },
    valid: { publish: true },
    invalid: { publish: 'yes' },
  },
  {
    name: 'workspace-roots',
    call: { kind: 'tool', name: 'search_workspace', arguments: { pattern: 'TODO' } },
    scenarios: { roots: 'Searched "TODO" under file:///srv/data, file:///srv/logs' },
  },
  {
    name: 'hold-booking',
    call: { kind: 'tool', name: 'book_room', arguments: { room: 'Orion' } },
    scenarios: {
      accept: 'Booked Orion as <uuid-1>',
      decline: 'Booking <uuid-1> not confirmed (decline)',
      cancel: 'Booking <uuid-1> not confirmed (cancel)',
      'invalid-then-valid': 'Booked Orion as <uuid-1>',
    },
    valid: { confirm: true },
    invalid: { confirm: 'yes' },
    normalize: 'uuids',
  },
  {
    name: 'team-survey',
    call: { kind: 'tool', name: 'team_survey', arguments: { team: 'core' } },
    scenarios: {
      accept: 'Saved: dev, level 3',
      decline: 'Survey skipped (decline/decline)',
      cancel: 'Survey skipped (cancel/cancel)',
      'invalid-then-valid': 'Saved: dev, level 3',
    },
    valid: { role: 'dev', level: 3 },
    invalid: { role: 'boss', level: 9 },
  },
  {
    name: 'config-handler',
    call: { kind: 'tool', name: 'archive_project', arguments: { project: 'atlas' } },
    scenarios: {
      accept: 'Archived atlas',
      decline: 'atlas kept (decline)',
      cancel: 'atlas kept (cancel)',
      'invalid-then-valid': 'Archived atlas',
    },
    valid: { confirm: true },
    invalid: { confirm: 'yes' },
  },
  {
    name: 'wrapped-tools',
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
    name: 'try-fallback',
    call: { kind: 'tool', name: 'file_ticket', arguments: { title: 'Printer on fire' } },
    scenarios: {
      accept: 'Filed "Printer on fire" [urgent, hardware]',
      decline: 'Filed "Printer on fire" [general]',
      cancel: 'Ticket "Printer on fire" not filed (cancel)',
      'invalid-then-valid': 'Filed "Printer on fire" [urgent, hardware]',
      'no-elicitation': 'Filed "Printer on fire" [general, untriaged]',
    },
    valid: { tags: 'urgent,hardware' },
    invalid: { tags: '' },
  },
  {
    name: 'ticket-desk',
    call: { kind: 'tool', name: 'open_ticket', arguments: { subject: 'Checkout down' } },
    scenarios: {
      accept: 'Opened "Checkout down" (urgent) in eu-west, telling ops',
      decline: 'No ticket for "Checkout down" (decline)',
      cancel: 'No ticket for "Checkout down" (cancel)',
      'invalid-then-valid': 'Opened "Checkout down" (urgent) in eu-west, telling ops',
    },
    valid: { notify: 'ops' },
    invalid: { notify: 42 },
  },
  {
    name: 'restart-approved',
    call: { kind: 'tool', name: 'restart_project', arguments: { project: 'shop' } },
    scenarios: {
      accept: 'Restarted a1,a2 in shop',
      decline: 'Nothing restarted (decline)',
      cancel: 'Nothing restarted (cancel)',
      'invalid-then-valid': 'Restarted a1,a2 in shop',
    },
    valid: { confirm: true },
    invalid: { confirm: 'yes' },
  },
  {
    name: 'close-ticket',
    call: { kind: 'tool', name: 'close_ticket', arguments: { id: 'T-7' } },
    scenarios: {
      accept: 'T-7 is closed (duplicate), closed queue: T-7',
      decline: '"Printer jam" left open (decline)',
      cancel: '"Printer jam" left open (cancel)',
      'invalid-then-valid': 'T-7 is closed (duplicate), closed queue: T-7',
    },
    valid: { reason: 'duplicate' },
    invalid: { reason: 42 },
  },
  {
    name: 'forecast-reply',
    call: { kind: 'tool', name: 'forecast', arguments: { city: 'Oslo' } },
    scenarios: {
      accept: 'Oslo: 2026-12-04 41°F, 2026-12-05 50°F',
      decline: 'No forecast for Oslo (decline)',
      cancel: 'No forecast for Oslo (cancel)',
      'invalid-then-valid': 'Oslo: 2026-12-04 41°F, 2026-12-05 50°F',
    },
    valid: { unit: 'F' },
    invalid: { unit: 'K' },
  },
  {
    name: 'report-snapshot',
    call: { kind: 'tool', name: 'publish_report', arguments: { name: 'q4-sales' } },
    scenarios: {
      accept: 'Published q4-sales: 4096 bytes, text/csv, made 2026-12-03T09:30:00.000Z, etag <uuid-1>',
      decline: 'q4-sales not published (decline)',
      cancel: 'q4-sales not published (cancel)',
      'invalid-then-valid': 'Published q4-sales: 4096 bytes, text/csv, made 2026-12-03T09:30:00.000Z, etag <uuid-1>',
    },
    valid: { publish: true },
    invalid: { publish: 'yes' },
    normalize: 'uuids',
  },
  {
    name: 'queue-ticket',
    call: { kind: 'tool', name: 'queue_job', arguments: { job: 'reindex' } },
    scenarios: {
      accept: 'Ran reindex with ticket <uuid-1>',
      decline: 'reindex not run (decline)',
      cancel: 'reindex not run (cancel)',
      'invalid-then-valid': 'Ran reindex with ticket <uuid-1>',
    },
    valid: { run: true },
    invalid: { run: 'yes' },
    normalize: 'uuids',
  },
  {
    name: 'badge-helper',
    call: { kind: 'tool', name: 'issue_badge', arguments: { holder: 'Ada' } },
    scenarios: {
      accept: 'Activated: Ada holds badge <uuid-1>',
      decline: 'Not activated (decline)',
      cancel: 'Not activated (cancel)',
      'invalid-then-valid': 'Activated: Ada holds badge <uuid-1>',
    },
    valid: { activate: true },
    invalid: { activate: 'yes' },
    normalize: 'uuids',
  },
  {
    name: 'lock-release',
    call: { kind: 'tool', name: 'release_lock', arguments: { resource: 'deploy-queue' } },
    scenarios: {
      accept: 'Released deploy-queue from <uuid-1>',
      decline: 'deploy-queue stays locked by <uuid-1> (decline)',
      cancel: 'deploy-queue stays locked by <uuid-1> (cancel)',
      'invalid-then-valid': 'Released deploy-queue from <uuid-1>',
    },
    valid: { release: true },
    invalid: { release: 'yes' },
    normalize: 'uuids',
  },
  {
    name: 'shard-rotation',
    call: { kind: 'tool', name: 'run_job', arguments: { job: 'nightly-backup' } },
    scenarios: {
      accept: 'Ran nightly-backup on shard-<uuid-1>',
      decline: 'nightly-backup not run (decline)',
      cancel: 'nightly-backup not run (cancel)',
      'invalid-then-valid': 'Ran nightly-backup on shard-<uuid-1>',
    },
    valid: { confirm: true },
    invalid: { confirm: 'yes' },
    normalize: 'uuids',
  },
  {
    name: 'inline-ask',
    call: { kind: 'tool', name: 'file_issue', arguments: { title: 'Slow login' } },
    scenarios: {
      accept: 'Filed "Slow login" as high',
      decline: '"Slow login" not filed',
      cancel: '"Slow login" not filed',
      'invalid-then-valid': 'Filed "Slow login" as high',
    },
    valid: { priority: 'high', confirm: true },
    invalid: { priority: 'urgent', confirm: 'yes' },
  },
  {
    name: 'helper-answer',
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
    name: 'guarded-dispatch',
    call: { kind: 'tool', name: 'run_job', arguments: { job: 'reindex' } },
    scenarios: {
      accept: 'Ran reindex',
      decline: 'reindex not run (decline)',
      cancel: 'reindex not run (cancel)',
      'invalid-then-valid': 'Ran reindex',
    },
    valid: { confirm: true },
    invalid: { confirm: 'yes' },
  },
  {
    name: 'sibling-asks',
    call: { kind: 'tool', name: 'save_contact', arguments: {} },
    scenarios: {
      accept: 'Saved Ada <ada@example.com>',
      decline: 'No contact saved (decline)',
      cancel: 'No contact saved (cancel)',
      'invalid-then-valid': 'Saved Ada <ada@example.com>',
    },
    valid: { name: 'Ada', email: 'ada@example.com' },
    invalid: { name: 'A', email: 'not an email' },
    acceptRounds: 3,
  },
  {
    name: 'profile-siblings',
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
    name: 'class-tools',
    call: { kind: 'tool', name: 'cut_release', arguments: { version: '2.4.0' } },
    scenarios: {
      accept: 'Released 2.4.0: Revenue grew 12% on new subscriptions.',
      decline: '2.4.0 not released (decline)',
      cancel: '2.4.0 not released (cancel)',
      'invalid-then-valid': 'Released 2.4.0: Revenue grew 12% on new subscriptions.',
    },
    valid: { approve: true },
    invalid: { approve: 'yes' },
  },
  {
    name: 'loop-asks',
    call: { kind: 'tool', name: 'prune_branches', arguments: { branches: ['old-1', 'old-2', 'old-3'] } },
    scenarios: {
      accept: 'Deleted old-1, old-2, old-3',
      decline: 'Deleted nothing',
      cancel: 'Deleted nothing',
      'invalid-then-valid': 'Deleted old-1, old-2, old-3',
    },
    valid: { confirm: true },
    invalid: { confirm: 'yes' },
  },
  {
    name: 'standup-prompt',
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
    name: 'retry-until-valid',
    call: { kind: 'tool', name: 'subscribe', arguments: { list: 'release-notes' } },
    scenarios: {
      accept: 'Subscribed ada@example.com to release-notes',
      decline: 'Not subscribed to release-notes (decline)',
      cancel: 'Not subscribed to release-notes (cancel)',
      'invalid-then-valid': 'Subscribed ada@example.com to release-notes',
    },
    valid: { email: 'ada@example.com' },
    // passes the schema, fails the server's own check: asked again
    invalid: { email: 'ada at example' },
  },
  {
    name: 'issue-wizard',
    call: { kind: 'tool', name: 'file_issue', arguments: { repo: 'acme/api' } },
    scenarios: {
      accept: 'Filed on acme/api: Revenue grew 12% on new subscriptions. [bug, steps:16]',
      decline: 'No issue filed (decline)',
      cancel: 'No issue filed (cancel)',
      'invalid-then-valid': 'Filed on acme/api: Revenue grew 12% on new subscriptions. [bug, steps:16]',
    },
    valid: { kind: 'bug', steps: 'click save twice' },
    invalid: { kind: 'question', steps: 'x' },
  },
  {
    name: 'keep-files',
    call: { kind: 'tool', name: 'review_files', arguments: { files: ['a.log', 'b.log', 'c.log'] } },
    scenarios: {
      accept: 'Removed a.log, b.log, c.log',
      decline: 'Kept all 3 files',
      cancel: 'Review cancelled',
      'invalid-then-valid': 'Removed a.log, b.log, c.log',
    },
    valid: { keep: false },
    invalid: { keep: 'no' },
  },
  {
    name: 'deploy-confirm',
    call: { kind: 'tool', name: 'deploy', arguments: { service: 'billing', env: 'production' } },
    scenarios: {
      accept: 'Deployed billing to production',
      decline: 'billing not deployed',
      cancel: 'billing not deployed',
      'invalid-then-valid': 'Deployed billing to production',
    },
    valid: { confirm: true },
    invalid: { confirm: 'yes' },
  },
  {
    name: 'progress-import',
    call: { kind: 'tool', name: 'import_csv', arguments: { file: 'people.csv', columns: ['name', 'mail'] } },
    scenarios: {
      accept: 'Imported people.csv: name->fullName, mail->fullName',
      decline: 'Import of people.csv skipped (decline)',
      cancel: 'Import of people.csv skipped (cancel)',
      'invalid-then-valid': 'Imported people.csv: name->fullName, mail->fullName',
    },
    valid: { name: 'fullName', mail: 'fullName' },
    invalid: { name: 'x'.repeat(30), mail: 'email' },
  },
  {
    name: 'profile-form',
    call: { kind: 'tool', name: 'complete_profile', arguments: { userId: 'u-7' } },
    scenarios: {
      accept: 'Saved Ada (36) for u-7',
      decline: 'Profile of u-7 unchanged (decline)',
      cancel: 'Profile of u-7 unchanged (cancel)',
      'invalid-then-valid': 'Saved Ada (36) for u-7',
    },
    valid: { displayName: 'Ada', age: 36 },
    invalid: { displayName: 'A', age: 9 },
  },
  {
    name: 'tool-table',
    call: { kind: 'tool', name: 'ban_user', arguments: { user: 'mallory' } },
    scenarios: {
      accept: 'Banned mallory: spamming links',
      decline: 'mallory not banned (decline)',
      cancel: 'mallory not banned (cancel)',
      'invalid-then-valid': 'Banned mallory: spamming links',
    },
    valid: { reason: 'spamming links' },
    invalid: { reason: 'no' },
  },
  {
    name: 'repo-transfer',
    call: { kind: 'tool', name: 'transfer_repo', arguments: { repo: 'acme/api', to: 'globex' } },
    scenarios: {
      accept: 'Transferred acme/api from acme to globex',
      decline: 'acme/api stays with acme',
      cancel: 'acme/api stays with acme',
      'invalid-then-valid': 'Transferred acme/api from acme to globex',
    },
    valid: { confirm: true },
    invalid: { confirm: 'yes' },
  },
  // Blind cases: written as an outside tester would, before reading the other fixtures' inputs.
  {
    name: 'blind-remove-dir',
    call: { kind: 'tool', name: 'remove_dir', arguments: { dir: '/tmp/build' } },
    scenarios: {
      accept: 'Removed 3 files from /tmp/build; 1 left on the volume',
      decline: 'Nothing removed from /tmp/build (decline)',
      cancel: 'Nothing removed from /tmp/build (cancel)',
      'invalid-then-valid': 'Removed 3 files from /tmp/build; 1 left on the volume',
    },
    valid: { confirm: true },
    invalid: { confirm: 'yes' },
  },
  {
    name: 'blind-email-draft',
    call: { kind: 'tool', name: 'draft_email', arguments: { topic: 'the Q3 offsite' } },
    scenarios: {
      accept: 'To: bob@example.com [friendly, ~120 words]\nRevenue grew 12% on new subscriptions.',
      decline: 'No draft: the form was declined',
      cancel: 'No draft: cancelled',
      'invalid-then-valid': 'To: bob@example.com [friendly, ~120 words]',
    },
    valid: { to: 'bob@example.com', tone: 'friendly', words: 120 },
    invalid: { to: 'b', tone: 'rude', words: 5 },
    acceptRounds: 3,
  },
  {
    name: 'blind-explain-prompt',
    call: { kind: 'prompt', name: 'explain_error', arguments: { trace: 'TypeError: cart is undefined\n    at checkout (cart.js:3)', language: 'JavaScript' } },
    scenarios: { sampled: 'Likely cause: Revenue grew 12% on new subscriptions.' },
  },
  {
    name: 'blind-vault-resource',
    call: { kind: 'resource', uri: 'vault://db-password' },
    scenarios: {
      accept: 'db-password: hunter2 (valid 1h)',
      decline: 'db-password: ******** (decline)',
      cancel: 'db-password: ******** (cancel)',
      'invalid-then-valid': 'db-password: hunter2 (valid 1h)',
    },
    valid: { why: 'INC-311 key rotation', ttl: '1h' },
    invalid: { why: 'x', ttl: 'forever' },
  },
  {
    name: 'blind-project-wizard',
    call: { kind: 'tool', name: 'new_project', arguments: { name: 'billing-api' } },
    scenarios: {
      accept: 'Created service billing-api with port 8443',
      decline: 'billing-api not created (decline)',
      cancel: 'billing-api not created (cancel)',
      'invalid-then-valid': 'Created service billing-api with port 8443',
    },
    valid: { kind: 'service', port: 8443 },
    invalid: { kind: 'app', port: 80 },
    acceptRounds: 3,
  },
  {
    name: 'blind-inventory-class',
    call: { kind: 'tool', name: 'restock', arguments: { sku: 'widget', quantity: 5 } },
    scenarios: {
      accept: 'Ordered 5 x widget from acme: 8 after delivery (call 1)',
      decline: 'No order for widget (decline, call 1)',
      cancel: 'No order for widget (cancel, call 1)',
      'invalid-then-valid': 'Ordered 5 x widget from acme: 8 after delivery (call 1)',
    },
    valid: { supplier: 'acme' },
    invalid: { supplier: 'initech' },
  },
  {
    name: 'blind-triage-both',
    call: { kind: 'tool', name: 'triage_issue', arguments: { id: 42, body: 'Checkout fails when the cart holds more than 99 items.' } },
    scenarios: {
      accept: '#42 labelled high: Revenue grew 12% on new subscriptions.',
      decline: '#42 untriaged (decline): Revenue grew 12% on new subscriptions.',
      cancel: '#42 untriaged (cancel): Revenue grew 12% on new subscriptions.',
      'invalid-then-valid': '#42 labelled high: Revenue grew 12% on new subscriptions.',
    },
    valid: { severity: 'high' },
    invalid: { severity: 'urgent' },
    acceptRounds: 2,
  },
  {
    name: 'blind-username-retry',
    call: { kind: 'tool', name: 'claim_username', arguments: {} },
    scenarios: {
      accept: 'You are now @grace',
      decline: 'No username claimed (decline)',
      cancel: 'No username claimed (cancel)',
      'invalid-then-valid': 'You are now @grace',
    },
    valid: { username: 'grace' },
    // passes the schema, fails the server's own check (taken): asked again in the loop
    invalid: { username: 'ada' },
  },
  {
    name: 'blind-release-notes',
    call: { kind: 'tool', name: 'tag_release', arguments: { current: '2.4.1' } },
    scenarios: {
      accept: 'Tagged v2.5.0 (minor bump from 2.4.1)',
      decline: 'Tagged v2.4.2 (patch bump from 2.4.1)',
      cancel: 'No tag for 2.4.1 (cancel)',
      'invalid-then-valid': 'Tagged v2.5.0 (minor bump from 2.4.1)',
      'no-elicitation': 'Tagged v2.4.2 (patch bump from 2.4.1)',
    },
    valid: { part: 'minor' },
    invalid: { part: 'huge' },
  },
  {
    name: 'blind-quota-map',
    call: { kind: 'tool', name: 'export_data', arguments: { user: 'ada' } },
    scenarios: {
      accept: 'Exported ada as json (1/3)',
      decline: 'Exported ada as csv (1/3)',
      cancel: 'Exported ada as csv (1/3)',
      'invalid-then-valid': 'Exported ada as json (1/3)',
    },
    valid: { format: 'json' },
    invalid: { format: 'xml' },
  },
  {
    name: 'blind-send-raw',
    call: { kind: 'tool', name: 'commit_staged', arguments: { files: ['src/login.ts', 'test/login.test.ts'] } },
    scenarios: {
      accept: 'Committed 2 file(s): Fix the login timeout',
      decline: 'Committed 2 file(s): Revenue grew 12% on new subscriptions.',
      cancel: 'Commit cancelled',
      'invalid-then-valid': 'Committed 2 file(s): Fix the login timeout',
    },
    valid: { message: 'Fix the login timeout' },
    invalid: { message: 'x'.repeat(80) },
    acceptRounds: 3,
  },
  {
    name: 'blind-policy-error',
    call: { kind: 'tool', name: 'grant_access', arguments: { user: 'bob', hours: 4 } },
    scenarios: {
      // the approver the user names is not allowed: the handler throws after the answer
      accept: 'mallory may not approve production access',
      decline: 'No access for bob (decline)',
      cancel: 'No access for bob (cancel)',
      'invalid-then-valid': 'mallory may not approve production access',
    },
    valid: { approver: 'mallory' },
    invalid: { approver: 'm' },
  },
  {
    name: 'blind-short-circuit',
    call: { kind: 'tool', name: 'purge_cdn', arguments: { zone: 'static.example.com' } },
    scenarios: {
      accept: 'Purged static.example.com (hard)',
      decline: 'static.example.com not purged',
      cancel: 'static.example.com not purged',
      'invalid-then-valid': 'Purged static.example.com (hard)',
    },
    valid: { mode: 'hard', ok: true },
    invalid: { mode: 'nuke', ok: true },
    acceptRounds: 4,
  },
  {
    name: 'blind-alias-ask',
    call: { kind: 'tool', name: 'scale_service', arguments: { service: 'checkout' } },
    scenarios: {
      accept: 'checkout scaled to 4',
      decline: 'checkout not scaled (decline)',
      cancel: 'checkout not scaled (cancel)',
      'invalid-then-valid': 'checkout scaled to 4',
    },
    valid: { replicas: 4 },
    // in the schema's range, odd: refused by the server's own rule and asked again
    invalid: { replicas: 3 },
  },
];

export function fixtureNamed(name: string): E2eFixture {
  const fixture = FIXTURES.find((f) => f.name === name);
  if (fixture === undefined) throw new Error(`no e2e fixture named ${name}`);
  return fixture;
}

/** The legacy original, imported in-process. */
export async function loadLegacy(name: string): Promise<FixtureModule<McpServer | Server>> {
  return (await import(pathToFileURL(fixturePath(name, 'input')).href)) as FixtureModule<McpServer | Server>;
}

function requestedProperties(params: ElicitRequestParams): string[] {
  const schema = (params as { requestedSchema?: { properties?: Record<string, unknown> } }).requestedSchema;
  return Object.keys(schema?.properties ?? {});
}

/** Content for exactly the properties a request asks for, taken from `values`. */
export function contentFor(params: ElicitRequestParams, values: Record<string, string | number | boolean>): Record<string, string | number | boolean> {
  const content: Record<string, string | number | boolean> = {};
  for (const property of requestedProperties(params)) {
    if (!(property in values)) throw new Error(`the scenario has no value for requested property ${property}`);
    content[property] = values[property];
  }
  return content;
}

/** The scenario's answers to elicitations; the model always replies and the roots are always listed. */
export function scriptFor(fixture: E2eFixture, scenario: ScenarioName): AnswerScript {
  const valid = fixture.valid ?? {};
  const model = { sample: () => SAMPLED_REPLY, roots: CLIENT_ROOTS };
  switch (scenario) {
    case 'accept':
      return { ...model, elicit: (params): ElicitResult => ({ action: 'accept', content: contentFor(params, valid) }) };
    case 'decline':
    case 'cancel':
      return { ...model, elicit: (): ElicitResult => ({ action: scenario }) };
    case 'invalid-then-valid':
      return {
        ...model,
        elicit: (params, askNumber): ElicitResult => ({
          action: 'accept',
          content: contentFor(params, askNumber === 1 ? (fixture.invalid ?? {}) : valid),
        }),
      };
    case 'sampled':
    case 'roots':
      return model;
    case 'no-elicitation':
      return { ...model, capabilities: { sampling: {}, roots: {} } };
  }
}

/** What a call produced, reduced to what the legacy and ported runs must agree on. */
export interface Outcome {
  readonly error?: string;
  readonly isError?: boolean;
  readonly texts: readonly string[];
}

function textOf(block: { type: string; text?: unknown }): string {
  return block.type === 'text' && typeof block.text === 'string' ? block.text : `[${block.type}]`;
}

export async function perform(client: Client, call: Call): Promise<Outcome> {
  try {
    switch (call.kind) {
      case 'tool': {
        const result = await client.callTool({ name: call.name, arguments: call.arguments });
        return { isError: result.isError === true, texts: result.content.map(textOf) };
      }
      case 'prompt': {
        const result = await client.getPrompt({ name: call.name, arguments: call.arguments });
        return { isError: false, texts: result.messages.map((message) => textOf(message.content)) };
      }
      case 'resource': {
        const result = await client.readResource({ uri: call.uri });
        return { isError: false, texts: result.contents.map((c) => ('text' in c ? c.text : '[blob]')) };
      }
    }
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error), texts: [] };
  }
}

/** The JSON-RPC method and params of a call, for raw manual-mode rounds: the probe's own (the same call shape). */
export { requestOf } from '../../src/probe/endpoint.js';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * A run's result and effects as the legacy and ported runs must agree on them. With `normalize: 'uuids'`
 * each UUID becomes its order of first appearance in the run, so a value made again shows as a new one.
 */
export function comparable<R>(fixture: E2eFixture, result: R, effects: readonly { kind: string; detail: Record<string, unknown> }[]): { result: R; effects: { kind: string; detail: Record<string, unknown> }[] } {
  const run = { result, effects: effects.map(({ kind, detail }) => ({ kind, detail })) };
  if (fixture.normalize !== 'uuids') return run;
  const seen = new Map<string, string>();
  const text = JSON.stringify(run).replace(UUID, (uuid) => {
    if (!seen.has(uuid)) seen.set(uuid, `<uuid-${seen.size + 1}>`);
    return seen.get(uuid)!;
  });
  return JSON.parse(text) as typeof run;
}
