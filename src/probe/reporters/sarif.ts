/**
 * `--format sarif`: SARIF 2.1.0, one rule per check id. A failed check is an `error` result, a check
 * that passed with a warning a `warning` result; each names the call as a logical location and carries
 * the decisive request and response (`webRequest` / `webResponse`). Passes and skips are counted in the
 * run's properties (the JSON report has them in full).
 */
import { createHash } from 'node:crypto';
import { SARIF_SCHEMA_URI } from '../../cli/reporters/sarif.js';
import { CHECK_CATALOG } from '../catalog.js';
import { describeCall } from '../endpoint.js';
import { CHECK_IDS, type CheckResult, type Exchange, type ProbeCall, type ProbeReport } from '../model.js';

const RULE_PREFIX = 'mrtr-probe/';

export function probeSarifReport(report: ProbeReport, toolVersion: string): string {
  const results = report.calls.flatMap(({ call, checks }) =>
    checks.filter((c) => c.status === 'fail' || c.warning !== undefined).map((check) => result(report, call, check)),
  );
  const log = {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'mrtr-port',
            version: toolVersion,
            semanticVersion: toolVersion,
            rules: CHECK_IDS.map((id) => ({
              id: `${RULE_PREFIX}${id}`,
              name: id,
              shortDescription: { text: `${id}: ${CHECK_CATALOG[id].does}` },
              fullDescription: { text: `Fails when ${CHECK_CATALOG[id].fails}.` },
              help: { text: `mrtr-port probe check ${id}: ${CHECK_CATALOG[id].does}; fails when ${CHECK_CATALOG[id].fails}. See docs/probe.md.` },
              defaultConfiguration: { level: id === 'state-size' ? 'warning' : 'error' },
            })),
          },
        },
        invocations: [{ executionSuccessful: true, commandLine: `mrtr-port probe ${report.target.url}` }],
        results,
        properties: { target: report.target, summary: report.summary },
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

function result(report: ProbeReport, call: ProbeCall, check: CheckResult) {
  const failed = check.status === 'fail';
  const name = describeCall(call);
  const decisive = check.evidence.exchanges.at(-1);
  return {
    ruleId: `${RULE_PREFIX}${check.id}`,
    ruleIndex: CHECK_IDS.indexOf(check.id),
    level: failed ? 'error' : 'warning',
    message: { text: `${name} on ${report.target.url}: ${failed ? check.summary : check.warning}` },
    locations: [{ logicalLocations: [{ name, fullyQualifiedName: `${report.target.url}#${name}`, kind: 'function' }] }],
    partialFingerprints: {
      'mrtrPortProbe/v1': createHash('sha256').update(`${new URL(report.target.url).pathname}\0${name}\0${check.id}`).digest('hex').slice(0, 32),
    },
    ...(decisive !== undefined ? web(decisive) : {}),
    properties: { status: check.status, notes: check.evidence.notes ?? [] },
  };
}

/** The request as the probe built it (the client adds the JSON-RPC id and the `_meta` envelope), and what came back. */
function web(exchange: Exchange) {
  return {
    webRequest: {
      protocol: 'HTTP',
      target: exchange.to,
      method: 'POST',
      body: { text: JSON.stringify({ jsonrpc: '2.0', method: exchange.request.method, params: exchange.request.params }) },
    },
    webResponse:
      exchange.status === undefined
        ? { noResponseReceived: true }
        : { protocol: 'HTTP', statusCode: exchange.status, properties: { outcome: exchange.response } },
  };
}
