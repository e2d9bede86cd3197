/**
 * The probe's data: what it is asked to call, what it sent and got back, and the verdict of each check.
 * The JSON report (`--format json`) is `ProbeReport` as is; `version` changes only on a breaking change.
 */

/** One named call the probe drives: `--call`, `--prompt` or `--resource`. */
export type ProbeCall =
  | { kind: 'tool'; name: string; arguments: Record<string, unknown> }
  | { kind: 'prompt'; name: string; arguments: Record<string, string> }
  | { kind: 'resource'; uri: string };

/** What the server sent back for one request, reduced to what the checks reason about. */
export type Outcome =
  | {
      kind: 'input_required';
      inputRequests: Record<string, InputRequest>;
      requestState?: string;
    }
  | { kind: 'complete'; result: Record<string, unknown> }
  | {
      kind: 'error';
      /** JSON-RPC error code (number), SDK error code (string), or absent. */
      code?: number | string;
      message: string;
      data?: unknown;
      /** A tool result with `isError: true` (the call completed, as an error). */
      toolError?: boolean;
    };

export interface InputRequest {
  method: string;
  params?: Record<string, unknown>;
}

/** One request the probe sent and what came back: the evidence of every check. */
export interface Exchange {
  /** The URL the request went to (the target or a `--replica`). */
  to: string;
  /** Which client sent it: one that declares elicitation, sampling and roots, or one that declares none. */
  client: 'full' | 'no-capabilities';
  request: { method: string; params: Record<string, unknown> };
  /** HTTP status of the response, when one arrived. */
  status?: number;
  response: Outcome;
}

export const CHECK_IDS = [
  'round-trip',
  'replica',
  'tamper',
  'other-args',
  'other-call',
  'no-state',
  'expired',
  'replay-final',
  'decline',
  'cancel',
  'missing-answer',
  'capability',
  'ineligible',
  'state-readable',
  'state-size',
] as const;

export type CheckId = (typeof CHECK_IDS)[number];
export type CheckStatus = 'pass' | 'fail' | 'skip';

export interface CheckResult {
  id: CheckId;
  status: CheckStatus;
  /** One line: what was seen (pass/fail) or why the check did not run (skip). */
  summary: string;
  /** Set on a passing check that still found something worth a look (a readable signed state, a large state). */
  warning?: string;
  evidence: { exchanges: Exchange[]; notes?: string[] };
}

export interface CallReport {
  call: ProbeCall;
  checks: CheckResult[];
}

/** Which elicitation answers the genuine flows may give: `accept` completes the call once. */
export type AnswerChoice = 'accept' | 'decline' | 'cancel' | 'all';

export interface ProbeReport {
  tool: 'mrtr-port';
  version: 1;
  command: 'probe';
  target: { url: string; replicas: string[] };
  options: { answers: AnswerChoice; allowEffects: boolean; ttlWaitSeconds?: number };
  calls: CallReport[];
  summary: { checks: number; pass: number; fail: number; skip: number; warnings: number };
}
