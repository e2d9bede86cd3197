/**
 * `--format text` (default): findings grouped by file, one line each (`line:col  verdict  what  where
 * [reasons]`), then skipped files with why, the advice for each reason that occurred, and a summary:
 * files scanned, sites by portability, files skipped, markers left, and what `check` concluded.
 */
import type { AnalysisReport, Site } from '../../analyzer/model.js';
// sites a port run left under its marker: check gives the marker's advice, not "run port"
import { refusalsOf } from './findings.js';
import type { MarkerEntry } from '../markers-scan.js';
import { compareStrings } from '../markers-scan.js';
import type { ReportContext } from './context.js';
import { PARSE_ERROR_PREFIX, reasonAdvice, SYMLINK_SKIP_REASON } from './findings.js';

interface Row {
  line: number;
  column: number;
  cells: [string, string, string, string];
}

export function textReporter(report: AnalysisReport, context: ReportContext): string {
  const rowsByFile = new Map<string, Row[]>();
  const add = (file: string, row: Row) => {
    const rows = rowsByFile.get(file) ?? [];
    rows.push(row);
    rowsByFile.set(file, rows);
  };
  for (const site of report.sites) add(site.file, siteRow(site));
  for (const marker of context.markers) add(marker.file, markerRow(marker));

  const out: string[] = [];
  for (const file of [...rowsByFile.keys()].sort(compareStrings)) {
    const rows = rowsByFile.get(file)!.sort((a, b) => a.line - b.line || a.column - b.column);
    const pos = rows.map((r) => `${r.line}:${r.column}`);
    const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r.cells[i].length)));
    const posWidth = Math.max(...pos.map((p) => p.length));
    out.push(file);
    rows.forEach((r, i) => {
      const cells = r.cells.map((c, j) => (j < 3 ? c.padEnd(widths[j]) : c));
      out.push(`  ${pos[i].padEnd(posWidth)}  ${cells.join('  ')}`.trimEnd());
    });
    out.push('');
  }

  const skipped = [...report.files.skipped].sort((a, b) => compareStrings(a.file, b.file));
  if (skipped.length > 0) {
    out.push(`Skipped ${plural(skipped.length, 'file')}:`);
    for (const s of skipped) out.push(`  ${s.file}: ${s.reason}`);
    out.push('');
  }

  const reasons = [...new Set([...report.sites.flatMap((s) => s.reasons), ...context.markers.map((m) => m.reason)])].sort();
  const explained = reasons.filter((r) => reasonAdvice(r) !== undefined);
  if (explained.length > 0) {
    out.push('Reasons:');
    for (const r of explained) out.push(`  ${r}: ${reasonAdvice(r)}`);
    out.push('');
  }

  out.push(...summaryLines(report, context));
  return `${out.join('\n')}\n`;
}

function siteRow(site: Site): Row {
  const where = site.handler
    ? `${site.handler.kind} ${site.handler.name === null ? '(name not static)' : `"${site.handler.name}"`}`
    : 'no handler';
  const through = site.via.length > 0 ? ` via ${site.via.map((v) => `${v.function}()`).join(' → ')}` : '';
  const reasons = site.reasons.length > 0 ? `  [${site.reasons.join(', ')}]` : '';
  return {
    line: site.line,
    column: site.column,
    cells: [site.portability, `${site.kind} ${site.form}`, `${where}${through}`, `${site.sdk === 'unknown' ? '' : site.sdk}${reasons}`.trim()],
  };
}

function markerRow(marker: MarkerEntry): Row {
  return { line: marker.line, column: marker.column, cells: ['marker', marker.reason, marker.message.replace(/\s+/g, ' '), ''] };
}

function summaryLines(report: AnalysisReport, context: ReportContext): string[] {
  const s = report.summary;
  const parseErrors = report.files.skipped.filter((f) => f.reason.startsWith(PARSE_ERROR_PREFIX)).length;
  const unread = report.files.skipped.filter((f) => !f.reason.startsWith(PARSE_ERROR_PREFIX) && f.reason !== SYMLINK_SKIP_REASON).length;
  const lines = [
    `Scanned ${plural(report.files.scanned, 'file')}: ${plural(s.sites, 'legacy site')} ` +
      `(${s.auto} auto, ${s.manual} manual, ${s.unportable} unportable, ${s.guarded} guarded); ` +
      `${plural(report.files.skipped.length, 'file')} skipped; ${plural(context.markers.length, 'marker')} left` +
      (context.acknowledgedMarkers > 0 ? ` (${context.acknowledgedMarkers} acknowledged)` : '') +
      '.',
  ];
  const toPort = s.sites - s.guarded;
  if (context.command === 'check') {
    if (context.exitCode === 0) {
      lines.push('check passed: no legacy request left to port and no marker left.');
    } else {
      const parts = [
        toPort > 0 ? plural(toPort, 'legacy site') + ' to port' : '',
        context.markers.length > 0 ? plural(context.markers.length, 'marker') + ' to resolve' : '',
        parseErrors > 0 ? plural(parseErrors, 'file') + ' that could not be parsed' : '',
        unread > 0 ? plural(unread, 'file') + ' that could not be read or decoded' : '',
      ].filter(Boolean);
      lines.push(`check failed: ${parts.join(', ')}.`);
    }
  }
  // auto sites a port run already left carry its marker: running port again would not change them
  const toRewrite = s.auto - refusalsOf(report, context.markers).size;
  if (toRewrite > 0) lines.push(`Run \`mrtr-port port\` to rewrite the ${plural(toRewrite, 'auto site')}; manual sites get a marker.`);
  return lines;
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
