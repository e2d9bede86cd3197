/**
 * `--format github`: GitHub Actions workflow commands, one per finding
 * (`::error file=…,line=…,col=…,title=…::message`), escaped as the runner expects: in the message
 * `%`, CR and LF; in properties also `:` and `,`. Ends with one plain summary line (not a command).
 */
import type { AnalysisReport } from '../../analyzer/model.js';
import type { ReportContext } from './context.js';
import { collectFindings, type FindingLevel } from './findings.js';

const COMMAND: Record<FindingLevel, string> = { error: 'error', warning: 'warning', note: 'notice' };

export function escapeData(value: string): string {
  return value.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function escapeProperty(value: string): string {
  return escapeData(value).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export function githubReporter(report: AnalysisReport, context: ReportContext): string {
  const lines = collectFindings(report, context).map((f) => {
    const props = [
      `file=${escapeProperty(f.file)}`,
      `line=${f.line}`,
      `col=${f.column}`,
      `title=${escapeProperty(`${f.ruleId} ${f.title}`)}`,
    ].join(',');
    return `::${COMMAND[f.level]} ${props}::${escapeData(f.message)}`;
  });
  const s = report.summary;
  lines.push(
    `mrtr-port ${context.command}: ${report.files.scanned} files scanned, ${s.sites} legacy sites ` +
      `(${s.auto} auto, ${s.manual} manual, ${s.unportable} unportable, ${s.guarded} guarded), ${context.markers.length} markers left`,
  );
  return `${lines.join('\n')}\n`;
}
