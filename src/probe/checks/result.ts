/** Building a check's verdict: pass, fail or skip, with the exchanges that show it. */
import type { CheckId, CheckResult, Exchange } from '../model.js';

interface Extra {
  warning?: string;
  notes?: string[];
}

export function pass(id: CheckId, summary: string, exchanges: Exchange[] = [], extra: Extra = {}): CheckResult {
  return verdict(id, 'pass', summary, exchanges, extra);
}

export function fail(id: CheckId, summary: string, exchanges: Exchange[] = [], extra: Extra = {}): CheckResult {
  return verdict(id, 'fail', summary, exchanges, extra);
}

export function skip(id: CheckId, reason: string, exchanges: Exchange[] = [], extra: Extra = {}): CheckResult {
  return verdict(id, 'skip', reason, exchanges, extra);
}

function verdict(id: CheckId, status: CheckResult['status'], summary: string, exchanges: Exchange[], extra: Extra): CheckResult {
  return {
    id,
    status,
    summary,
    ...(extra.warning !== undefined ? { warning: extra.warning } : {}),
    evidence: { exchanges, ...(extra.notes !== undefined && extra.notes.length > 0 ? { notes: extra.notes } : {}) },
  };
}
