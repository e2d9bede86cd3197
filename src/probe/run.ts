/**
 * One probe run: connect to the target and every replica, then for each named call run every check in
 * turn on one `CallContext`, and end with the expiry retries once `--ttl-wait` has passed for all of them.
 */
import { answerActionCheck } from './checks/answer-action.js';
import { capabilityCheck } from './checks/capability.js';
import { dueAt, finishExpired, mintExpiring, type PendingExpiry } from './checks/expired.js';
import { ineligibleCheck } from './checks/ineligible.js';
import { missingAnswerCheck } from './checks/missing-answer.js';
import { noStateCheck } from './checks/no-state.js';
import { otherArgsCheck } from './checks/other-args.js';
import { otherCallCheck } from './checks/other-call.js';
import { replayFinalCheck } from './checks/replay-final.js';
import { replicaCheck } from './checks/replica.js';
import { roundTripCheck } from './checks/round-trip.js';
import { stateReadableCheck } from './checks/state-readable.js';
import { stateSizeCheck } from './checks/state-size.js';
import { tamperCheck } from './checks/tamper.js';
import { CallContext, type ProbeSettings } from './context.js';
import { Endpoint } from './endpoint.js';
import { ProbeUsageError } from './errors.js';
import { CHECK_IDS, type CallReport, type CheckId, type CheckResult, type Exchange, type ProbeCall, type ProbeReport } from './model.js';
import { isRecord } from './outcome.js';

export interface ProbeOptions extends ProbeSettings {
  url: string;
  replicas: string[];
  calls: ProbeCall[];
  headers: Record<string, string>;
  /** Per-request timeout (default 30 s). */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;

export async function runProbe(options: ProbeOptions): Promise<ProbeReport> {
  if (options.calls.length === 0) throw new ProbeUsageError('name at least one --call, --prompt or --resource to probe');
  const endpointOptions = { headers: options.headers, timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS };
  const opened: Endpoint[] = [];
  const open = async (url: string, client: Exchange['client']) => {
    const endpoint = await Endpoint.open(url, client, endpointOptions);
    opened.push(endpoint);
    return endpoint;
  };
  try {
    const primary = await open(options.url, 'full');
    const replicas: Endpoint[] = [];
    for (const url of options.replicas) replicas.push(await open(url, 'full'));
    const bare = await open(options.url, 'no-capabilities');
    const ineligible = await ineligibleCheck(primary);
    assertCallsListed(options.calls, ineligible.lists);

    const contexts = options.calls.map((call) => new CallContext(call, options.calls, primary, replicas, bare, options));
    const results = contexts.map(() => new Map<CheckId, CheckResult>());
    const pending: PendingExpiry[] = [];
    for (const [i, ctx] of contexts.entries()) {
      const put = (result: CheckResult) => results[i].set(result.id, result);
      put(await roundTripCheck(ctx));
      pending.push(await mintExpiring(ctx));
      put(await noStateCheck(ctx));
      const tamper = await tamperCheck(ctx);
      put(tamper);
      put(await otherArgsCheck(ctx));
      put(await otherCallCheck(ctx));
      put(await replicaCheck(ctx));
      put(await missingAnswerCheck(ctx));
      put(await answerActionCheck(ctx, 'decline'));
      put(await answerActionCheck(ctx, 'cancel'));
      put(await capabilityCheck(ctx));
      put(ineligible.result);
      put(stateReadableCheck(ctx, tamper));
      put(stateSizeCheck(ctx));
      put(await replayFinalCheck(ctx));
    }
    if (options.ttlWaitSeconds !== undefined) {
      const due = Math.max(0, ...pending.map((p) => dueAt(p, options.ttlWaitSeconds!)));
      await sleep(due - Date.now());
    }
    for (const [i, ctx] of contexts.entries()) results[i].set('expired', await finishExpired(ctx, pending[i]));

    const calls: CallReport[] = contexts.map((ctx, i) => ({ call: ctx.call, checks: CHECK_IDS.map((id) => results[i].get(id)!) }));
    return report(options, calls);
  } finally {
    await Promise.all(opened.map((e) => e.close()));
  }
}

/** A tool or prompt the server does not list is a typo in the arguments, not a finding. */
function assertCallsListed(calls: readonly ProbeCall[], lists: Map<string, Exchange>): void {
  for (const call of calls) {
    if (call.kind === 'resource') continue;
    const method = call.kind === 'tool' ? 'tools/list' : 'prompts/list';
    const field = call.kind === 'tool' ? 'tools' : 'prompts';
    const response = lists.get(method)?.response;
    if (response?.kind !== 'complete' || response.result.nextCursor !== undefined) continue;
    const listed = Array.isArray(response.result[field]) ? (response.result[field] as unknown[]) : [];
    const names = listed.flatMap((item) => (isRecord(item) && typeof item.name === 'string' ? [item.name] : []));
    if (!names.includes(call.name)) {
      throw new ProbeUsageError(`the server lists no ${call.kind} named ${JSON.stringify(call.name)} (${method}: ${names.join(', ') || 'none'})`);
    }
  }
}

function report(options: ProbeOptions, calls: CallReport[]): ProbeReport {
  const all = calls.flatMap((c) => c.checks);
  return {
    tool: 'mrtr-port',
    version: 1,
    command: 'probe',
    target: { url: options.url, replicas: [...options.replicas] },
    options: {
      answers: options.answers,
      allowEffects: options.allowEffects,
      ...(options.ttlWaitSeconds !== undefined ? { ttlWaitSeconds: options.ttlWaitSeconds } : {}),
    },
    calls,
    summary: {
      checks: all.length,
      pass: all.filter((c) => c.status === 'pass').length,
      fail: all.filter((c) => c.status === 'fail').length,
      skip: all.filter((c) => c.status === 'skip').length,
      warnings: all.filter((c) => c.warning !== undefined).length,
    },
  };
}

function sleep(ms: number): Promise<void> {
  return ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms));
}
