// fixtures/packages/notes-class-ts, a legacy TypeScript package compiled to CommonJS whose server is one
// class (the McpServer a field, asks through `this` methods, a bounded loop that asks until the answer
// suits the folder), through the real CLI, built with its own tsconfig, to two replica processes.
import type { ElicitResult } from '@modelcontextprotocol/client';
import { SAMPLED_REPLY, CLIENT_ROOTS } from '../e2e/fixtures.js';
import { describePortedPackage } from './legacy-vs-ported.js';

/** The retention answers of one run, by ask number: each is valid for the form, only the last suits the folder. */
function retentionAnswers(...answers: { folder: string; olderThanDays: number; keepPinned: boolean }[]) {
  return () => ({
    sample: () => SAMPLED_REPLY,
    roots: CLIENT_ROOTS,
    elicit: (_params: unknown, askNumber: number): ElicitResult => ({ action: 'accept', content: answers[Math.min(askNumber, answers.length) - 1] }),
  });
}

describePortedPackage({
  name: 'notes-class-ts',
  modules: 'cjs',
  serverModule: 'src/notes-server.ts',
  factory: 'createNotesServer',
  stdioEntry: 'src/main.ts',
  built: { serverModule: 'dist/notes-server.js', stdioEntry: 'dist/main.js' },
  ledgerVariable: 'NOTES_JOURNAL',
  helperDir: 'src',
  portedFiles: ['src/notes-server.ts'],
  reviewMarkers: [],
  calls: [
    {
      name: 'archive',
      call: { kind: 'tool', name: 'archive_notes', arguments: { owner: 'ada' } },
      scenarios: {
        accept: 'Archived work notes of ada older than 90 days (pinned kept), snapshot',
        decline: 'Nothing archived for ada (declined)',
        cancel: 'Nothing archived for ada (cancelled)',
        'invalid-then-valid': 'Archived work notes of ada older than 90 days (pinned kept), snapshot',
        // no fallback in the legacy code: its elicitInput fails the call after the snapshot, and so must the port's
        'no-elicitation': 'Client does not support form elicitation',
      },
      valid: { folder: 'work', olderThanDays: 90, keepPinned: true },
      invalid: { folder: 'work', olderThanDays: 400, keepPinned: true },
      normalize: 'uuids',
    },
    {
      name: 'delete',
      call: { kind: 'tool', name: 'delete_note', arguments: { noteId: 'N-17' } },
      scenarios: {
        accept: 'Deleted note N-17',
        decline: 'Note N-17 kept (decline)',
        cancel: 'Note N-17 kept (cancel)',
        'invalid-then-valid': 'Deleted note N-17',
      },
      valid: { confirm: true },
      invalid: { confirm: 'yes' },
    },
  ],
  custom: [
    {
      call: 'archive',
      name: 'too recent twice, then suitable (the loop asks three times)',
      script: retentionAnswers({ folder: 'work', olderThanDays: 5, keepPinned: false }, { folder: 'personal', olderThanDays: 3, keepPinned: false }, { folder: 'personal', olderThanDays: 10, keepPinned: false }),
      text: 'Archived personal notes of ada older than 10 days (pinned included)',
    },
    {
      call: 'archive',
      name: 'too recent every time (the loop gives up after three)',
      script: retentionAnswers({ folder: 'work', olderThanDays: 2, keepPinned: true }),
      text: 'Nothing archived for ada (gave-up)',
    },
  ],
});
