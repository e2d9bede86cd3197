/**
 * `--format text`: the target, what the run was allowed to do, then one line per check of each call;
 * a failed (or warned) check also shows its notes and the decisive request and response.
 */
import { describeCall } from '../endpoint.js';
import type { CheckResult, Exchange, ProbeReport } from '../model.js';
import { describeOutcome } from '../outcome.js';

const ID_WIDTH = 15;
const MAX_VALUE_CHARS = 60;

/** The line the probe prints before it sends anything, and the text report repeats. */
export function effectsNotice(allowEffects: boolean): string {
  return allowEffects
    ? '--allow-effects: attacks answer accept and replay-final sends the completing retry again: a side effect of each call may run more than once'
    : 'no side effect is repeated on purpose: the call completes once (round-trip); attacks answer decline (or cancel); replay-final needs --allow-effects';
}

export function probeTextReport(report: ProbeReport): string {
  const lines = [`mrtr-port probe ${report.target.url}`];
  if (report.target.replicas.length > 0) lines.push(`  replicas: ${report.target.replicas.join(', ')}`);
  const { answers, ttlWaitSeconds, allowEffects } = report.options;
  lines.push(`  answers: ${answers}; ttl-wait: ${ttlWaitSeconds === undefined ? 'none' : `${ttlWaitSeconds} s`}`);
  lines.push(`  ${effectsNotice(allowEffects)}`, '');
  for (const call of report.calls) {
    lines.push(describeCall(call.call));
    for (const check of call.checks) lines.push(...checkLines(check));
    lines.push('');
  }
  const { checks, pass, fail, skip, warnings } = report.summary;
  const calls = report.calls.length;
  lines.push(
    `${calls} call${calls === 1 ? '' : 's'}, ${checks} checks: ${pass} pass${warnings > 0 ? ` (${warnings} with a warning)` : ''}, ${fail} fail, ${skip} skip.`,
  );
  return `${lines.join('\n')}\n`;
}

function checkLines(check: CheckResult): string[] {
  const label = check.status === 'pass' && check.warning !== undefined ? 'warn' : check.status;
  const lines = [`  ${label.padEnd(5)} ${check.id.padEnd(ID_WIDTH)} ${check.summary}`];
  const indent = ' '.repeat(8 + ID_WIDTH);
  if (check.warning !== undefined) lines.push(`${indent}warning: ${check.warning}`);
  if (check.status !== 'fail') return lines;
  for (const note of check.evidence.notes ?? []) lines.push(`${indent}${note}`);
  const decisive = check.evidence.exchanges.at(-1);
  if (decisive !== undefined) lines.push(...exchangeLines(decisive, indent));
  return lines;
}

export function exchangeLines(exchange: Exchange, indent: string): string[] {
  const { method, params } = exchange.request;
  const shown = Object.entries(params)
    .filter(([key]) => key !== '_meta')
    .map(([key, value]) => `${key}=${shorten(JSON.stringify(value))}`);
  return [
    `${indent}→ ${method} to ${exchange.to}${exchange.client === 'no-capabilities' ? ' (client with no capabilities)' : ''}: ${shown.join(' ')}`,
    `${indent}← ${exchange.status === undefined ? '' : `HTTP ${exchange.status} `}${describeOutcome(exchange.response)}`,
  ];
}

function shorten(text: string): string {
  return text.length <= MAX_VALUE_CHARS ? text : `${text.slice(0, MAX_VALUE_CHARS - 12)}…(${text.length} chars)`;
}
