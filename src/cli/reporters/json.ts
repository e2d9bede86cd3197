/**
 * `--format json`: the analyzer's `AnalysisReport` (src/analyzer/model.ts, `version: 1`) plus the
 * additive `markers` array. Stable key order, two-space indent, trailing newline.
 */
import type { AnalysisReport } from '../../analyzer/model.js';
import type { MarkerEntry } from '../markers-scan.js';
import type { ReportContext } from './context.js';

export type JsonReport = AnalysisReport & { markers: MarkerEntry[] };

export function jsonReporter(report: AnalysisReport, context: ReportContext): string {
  const out: JsonReport = { ...report, markers: [...context.markers] };
  return `${JSON.stringify(out, null, 2)}\n`;
}
