/** A hand-made analyzer report covering every verdict, a via chain, odd file names and a parse error. */
import type { AnalysisReport } from '../../src/analyzer/model.js';
import type { MarkerEntry } from '../../src/cli/markers-scan.js';
import type { ReportContext } from '../../src/cli/reporters/context.js';

export function sampleReport(): AnalysisReport {
  return {
    tool: 'mrtr-port',
    version: 1,
    files: {
      scanned: 5,
      skipped: [
        { file: 'src/broken.ts', reason: 'parse-error: Expression expected. (7:12)' },
        { file: 'src/link.ts', reason: 'symlink-not-followed' },
      ],
    },
    sites: [
      {
        file: 'src/confirm.ts', line: 8, column: 23, kind: 'elicitation', form: 'elicitInput', sdk: 'v2',
        handler: { kind: 'tool', name: 'delete_note', file: 'src/server.ts', line: 40 },
        via: [{ function: 'confirm', file: 'src/confirm.ts', line: 7 }],
        portability: 'auto', reasons: [],
      },
      {
        file: 'src/server.ts', line: 126, column: 30, kind: 'elicitation', form: 'elicitInput', sdk: 'v2',
        handler: { kind: 'tool', name: 'tag_untagged', file: 'src/server.ts', line: 120 },
        via: [], portability: 'manual', reasons: ['in-loop'],
      },
      {
        file: 'src/server.ts', line: 156, column: 30, kind: 'elicitation', form: 'elicitInput', sdk: 'v2',
        handler: { kind: 'tool', name: 'archive_note', file: 'src/server.ts', line: 140 },
        via: [], portability: 'guarded', reasons: ['era-guarded'],
      },
      {
        file: 'src/server.ts', line: 200, column: 29, kind: 'roots', form: 'listRoots', sdk: 'v2',
        handler: null, via: [], portability: 'unportable', reasons: ['notification-handler'],
      },
      {
        file: 'src/we,ird: 100% name.ts', line: 3, column: 1, kind: 'sampling', form: 'createMessage', sdk: 'v1',
        handler: { kind: 'prompt', name: null, file: 'src/we,ird: 100% name.ts', line: 1 },
        via: [], portability: 'auto', reasons: [],
      },
    ],
    summary: { sites: 5, auto: 2, manual: 1, unportable: 1, guarded: 1 },
  };
}

export const sampleMarkers: MarkerEntry[] = [
  { file: 'src/server.ts', line: 125, column: 9, reason: 'in-loop', message: 'unroll the loop,\nthen delete this: 100%' },
];

export function sampleContext(command: 'analyze' | 'check', overrides: Partial<ReportContext> = {}): ReportContext {
  return {
    command,
    cwd: '/work/some project',
    markers: sampleMarkers,
    acknowledgedMarkers: 1,
    exitCode: command === 'check' ? 1 : 0,
    toolVersion: '0.1.0',
    ...overrides,
  };
}
