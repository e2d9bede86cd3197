/**
 * The probe's command-line arguments, checked and turned into `ProbeOptions`. Every mistake is a
 * `ProbeUsageError` with a message naming the argument (exit 2), before anything is sent.
 */
import { ProbeUsageError } from './errors.js';
import type { AnswerChoice, ProbeCall } from './model.js';
import type { ProbeOptions } from './run.js';

/** `--call`, `--prompt`, `--resource` and `--args`, in the order they were given: `--args` belongs to the call before it. */
export interface CallToken {
  flag: 'call' | 'prompt' | 'resource' | 'args';
  value: string;
}

export interface RawProbeArguments {
  url: string;
  replicas: string[];
  tokens: CallToken[];
  headers: string[];
  ttlWait?: string;
  answers: string;
  allowEffects: boolean;
  timeout?: string;
}

export const ANSWER_CHOICES: readonly AnswerChoice[] = ['accept', 'decline', 'cancel', 'all'];
const MAX_TTL_WAIT_SECONDS = 3600;

export function parseProbeArguments(raw: RawProbeArguments): ProbeOptions {
  const url = parseUrl(raw.url, 'the target url');
  const replicas = raw.replicas.map((r) => parseUrl(r, '--replica'));
  if (replicas.includes(url)) throw new ProbeUsageError(`--replica ${url} is the target itself: give the URL of another replica`);
  if (!ANSWER_CHOICES.includes(raw.answers as AnswerChoice)) {
    throw new ProbeUsageError(`--answers must be one of ${ANSWER_CHOICES.join(', ')} (got ${JSON.stringify(raw.answers)})`);
  }
  const calls = parseCalls(raw.tokens);
  if (calls.length === 0) throw new ProbeUsageError('name at least one --call <tool> (or --prompt <name>, --resource <uri>) to probe');
  return {
    url,
    replicas,
    calls,
    headers: parseHeaders(raw.headers),
    answers: raw.answers as AnswerChoice,
    allowEffects: raw.allowEffects,
    ...(raw.ttlWait !== undefined ? { ttlWaitSeconds: parseSeconds(raw.ttlWait, '--ttl-wait', MAX_TTL_WAIT_SECONDS) } : {}),
    ...(raw.timeout !== undefined ? { timeoutMs: parseSeconds(raw.timeout, '--timeout', MAX_TTL_WAIT_SECONDS) * 1000 } : {}),
  };
}

export function parseCalls(tokens: readonly CallToken[]): ProbeCall[] {
  const calls: ProbeCall[] = [];
  let argsGiven = false;
  for (const token of tokens) {
    if (token.flag !== 'args') {
      calls.push(newCall(token));
      argsGiven = false;
      continue;
    }
    const last = calls.at(-1);
    if (last === undefined) throw new ProbeUsageError('--args must follow the --call or --prompt it belongs to');
    if (last.kind === 'resource') throw new ProbeUsageError(`--args after --resource ${last.uri}: a resource takes no arguments (put them in its URI)`);
    if (argsGiven) throw new ProbeUsageError(`--args given twice for ${last.kind} ${last.name}`);
    argsGiven = true;
    const args = parseArgs(token.value, `${last.kind} ${last.name}`);
    if (last.kind === 'prompt') {
      const bad = Object.entries(args).find(([, v]) => typeof v !== 'string');
      if (bad !== undefined) throw new ProbeUsageError(`--args of prompt ${last.name}: prompt arguments are strings (${bad[0]} is ${JSON.stringify(bad[1])})`);
      last.arguments = args as Record<string, string>;
    } else {
      last.arguments = args;
    }
  }
  const seen = new Set<string>();
  for (const call of calls) {
    const key = JSON.stringify(call);
    if (seen.has(key)) throw new ProbeUsageError(`the same call is named twice: ${call.kind} ${call.kind === 'resource' ? call.uri : call.name}`);
    seen.add(key);
  }
  return calls;
}

function newCall(token: CallToken): ProbeCall {
  const value = token.value.trim();
  if (value === '') throw new ProbeUsageError(`--${token.flag} needs a ${token.flag === 'resource' ? 'URI' : 'name'}`);
  if (token.flag === 'resource') {
    if (!URL.canParse(value)) throw new ProbeUsageError(`--resource ${JSON.stringify(value)} is not a URI`);
    return { kind: 'resource', uri: value };
  }
  return { kind: token.flag === 'call' ? 'tool' : 'prompt', name: value, arguments: {} };
}

function parseArgs(text: string, owner: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ProbeUsageError(`--args of ${owner} is not JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ProbeUsageError(`--args of ${owner} must be a JSON object (got ${JSON.stringify(value)})`);
  }
  return value as Record<string, unknown>;
}

function parseUrl(text: string, what: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ProbeUsageError(`${what} ${JSON.stringify(text)} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ProbeUsageError(`${what} ${text} must be an http:// or https:// URL`);
  return url.href;
}

/** `Name: value`; the name a valid HTTP token. */
function parseHeaders(headers: readonly string[]): Record<string, string> {
  const parsed: Record<string, string> = {};
  for (const header of headers) {
    const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):\s*(.*)$/.exec(header);
    if (match === null) throw new ProbeUsageError(`--header ${JSON.stringify(header)} must look like "Name: value"`);
    parsed[match[1].toLowerCase()] = match[2].trim();
  }
  return parsed;
}

function parseSeconds(text: string, what: string, max: number): number {
  const seconds = /^\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : NaN;
  if (!(seconds > 0 && seconds <= max)) throw new ProbeUsageError(`${what} must be a number of seconds between 0 and ${max} (got ${JSON.stringify(text)})`);
  return seconds;
}
