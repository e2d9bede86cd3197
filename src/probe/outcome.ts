/**
 * What a request came back with, reduced to the three things a check reasons about: the server asks
 * (`input_required`), the call completed, or it failed (a JSON-RPC error, or a tool result with
 * `isError: true`). Plus the comparisons the checks need: "is this the same question?".
 */
import type { InputRequest, Outcome } from './model.js';

/** A result as `client.request(…, { allowInputRequired: true })` resolves it. */
export function outcomeOfResult(result: unknown): Outcome {
  const value = isRecord(result) ? result : {};
  if (value.resultType === 'input_required') {
    const requests = isRecord(value.inputRequests) ? value.inputRequests : {};
    const inputRequests: Record<string, InputRequest> = {};
    for (const [key, request] of Object.entries(requests)) {
      const r = isRecord(request) ? request : {};
      inputRequests[key] = {
        method: typeof r.method === 'string' ? r.method : '(none)',
        ...(isRecord(r.params) ? { params: r.params } : {}),
      };
    }
    return {
      kind: 'input_required',
      inputRequests,
      ...(typeof value.requestState === 'string' ? { requestState: value.requestState } : {}),
    };
  }
  if (value.isError === true) return { kind: 'error', toolError: true, message: resultText(value) || 'tool result with isError: true' };
  return { kind: 'complete', result: value };
}

/** An error the client threw: a JSON-RPC error from the server (number code) or an SDK error (string code). */
export function outcomeOfError(error: unknown): Outcome {
  if (error instanceof Error) {
    const { code, data } = error as Error & { code?: unknown; data?: unknown };
    return {
      kind: 'error',
      ...(typeof code === 'number' || typeof code === 'string' ? { code } : {}),
      message: error.message,
      ...(data !== undefined ? { data } : {}),
    };
  }
  return { kind: 'error', message: String(error) };
}

/** The text blocks of a tool or prompt result, or the text contents of a resource, joined; for summaries. */
export function resultText(result: Record<string, unknown>): string {
  const texts: string[] = [];
  const collect = (block: unknown) => {
    if (isRecord(block) && typeof block.text === 'string') texts.push(block.text);
  };
  for (const field of ['content', 'contents'] as const) {
    const list = result[field];
    if (Array.isArray(list)) list.forEach(collect);
  }
  if (Array.isArray(result.messages)) for (const message of result.messages) if (isRecord(message)) collect(message.content);
  return texts.join(' | ');
}

/** One line for a summary: `input_required (confirm: elicitation/create)`, `complete: "…"`, `error -32602: …`. */
export function describeOutcome(outcome: Outcome): string {
  switch (outcome.kind) {
    case 'input_required': {
      const asks = Object.entries(outcome.inputRequests).map(([key, r]) => `${key}: ${r.method}`);
      return `input_required (${asks.join(', ') || 'no inputRequests'}${outcome.requestState === undefined ? ', no requestState' : ''})`;
    }
    case 'complete': {
      const text = resultText(outcome.result);
      return text === '' ? 'complete' : `complete: ${quote(text)}`;
    }
    case 'error':
      return outcome.toolError ? `error result: ${quote(outcome.message)}` : `error${outcome.code === undefined ? '' : ` ${outcome.code}`}: ${quote(outcome.message)}`;
  }
}

/** The keys and methods a round asks for, order-free: two rounds with the same shape ask "the same thing". */
export function askShape(outcome: Outcome): string | undefined {
  if (outcome.kind !== 'input_required') return undefined;
  return Object.entries(outcome.inputRequests)
    .map(([key, r]) => `${key}=${r.method}`)
    .sort()
    .join('&');
}

/** Keys asked both times whose request params differ (the question text, its schema): JSON-canonical comparison. */
export function changedQuestions(before: Record<string, InputRequest>, after: Record<string, InputRequest>): string[] {
  return Object.keys(before).filter((key) => key in after && canonical(before[key]) !== canonical(after[key]));
}

export function canonical(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys(value[k])]));
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function quote(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(line.length > 120 ? `${line.slice(0, 117)}...` : line);
}
