/**
 * `analyze` and `check` as functions: discover → analyze → scan markers → decide the exit code →
 * render. The CLI is a thin shell over these; tests and other tools call them in-process.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { analyze } from '../analyzer/index.js';
import { readSource } from '../analyzer/source.js';
import type { AnalysisReport } from '../analyzer/model.js';
import { discoverFiles, SOURCE_EXTENSIONS } from '../port/discover.js';
import { EXIT_CODES, UsageError } from './exit-codes.js';
import { scanMarkers, toReportPath, type MarkerEntry } from './markers-scan.js';
import type { CommandName, ReportContext } from './reporters/context.js';
import { SYMLINK_SKIP_REASON } from './reporters/findings.js';
import { isOutputFormat, OUTPUT_FORMATS, REPORTERS, type OutputFormat } from './reporters/index.js';
import { toolVersion } from './version.js';

export interface RunOptions {
  /** Defaults to `process.cwd()`. Report paths are relative to it. */
  cwd?: string;
  /** Files or folders; defaults to `['.']`. */
  paths?: readonly string[];
  /** gitignore-style globs relative to `cwd`. */
  ignore?: readonly string[];
  /** Defaults to `text`. */
  format?: OutputFormat | string;
  /** Told what a long run is doing (the CLI shows it on a TTY only). */
  onProgress?: (message: string) => void;
}

export interface RunResult {
  report: AnalysisReport;
  markers: MarkerEntry[];
  acknowledgedMarkers: number;
  exitCode: number;
  /** The report rendered in the requested format. */
  output: string;
  /** Milliseconds per stage (shown by `--verbose`). */
  timings: { discover: number; analyze: number; markers: number };
}

export { SYMLINK_SKIP_REASON };

/** Files from this many on count as a long run (progress is shown on a TTY). */
export const LONG_RUN_FILES = 500;

/** Survey: always exit 0 once a report was made. */
export function runAnalyze(options: RunOptions = {}): Promise<RunResult> {
  return run('analyze', options);
}

/** Gate: exit 1 while a legacy site (other than a guarded one), a marker, or a file that could not be read, decoded or parsed remains. */
export function runCheck(options: RunOptions = {}): Promise<RunResult> {
  return run('check', options);
}

async function run(command: CommandName, options: RunOptions): Promise<RunResult> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const format = options.format ?? 'text';
  if (!isOutputFormat(format)) {
    throw new UsageError(`unknown format "${format}" (expected one of: ${OUTPUT_FORMATS.join(', ')})`);
  }

  let t0 = performance.now();
  const discovered = await discoverFiles({ cwd, paths: options.paths, ignore: options.ignore });
  if (discovered.missing.length > 0) {
    throw new UsageError(`no such file or directory: ${discovered.missing.join(', ')}`);
  }
  if (discovered.empty.length > 0) {
    throw new UsageError(
      `no source files (${SOURCE_EXTENSIONS.join(' ')}) in: ${discovered.empty.join(', ')}` +
        ' (node_modules, build output, *.d.ts and ignored files are skipped)',
    );
  }
  const discoverMs = performance.now() - t0;

  const long = discovered.files.length >= LONG_RUN_FILES;
  if (long) options.onProgress?.(`analyzing ${discovered.files.length} files…`);
  t0 = performance.now();
  // each file is read once: the analyzer and the marker scan share the texts
  const texts = readTexts(discovered.files);
  // the verdicts only: the port's file plans are not needed to report them
  const { report: analyzed } = await analyze({ cwd, files: discovered.files, texts, plan: { edits: false } });
  const analyzeMs = performance.now() - t0;

  if (long) options.onProgress?.('looking for markers…');
  t0 = performance.now();
  const scan = await scanMarkers(cwd, discovered.files, texts);
  const markersMs = performance.now() - t0;

  const report = withDiscoverySkips(analyzed, cwd, discovered.symlinks, discovered.unreadable);
  const exitCode = command === 'check' && checkFails(report, scan.markers) ? EXIT_CODES.findings : EXIT_CODES.ok;
  const context: ReportContext = {
    command,
    cwd,
    markers: scan.markers,
    acknowledgedMarkers: scan.acknowledged,
    exitCode,
    toolVersion: toolVersion(),
  };
  return {
    report,
    markers: scan.markers,
    acknowledgedMarkers: scan.acknowledged,
    exitCode,
    output: REPORTERS[format](report, context),
    timings: { discover: discoverMs, analyze: analyzeMs, markers: markersMs },
  };
}

/** The readable files' texts; an unreadable one is left out, and the analyzer then reports its read error. */
function readTexts(files: readonly string[]): Map<string, string> {
  const texts = new Map<string, string>();
  for (const file of files) {
    const read = readSource(file);
    if (read.ok) texts.set(file, read.text);
  }
  return texts;
}

/** Nothing unread passes: every skipped file fails the check except a symlink, which is never followed by design. */
export function checkFails(report: AnalysisReport, markers: readonly MarkerEntry[]): boolean {
  return (
    report.sites.some((s) => s.portability !== 'guarded') ||
    markers.length > 0 ||
    report.files.skipped.some((f) => f.reason !== SYMLINK_SKIP_REASON)
  );
}

/** Symlinks met while walking are listed as skipped, so nothing is left out silently. */
/** Symlinks the walk did not follow, and folders it could not list (they may hold sources: `check` fails on them). */
function withDiscoverySkips(
  report: AnalysisReport,
  cwd: string,
  symlinks: readonly string[],
  unreadable: readonly { path: string; code: string }[],
): AnalysisReport {
  if (symlinks.length === 0 && unreadable.length === 0) return report;
  const skipped = [
    ...report.files.skipped,
    ...symlinks.map((link) => ({ file: toReportPath(cwd, link), reason: SYMLINK_SKIP_REASON })),
    ...unreadable.map((dir) => ({ file: toReportPath(cwd, dir.path), reason: `read-error: ${dir.code} (folder not listed)` })),
  ].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { ...report, files: { ...report.files, skipped } };
}
