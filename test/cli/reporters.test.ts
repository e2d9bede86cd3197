import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { githubReporter, escapeData, escapeProperty } from '../../src/cli/reporters/github.js';
import { jsonReporter } from '../../src/cli/reporters/json.js';
import { sarifReporter, encodeRelativeUri } from '../../src/cli/reporters/sarif.js';
import { textReporter } from '../../src/cli/reporters/text.js';
import { sampleContext, sampleMarkers, sampleReport } from './sample-report.js';

const require = createRequire(import.meta.url);

/**
 * The official OASIS SARIF 2.1.0 schema (rtm.5), as shipped in @microsoft/jest-sarif. It is draft-04:
 * ajv 8 reads it once its draft-04 `id` is spelled `$id` and the draft-04 `$schema` is dropped; its
 * `language` pattern has a stray `]` that is only legal without the regex `u` flag (unicodeRegExp: false).
 */
function sarifValidator() {
  const schema = JSON.parse(readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8')) as Record<string, unknown>;
  const { $schema: _draft, id, ...rest } = schema;
  const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false });
  const addFormats = addFormatsModule as unknown as (a: Ajv) => Ajv;
  addFormats(ajv);
  return ajv.compile({ $id: id as string, ...rest });
}

interface SarifLog {
  version: string;
  runs: Array<{
    tool: { driver: { name: string; rules: Array<{ id: string; defaultConfiguration: { level: string } }> } };
    originalUriBaseIds: Record<string, { uri: string }>;
    results: Array<{
      ruleId: string;
      ruleIndex: number;
      level: string;
      message: { text: string };
      partialFingerprints: Record<string, string>;
      locations: Array<{ physicalLocation: { artifactLocation: { uri: string; uriBaseId: string }; region: { startLine: number; startColumn: number } } }>;
    }>;
  }>;
}

describe('sarif reporter', () => {
  const validate = sarifValidator();

  it('produces a log the official SARIF 2.1.0 schema accepts, for both commands', () => {
    for (const command of ['analyze', 'check'] as const) {
      const log = JSON.parse(sarifReporter(sampleReport(), sampleContext(command)));
      const ok = validate(log);
      expect(validate.errors ?? []).toEqual([]);
      expect(ok).toBe(true);
    }
  });

  it('the schema check can fail: a log with a bad level and a 0 line is rejected', () => {
    const log = JSON.parse(sarifReporter(sampleReport(), sampleContext('check'))) as SarifLog;
    log.runs[0].results[0].level = 'fatal';
    log.runs[0].results[1].locations[0].physicalLocation.region.startLine = 0;
    expect(validate(log)).toBe(false);
  });

  it('names rules mrtr/<reason> or mrtr/<form>, sorts results, uses relative encoded URIs and 1-based positions', () => {
    const log = JSON.parse(sarifReporter(sampleReport(), sampleContext('check'))) as SarifLog;
    const run = log.runs[0];
    expect(log.version).toBe('2.1.0');
    expect(run.tool.driver.name).toBe('mrtr-port');
    expect(run.originalUriBaseIds['%SRCROOT%'].uri).toBe('file:///work/some%20project/');
    const rows = run.results.map((r) => {
      const loc = r.locations[0].physicalLocation;
      return `${loc.artifactLocation.uri}:${loc.region.startLine}:${loc.region.startColumn} ${r.ruleId} ${r.level}`;
    });
    expect(rows).toEqual([
      'src/broken.ts:7:12 mrtr/parse-error error',
      'src/confirm.ts:8:23 mrtr/elicitInput error',
      'src/server.ts:125:9 mrtr/unresolved-marker error',
      'src/server.ts:126:30 mrtr/in-loop error',
      'src/server.ts:156:30 mrtr/era-guarded note',
      'src/server.ts:200:29 mrtr/notification-handler error',
      'src/we%2Cird%3A%20100%25%20name.ts:3:1 mrtr/createMessage error',
    ]);
    for (const r of run.results) {
      expect(run.tool.driver.rules[r.ruleIndex].id).toBe(r.ruleId);
      expect(r.locations[0].physicalLocation.artifactLocation.uriBaseId).toBe('%SRCROOT%');
    }
    const ids = run.tool.driver.rules.map((r) => r.id);
    expect(ids).toEqual([...ids].sort());
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('uses warning (not error) in analyze, note for guarded sites in both', () => {
    const log = JSON.parse(sarifReporter(sampleReport(), sampleContext('analyze'))) as SarifLog;
    const levels = Object.fromEntries(log.runs[0].results.map((r) => [r.ruleId, r.level]));
    expect(levels['mrtr/in-loop']).toBe('warning');
    expect(levels['mrtr/unresolved-marker']).toBe('warning');
    expect(levels['mrtr/era-guarded']).toBe('note');
  });

  it('keeps fingerprints stable when code moves, and distinct between findings', () => {
    const before = JSON.parse(sarifReporter(sampleReport(), sampleContext('check'))) as SarifLog;
    const moved = sampleReport();
    for (const s of moved.sites) s.line += 10;
    const after = JSON.parse(sarifReporter(moved, sampleContext('check'))) as SarifLog;
    const prints = (log: SarifLog) => log.runs[0].results.filter((r) => r.ruleId !== 'mrtr/unresolved-marker' && r.ruleId !== 'mrtr/parse-error').map((r) => r.partialFingerprints['mrtrPortFinding/v1']);
    expect(prints(after)).toEqual(prints(before));
    expect(new Set(prints(before)).size).toBe(prints(before).length);
  });

  it('encodes URI segments but keeps the slashes', () => {
    expect(encodeRelativeUri('a b/c#d/e.ts')).toBe('a%20b/c%23d/e.ts');
    expect(encodeRelativeUri('../x/y.ts')).toBe('../x/y.ts');
  });
});

describe('github reporter', () => {
  it('escapes data and properties as the workflow-command spec says', () => {
    expect(escapeData('100%\r\nnext')).toBe('100%25%0D%0Anext');
    expect(escapeProperty('a:b,c%\n')).toBe('a%3Ab%2Cc%25%0A');
  });

  it('prints one annotation per finding with file, line, col and title, then a plain summary', () => {
    const out = githubReporter(sampleReport(), sampleContext('check'));
    const lines = out.trimEnd().split('\n');
    const annotations = lines.filter((l) => l.startsWith('::'));
    expect(annotations).toHaveLength(7);
    expect(annotations[0]).toMatch(/^::error file=src\/broken\.ts,line=7,col=12,title=mrtr\/parse-error file could not be parsed::Could not parse/);
    const weird = annotations.find((l) => l.includes('we%2Cird'))!;
    expect(weird).toMatch(/^::error file=src\/we%2Cird%3A 100%25 name\.ts,line=3,col=1,title=mrtr\/createMessage auto%3A legacy sampling request::/);
    const marker = annotations.find((l) => l.includes('unresolved-marker'))!;
    expect(marker).toContain('::Port marker left (in-loop): unroll the loop,%0Athen delete this: 100%25');
    expect(annotations.find((l) => l.includes('era-guarded'))).toMatch(/^::notice /);
    // no raw newline can leak into a command: every line is either a command or the summary
    expect(lines.filter((l) => !l.startsWith('::'))).toEqual([
      'mrtr-port check: 5 files scanned, 5 legacy sites (2 auto, 1 manual, 1 unportable, 1 guarded), 1 markers left',
    ]);
  });

  it('uses warning in analyze', () => {
    const out = githubReporter(sampleReport(), sampleContext('analyze'));
    expect(out).toContain('::warning file=src/server.ts,line=126,col=30,');
    expect(out).not.toContain('::error ');
  });
});

describe('json reporter', () => {
  it('is the analyzer report plus the markers array, pretty-printed with a trailing newline', () => {
    const out = jsonReporter(sampleReport(), sampleContext('check'));
    expect(out.endsWith('}\n')).toBe(true);
    expect(JSON.parse(out)).toEqual({ ...sampleReport(), markers: sampleMarkers });
  });
});

describe('text reporter', () => {
  it('groups by file, then lists skipped files, reasons and the summary', () => {
    const out = textReporter(sampleReport(), sampleContext('check'));
    const lines = out.split('\n');
    const server = lines.indexOf('src/server.ts');
    expect(lines.indexOf('src/confirm.ts')).toBeLessThan(server);
    expect(lines[server + 1]).toMatch(/^ {2}125:9 +marker +in-loop +unroll the loop, then delete this: 100%$/);
    expect(lines[server + 2]).toMatch(/^ {2}126:30 +manual +elicitation elicitInput +tool "tag_untagged" +v2 +\[in-loop\]$/);
    expect(out).toContain('tool "delete_note" via confirm()');
    expect(out).toContain('[era-guarded]');
    expect(out).toContain('Skipped 2 files:\n  src/broken.ts: parse-error: Expression expected. (7:12)\n  src/link.ts: symlink-not-followed\n');
    expect(out).toMatch(/Reasons:\n {2}era-guarded: .*\n {2}in-loop: The ask runs once per loop iteration/);
    expect(out).toContain('Scanned 5 files: 5 legacy sites (2 auto, 1 manual, 1 unportable, 1 guarded); 2 files skipped; 1 marker left (1 acknowledged).');
    expect(out).toContain('check failed: 4 legacy sites to port, 1 marker to resolve, 1 file that could not be parsed.');
  });

  it('says the check passed when the exit code is 0', () => {
    const clean = { ...sampleReport(), sites: [], files: { scanned: 2, skipped: [] }, summary: { sites: 0, auto: 0, manual: 0, unportable: 0, guarded: 0 } };
    const out = textReporter(clean, sampleContext('check', { markers: [], acknowledgedMarkers: 0, exitCode: 0 }));
    expect(out).toBe('Scanned 2 files: 0 legacy sites (0 auto, 0 manual, 0 unportable, 0 guarded); 0 files skipped; 0 markers left.\ncheck passed: no legacy request left to port and no marker left.\n');
  });
});
