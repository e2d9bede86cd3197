/** What every reporter gets besides the analyzer's report. */
import type { AnalysisReport } from '../../analyzer/model.js';
import type { MarkerEntry } from '../markers-scan.js';

export type CommandName = 'analyze' | 'check';

export interface ReportContext {
  command: CommandName;
  /** Absolute working directory: report paths are relative to it. */
  cwd: string;
  /** Outstanding markers (`check` fails on them). */
  markers: readonly MarkerEntry[];
  /** Markers acknowledged by `@mrtr-port-ignore`. */
  acknowledgedMarkers: number;
  /** The exit code the run ends with (reporters may say why). */
  exitCode: number;
  toolVersion: string;
}

/** A reporter is pure: same report and context, same text. */
export type Reporter = (report: AnalysisReport, context: ReportContext) => string;
