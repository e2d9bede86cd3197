// After a port run, `check` never tells the user to run `port` for a site the port already left: it gives
// the advice of the marker the port wrote above it.
import { describe, expect, it } from 'vitest';
import type { AnalysisReport, Site } from '../../src/analyzer/model.js';
import type { MarkerEntry } from '../../src/cli/markers-scan.js';
import { collectFindings, refusalsOf } from '../../src/cli/reporters/findings.js';
import { textReporter } from '../../src/cli/reporters/text.js';

const site = (line: number, portability: Site['portability'] = 'auto', file = 'src/tools.ts'): Site => ({
  file, line, column: 5, kind: 'elicitation', form: 'elicitInput', sdk: 'v2',
  handler: { kind: 'tool', name: `t${line}`, file, line: line - 2 }, via: [], portability, reasons: portability === 'manual' ? ['in-loop'] : [],
});

function report(sites: Site[]): AnalysisReport {
  const count = (p: Site['portability']) => sites.filter((s) => s.portability === p).length;
  return {
    tool: 'mrtr-port', version: 1, files: { scanned: 2, skipped: [] }, sites,
    summary: { sites: sites.length, auto: count('auto'), manual: count('manual'), unportable: count('unportable'), guarded: count('guarded') },
  };
}

const marker = (line: number, reason: string, file = 'src/tools.ts'): MarkerEntry => ({ file, line, column: 3, reason, message: `advice for ${reason}` });
const context = (markers: MarkerEntry[]) => ({ command: 'check' as const, cwd: '/w', markers, acknowledgedMarkers: 0, exitCode: 1, toolVersion: '0' });

describe('check after a port run', () => {
  const sites = [site(12), site(30), site(50), site(12, 'auto', 'src/other.ts')];
  // 10: the port left the site at 12; 28: a review note (an auto-class reason) above the site at 30; 45: the port left the site at 50
  const markers = [marker(10, 'not-ported'), marker(28, 'roots-retired'), marker(45, 'handler-not-ported')];

  it('knows which auto sites the port already left, by the refusal marker between the previous site and it', () => {
    const left = refusalsOf(report(sites), markers);
    expect([...left.entries()].map(([s, m]) => [s.file, s.line, m.reason])).toEqual([
      ['src/tools.ts', 12, 'not-ported'],
      ['src/tools.ts', 50, 'handler-not-ported'],
    ]);
  });

  it('gives the marker advice for those, and "port rewrites it" only for the others', () => {
    const messages = collectFindings(report(sites), context(markers)).filter((f) => f.site).map((f) => `${f.file}:${f.line} ${f.message}`);
    expect(messages.find((m) => m.startsWith('src/tools.ts:12 '))).toContain('`mrtr-port port` left it (not-ported): advice for not-ported');
    expect(messages.find((m) => m.startsWith('src/tools.ts:50 '))).toContain('left it (handler-not-ported)');
    expect(messages.find((m) => m.startsWith('src/tools.ts:30 '))).toContain('`mrtr-port port` rewrites it to inputRequired.elicit');
    expect(messages.find((m) => m.startsWith('src/other.ts:12 '))).toContain('rewrites it');
    expect(messages.filter((m) => m.includes('left it'))).toHaveLength(2);
  });

  it('the text summary counts only the sites a port would still rewrite, and says nothing when there are none', () => {
    expect(textReporter(report(sites), context(markers))).toContain('Run `mrtr-port port` to rewrite the 2 auto sites');
    const allLeft = [site(12), site(50)];
    expect(textReporter(report(allLeft), context(markers))).not.toContain('Run `mrtr-port port`');
  });

  it('a manual site keeps its own advice; a marker of another file does not count', () => {
    const left = refusalsOf(report([site(12, 'manual'), site(20)]), [marker(10, 'in-loop'), marker(15, 'not-ported', 'src/else.ts')]);
    expect(left.size).toBe(0);
  });
});
