/** What each check does and when it fails: the rule descriptions of SARIF and the table in docs/probe.md. */
import type { CheckId } from './model.js';

export const CHECK_CATALOG: Record<CheckId, { does: string; fails: string }> = {
  'round-trip': {
    does: 'completes the call, answering every round',
    fails: 'the server errors, loops past 10 rounds, or asks again with no requestState and no way to resume',
  },
  replica: {
    does: 'sends each retry to the next --replica',
    fails: 'a state minted on one replica does not open on another (a per-process key)',
  },
  tamper: {
    does: 'retries with one character of the state changed, at several places',
    fails: 'the server accepts a tampered state (completes, or uses the answers)',
  },
  'other-args': { does: 'replays the state with one argument changed', fails: 'the server accepts it' },
  'other-call': { does: 'replays the state on another named call', fails: 'the server accepts it' },
  'no-state': { does: 'sends the final answers without the state', fails: 'the server completes using the answers' },
  expired: { does: 'retries a state --ttl-wait seconds after it was minted', fails: 'the server accepts it' },
  'replay-final': {
    does: 'sends the completing retry twice (only with --allow-effects)',
    fails: 'the second one completes again instead of being refused',
  },
  decline: { does: 'answers decline', fails: 'the server asks the same question again, or errors' },
  cancel: { does: 'answers cancel', fails: 'the server asks the same question again, or errors' },
  'missing-answer': {
    does: 'retries with the state but no answers',
    fails: 'the server errors instead of asking again, or asks a different question (the code before the ask ran again)',
  },
  capability: {
    does: 'calls from a client that declares no elicitation, sampling or roots',
    fails: 'the server returns input_required asking for what was not declared',
  },
  ineligible: { does: 'calls tools/list, prompts/list and resources/list', fails: 'any of them returns input_required' },
  'state-readable': {
    does: 'decodes the state (base64, base64url, JSON)',
    fails: 'the arguments or answers appear in clear in an unsigned state (a warning when it is signed)',
  },
  'state-size': { does: 'measures the state', fails: 'never; over 8 KiB is a warning' },
};
