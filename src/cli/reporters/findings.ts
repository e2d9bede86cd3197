/**
 * One flat, sorted list of what a run found (legacy sites, markers left, files that failed to parse),
 * with a rule id, a level and a message each: the shared input of the SARIF and GitHub reporters.
 *
 * Levels: in `check`, everything that fails the check is an `error`; in `analyze` (a survey that never
 * fails) the same things are `warning`s. `guarded` sites are `note`s in both: they are already dual-era.
 */
import type { AnalysisReport, Site } from '../../analyzer/model.js';
import { REASONS, isReasonId } from '../../analyzer/reasons.js';
import { compareStrings, type MarkerEntry } from '../markers-scan.js';
import type { ReportContext } from './context.js';

export type FindingLevel = 'error' | 'warning' | 'note';

export interface Finding {
  file: string;
  /** 1-based, at least 1. */
  line: number;
  column: number;
  level: FindingLevel;
  /** `mrtr/<reason>` for sites with a reason, `mrtr/<form>` for plain auto sites, `mrtr/unresolved-marker`, `mrtr/parse-error`, `mrtr/unread-file`. */
  ruleId: string;
  /** Short: the verdict, for annotation titles. */
  title: string;
  message: string;
  site?: Site;
}

export const RULE_PREFIX = 'mrtr/';
export const MARKER_RULE = `${RULE_PREFIX}unresolved-marker`;
export const PARSE_ERROR_RULE = `${RULE_PREFIX}parse-error`;
export const PARSE_ERROR_PREFIX = 'parse-error';
export const UNREAD_FILE_RULE = `${RULE_PREFIX}unread-file`;
/** Symlinks are listed as skipped but never followed by design: not a finding. */
export const SYMLINK_SKIP_REASON = 'symlink-not-followed';

export function collectFindings(report: AnalysisReport, context: ReportContext): Finding[] {
  const failing: FindingLevel = context.command === 'check' ? 'error' : 'warning';
  const findings: Finding[] = [];
  const leftBy = refusalsOf(report, context.markers);
  for (const site of report.sites) {
    findings.push({
      file: site.file,
      line: atLeastOne(site.line),
      column: atLeastOne(site.column),
      level: site.portability === 'guarded' ? 'note' : failing,
      ruleId: siteRuleId(site),
      title: `${site.portability}${site.reasons.length > 0 ? ` (${site.reasons.join(', ')})` : ''}: legacy ${site.kind} request`,
      message: describeSite(site, leftBy.get(site)),
      site,
    });
  }
  for (const marker of context.markers) {
    findings.push({
      file: marker.file,
      line: atLeastOne(marker.line),
      column: atLeastOne(marker.column),
      level: failing,
      ruleId: MARKER_RULE,
      title: `marker left (${marker.reason})`,
      message: `Port marker left (${marker.reason}): ${marker.message || reasonAdvice(marker.reason) || 'resolve it, then delete the marker.'}`,
    });
  }
  for (const skipped of report.files.skipped) {
    if (skipped.reason === SYMLINK_SKIP_REASON) continue;
    if (!skipped.reason.startsWith(PARSE_ERROR_PREFIX)) {
      // unreadable or undecodable: never analyzed, so `check` cannot pass it
      findings.push({
        file: skipped.file,
        line: 1,
        column: 1,
        level: failing,
        ruleId: UNREAD_FILE_RULE,
        title: 'file could not be read',
        message: `Could not read this file, so it was not analyzed: ${skipped.reason}`,
      });
      continue;
    }
    const at = parseErrorPosition(skipped.reason);
    findings.push({
      file: skipped.file,
      line: atLeastOne(at.line),
      column: atLeastOne(at.column),
      level: failing,
      ruleId: PARSE_ERROR_RULE,
      title: 'file could not be parsed',
      message: `Could not parse this file, so it was not analyzed: ${skipped.reason}`,
    });
  }
  return findings.sort(compareFindings);
}

export function compareFindings(a: Finding, b: Finding): number {
  return compareStrings(a.file, b.file) || a.line - b.line || a.column - b.column || compareStrings(a.ruleId, b.ruleId);
}

/** The first reason names the rule (it says what to do); an auto site without one is named by its form. */
export function siteRuleId(site: Site): string {
  return `${RULE_PREFIX}${site.reasons[0] ?? site.form}`;
}

export function reasonAdvice(reason: string): string | undefined {
  return isReasonId(reason) ? REASONS[reason].advice : undefined;
}

/** What `mrtr-port port` does with an auto site, by kind (roots are retired to configuration by default). */
const AUTO_OUTCOME: Record<Site['kind'], string> = {
  elicitation: '`mrtr-port port` rewrites it to inputRequired.elicit(...).',
  sampling: '`mrtr-port port` rewrites it to inputRequired.createMessage(...).',
  roots: '`mrtr-port port` replaces it with roots from configuration (MCP_ALLOWED_ROOTS), or with inputRequired.listRoots() under `--roots ask`.',
};

/**
 * The auto sites a port run already left, each with the marker it wrote above the statement (a marker
 * whose reason needs a human, between the previous site of the file and this one): running `port` again
 * would not change them, so the advice is the marker's, never "run port".
 */
export function refusalsOf(report: AnalysisReport, markers: readonly MarkerEntry[]): Map<Site, MarkerEntry> {
  const out = new Map<Site, MarkerEntry>();
  const byFile = new Map<string, Site[]>();
  for (const site of report.sites) byFile.set(site.file, [...(byFile.get(site.file) ?? []), site]);
  for (const [file, sites] of byFile) {
    const refusals = markers.filter((m) => m.file === file && (!isReasonId(m.reason) || REASONS[m.reason].portability !== 'auto'));
    if (refusals.length === 0) continue;
    const ordered = [...sites].sort((a, b) => a.line - b.line);
    ordered.forEach((site, i) => {
      const after = i > 0 ? ordered[i - 1].line : 0;
      const marker = refusals.filter((m) => m.line > after && m.line < site.line).at(-1);
      if (marker && site.portability === 'auto') out.set(site, marker);
    });
  }
  return out;
}

/** One sentence on a site: what it is, where it is served, the verdict and what to do. */
export function describeSite(site: Site, leftBy?: MarkerEntry): string {
  const where = site.handler
    ? `in ${site.handler.kind} ${site.handler.name === null ? '(name not static)' : `"${site.handler.name}"`}`
    : 'outside any tool, prompt or resource handler';
  const through = site.via.length > 0 ? ` through ${site.via.map((v) => `${v.function}()`).join(' → ')}` : '';
  const head = `Legacy ${site.kind} request (${site.form}) ${where}${through}`;
  const advice = site.reasons.map((r) => reasonAdvice(r) ?? r).join(' ');
  switch (site.portability) {
    case 'auto':
      if (leftBy) return `${head}: \`mrtr-port port\` left it (${leftBy.reason}): ${leftBy.message || reasonAdvice(leftBy.reason) || 'port it by hand.'}`;
      return `${head}: ${AUTO_OUTCOME[site.kind]}${advice ? ` ${advice}` : ''}`;
    case 'guarded':
      return `${head}: already behind an era check (left as is). ${advice}`.trimEnd();
    default:
      return `${head}: ${site.portability}. ${advice}`.trimEnd();
  }
}

/** `parse-error: <message> (line:col)` → the position, or 1:1 when the reason carries none. */
export function parseErrorPosition(reason: string): { line: number; column: number } {
  const m = /\((\d+):(\d+)\)\s*$/.exec(reason);
  return m ? { line: Number(m[1]), column: Number(m[2]) } : { line: 1, column: 1 };
}

function atLeastOne(n: number): number {
  return Number.isFinite(n) && n >= 1 ? Math.floor(n) : 1;
}
