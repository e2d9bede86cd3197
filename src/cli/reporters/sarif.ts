/**
 * `--format sarif`: SARIF 2.1.0 for code scanning. One run; rule ids `mrtr/<reason>` (or `mrtr/<form>`
 * for an auto site without a reason), `mrtr/unresolved-marker`, `mrtr/parse-error`; results sorted by
 * file, line, column; URIs relative to `%SRCROOT%` (the working directory), POSIX, each segment
 * percent-encoded; 1-based positions, never below 1; a line-independent fingerprint per result so
 * code scanning keeps tracking an alert when code above it moves.
 */
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { AnalysisReport } from '../../analyzer/model.js';
import type { ReportContext } from './context.js';
import { collectFindings, MARKER_RULE, PARSE_ERROR_RULE, reasonAdvice, RULE_PREFIX, type Finding } from './findings.js';

export const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';
const SRCROOT = '%SRCROOT%';

interface SarifRule {
  id: string;
  name: string;
  shortDescription: { text: string };
  help: { text: string };
  defaultConfiguration: { level: Finding['level'] };
}

export function sarifReporter(report: AnalysisReport, context: ReportContext): string {
  const findings = collectFindings(report, context);
  const rules = new Map<string, SarifRule>();
  for (const f of findings) if (!rules.has(f.ruleId)) rules.set(f.ruleId, describeRule(f));
  const ruleIds = [...rules.keys()].sort();
  const ruleIndex = new Map(ruleIds.map((id, i) => [id, i]));

  const seen = new Map<string, number>();
  const results = findings.map((f) => {
    const identity = [f.file, f.ruleId, f.site?.kind ?? '', f.site?.form ?? '', f.site?.handler?.name ?? '', f.title].join('\0');
    const ordinal = (seen.get(identity) ?? 0) + 1;
    seen.set(identity, ordinal);
    return {
      ruleId: f.ruleId,
      ruleIndex: ruleIndex.get(f.ruleId)!,
      level: f.level,
      message: { text: f.message },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: encodeRelativeUri(f.file), uriBaseId: SRCROOT },
            region: { startLine: f.line, startColumn: f.column },
          },
        },
      ],
      partialFingerprints: { 'mrtrPortFinding/v1': createHash('sha256').update(`${identity}\0${ordinal}`).digest('hex').slice(0, 32) },
      ...(f.site
        ? {
            properties: {
              kind: f.site.kind,
              form: f.site.form,
              sdk: f.site.sdk,
              portability: f.site.portability,
              reasons: f.site.reasons,
              handler: f.site.handler ? `${f.site.handler.kind}:${f.site.handler.name ?? ''}` : null,
            },
          }
        : {}),
    };
  });

  const log = {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'mrtr-port',
            version: context.toolVersion,
            semanticVersion: context.toolVersion,
            rules: ruleIds.map((id) => rules.get(id)!),
          },
        },
        originalUriBaseIds: { [SRCROOT]: { uri: directoryUri(context.cwd) } },
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

function describeRule(f: Finding): SarifRule {
  const id = f.ruleId;
  const short = id.slice(RULE_PREFIX.length);
  let text: string;
  let help: string;
  if (id === MARKER_RULE) {
    text = 'A @mrtr-port-todo (or @mcp-codemod-error) marker is still in the code.';
    help = 'Do what the marker says, then delete it; or acknowledge it with `// @mrtr-port-ignore <why>` on the line above.';
  } else if (id === PARSE_ERROR_RULE) {
    text = 'The file could not be parsed, so it was not analyzed.';
    help = 'Fix the syntax error, or exclude the file with --ignore if it is not TypeScript/JavaScript.';
  } else {
    const advice = reasonAdvice(short);
    text = advice ? `Legacy server-to-client request: ${short}.` : `Legacy server-to-client request written with ${short}().`;
    help = advice ?? 'Run `mrtr-port port` to rewrite it to inputRequired(...) (MCP 2026-07-28 multi round-trip requests).';
  }
  // A rule's findings share one level (guarded sites carry their own reason id), so the first one's is the rule's.
  return { id, name: short, shortDescription: { text }, help: { text: help }, defaultConfiguration: { level: f.level } };
}

export function encodeRelativeUri(file: string): string {
  return file
    .split('/')
    .map((segment) => (segment === '..' || segment === '.' ? segment : encodeURIComponent(segment)))
    .join('/');
}

function directoryUri(dir: string): string {
  const href = pathToFileURL(dir).href;
  return href.endsWith('/') ? href : `${href}/`;
}
