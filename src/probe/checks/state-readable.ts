/**
 * `state-readable`: decode each state the genuine flow carried (JSON, base64, base64url, each segment)
 * and look for the call's arguments and the answers given. In clear in an unsigned state, a client
 * can read and rewrite them: fail. In a signed state (an opaque MAC segment, and tampering refused)
 * they can only be read: a warning; seal with AEAD to hide them.
 */
import type { CallContext } from '../context.js';
import type { CheckResult, ProbeCall } from '../model.js';
import { isRecord } from '../outcome.js';
import { decodeState } from '../state-inspect.js';
import { fail, pass, skip } from './result.js';

/** Strings shorter than this are too common to count as found. */
const MIN_STRING_LENGTH = 3;

interface Secret {
  what: string;
  key: string;
  value: unknown;
}

export function stateReadableCheck(ctx: CallContext, tamper: CheckResult): CheckResult {
  const blocker = ctx.stateCheckBlocker({ needsState: true });
  if (blocker !== undefined) return skip('state-readable', blocker);
  const states = ctx.genuine!.rounds.map((r) => r.asked.response.requestState!);
  const secrets = [...argumentSecrets(ctx.call), ...answerSecrets(ctx)];
  const found = new Set<string>();
  let readable = false;
  let signed = true;
  for (const state of states) {
    const decoded = decodeState(state);
    if (decoded.readable.length > 0) readable = true;
    if (decoded.opaqueSegments.length === 0) signed = false;
    const texts = decoded.readable.map((p) => p.text);
    for (const secret of secrets) if (texts.some((text) => appears(secret, text))) found.add(describeSecret(secret));
  }
  if (tamper.status === 'fail') signed = false;
  if (found.size === 0) {
    return pass('state-readable', readable ? 'the state decodes, but carries no argument or answer in clear' : 'no part of the state decodes to text');
  }
  const list = [...found].join(', ');
  if (!signed) {
    return fail('state-readable', `${list} appear${found.size === 1 ? 's' : ''} in clear in a state with no signature: a client can read and rewrite ${found.size === 1 ? 'it' : 'them'}`);
  }
  return pass('state-readable', 'signed: a client cannot change the state', [], {
    warning: `${list} appear${found.size === 1 ? 's' : ''} in clear in the signed state: anyone holding it can read ${found.size === 1 ? 'it' : 'them'} (seal it with AEAD to hide them)`,
  });
}

function argumentSecrets(call: ProbeCall): Secret[] {
  if (call.kind === 'resource') return [{ what: 'the uri', key: 'uri', value: call.uri }];
  return leaves(call.arguments).map(([key, value]) => ({ what: `argument ${key}`, key, value }));
}

function answerSecrets(ctx: CallContext): Secret[] {
  const secrets: Secret[] = [];
  for (const round of ctx.genuine!.rounds) {
    for (const response of Object.values(round.answers?.inputResponses ?? {})) {
      const content = isRecord(response) && isRecord(response.content) && response.action === 'accept' ? response.content : undefined;
      if (content !== undefined) for (const [key, value] of leaves(content)) secrets.push({ what: `answer ${key}`, key, value });
    }
  }
  return secrets;
}

function leaves(object: Record<string, unknown>): [string, unknown][] {
  return Object.entries(object).flatMap(([key, value]): [string, unknown][] =>
    isRecord(value) ? leaves(value) : Array.isArray(value) ? value.map((v) => [key, v] as [string, unknown]) : [[key, value]],
  );
}

/** A string as a substring; a number or boolean only as the value of its own key in JSON (`"guests":4`). */
function appears(secret: Secret, text: string): boolean {
  if (typeof secret.value === 'string') return secret.value.length >= MIN_STRING_LENGTH && text.includes(secret.value);
  if (typeof secret.value === 'number' || typeof secret.value === 'boolean') {
    const key = JSON.stringify(secret.key).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return new RegExp(`${key}\\s*:\\s*${String(secret.value).replace('.', '\\.')}(?![\\w.])`).test(text);
  }
  return false;
}

function describeSecret(secret: Secret): string {
  return `${secret.what} (${JSON.stringify(secret.value)})`;
}
