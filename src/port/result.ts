/**
 * What `runPort` returns, and the `--format json` contract of `mrtr-port port` (`version: 1`; change it
 * only by adding optional fields).
 */
export type FileStatus = 'changed' | 'unchanged' | 'skipped' | 'failed';

export interface FileOutcome {
  /** Relative to the working directory, `/`-separated. */
  file: string;
  status: FileStatus;
  /** Why a file was skipped (`sdk-v1: --skip-v1`, `parse-error: …`). */
  reason?: string;
  /** Why a file failed; the file was left byte-identical. */
  error?: string;
  /** The official v1→v2 migration changed this file (in this run). */
  v1Migrated: boolean;
  /** Legacy sites the analyzer found in this file (before the port). */
  sites: number;
  /** Unacknowledged `@mrtr-port-todo` markers in the file after the run. */
  markers: number;
  /** `@mcp-codemod-error` comments in the file after the run (left by the v1 migration). */
  codemodMarkers: number;
  /** Unified diff (dry-run only, changed files only). */
  diff?: string;
  /** Skipped files only: the file names a legacy request method, so it may hold a site this run did not port (exit 1). */
  mayHoldSites?: true;
}

export type HelperStatus = 'written' | 'would-write' | 'identical' | 'differs' | 'failed';

export interface HelperOutcome {
  /** The helper file, relative to the working directory. */
  file: string;
  /** `differs`: a file of that name exists with other content; it was not overwritten. */
  status: HelperStatus;
  error?: string;
  /** The ported files that import it. */
  importedBy: string[];
  /** New-file diff (dry-run, `would-write` only). */
  diff?: string;
}

export interface PortSummary {
  scanned: number;
  changed: number;
  unchanged: number;
  skipped: number;
  /** Skipped files counted by reason (the text before the first `:`). */
  skippedBy: Record<string, number>;
  failed: number;
  v1Migrated: number;
  sites: number;
  markers: number;
  codemodMarkers: number;
}

export interface PortResult {
  tool: 'mrtr-port';
  command: 'port';
  version: 1;
  dryRun: boolean;
  options: { codec: 'aead' | 'sdk'; roots: 'config' | 'ask'; claims: 'memory' | 'redis'; skipV1: boolean };
  /**
   * Every file the run looked at beyond the text scan: changed, skipped, failed, with sites or markers,
   * or SDK v1. Files with nothing to do are only counted (`summary.unchanged`). Sorted by path.
   */
  files: FileOutcome[];
  helpers: HelperOutcome[];
  /** package.json files the run changed, or has something to say about (v1 swapped for v2, ranges raised, what was kept and why). */
  manifests: ManifestOutcome[];
  summary: PortSummary;
  /** What the user must do now, specific to this run (src/port/next-steps.ts); the text report ends with them. */
  nextSteps: NextStep[];
  /** What an interrupted earlier run left and this run cleaned up before reading (absent when nothing). */
  recovered?: { removed: string[]; restored: string[] };
}

export const EXIT = { clean: 0, attention: 1, usage: 2 } as const;

/**
 * 0 clean; 1 when markers are left (todo or codemod), a file, helper or package.json failed, or a
 * skipped file may hold a legacy site.
 */
export function portExitCode(result: PortResult): number {
  const { summary } = result;
  const helperFailed = result.helpers.some((h) => h.status === 'failed') || result.manifests.some((m) => m.status === 'failed');
  const skippedSites = result.files.some((f) => f.status === 'skipped' && f.mayHoldSites);
  return summary.failed > 0 || helperFailed || skippedSites || summary.markers > 0 || summary.codemodMarkers > 0 ? EXIT.attention : EXIT.clean;
}

/** Bad input to the run (a named path missing or holding no sources): exit 2. */
export class PortUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PortUsageError';
  }
}

export interface ManifestOutcome {
  /** The package.json, relative to the working directory. */
  file: string;
  /** `unchanged`: nothing to change, but something to say (`kept`, `unknown`, `notes`). */
  status: 'written' | 'would-write' | 'unchanged' | 'failed';
  error?: string;
  /** Dependencies added (name → range) and removed. */
  added: Record<string, string>;
  removed: string[];
  /** Imported `@modelcontextprotocol/*` packages with no known version: add them by hand. */
  unknown: string[];
  /** Ranges raised to what the ported code needs: name → { from, to }. */
  updated: Record<string, { from: string; to: string }>;
  /** Dependencies left in place although the port would have changed them, and why. */
  kept: { name: string; reason: string }[];
  /** What to know about a change (zod 3 → 4). */
  notes: string[];
  diff?: string;
}

export type NextStepId =
  | 'apply'
  | 'fix-failures'
  | 'check-helpers'
  | 'install'
  | 'zod-4'
  | 'v1-left'
  | 'add-packages'
  | 'state-keys'
  | 'claims'
  | 'host-2026'
  | 'markers'
  | 'codemod-markers';

export interface NextStep {
  /** Stable id of the kind of step (for scripts). */
  id: NextStepId;
  /** What to do, in one or two sentences. */
  text: string;
  /** The files the step is about, relative to the working directory. */
  files?: string[];
}
