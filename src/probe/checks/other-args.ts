/**
 * `other-args`: the final round's state and answers, replayed with one argument changed, must be
 * refused. The changed call is first sent on its own (it must ask, as the original does), so a refusal
 * shows the state's binding, not arguments the server would reject anyway.
 */
import type { CallContext } from '../context.js';
import type { CheckResult, Exchange, ProbeCall } from '../model.js';
import { describeOutcome } from '../outcome.js';
import { attackCheck, divergedReason } from './attack.js';
import { skip } from './result.js';

const MAX_CANDIDATES = 3;

export async function otherArgsCheck(ctx: CallContext): Promise<CheckResult> {
  const blocker = ctx.attackBlocker();
  if (blocker !== undefined) return skip('other-args', blocker);
  await ctx.baseline();
  const candidates = changedCalls(ctx.call).slice(0, MAX_CANDIDATES);
  if (candidates.length === 0) return skip('other-args', 'the call has no argument to change');
  const tried: Exchange[] = [];
  for (const candidate of candidates) {
    const control = await ctx.primary.send(candidate.call);
    tried.push(control);
    if (control.response.kind !== 'input_required') continue;
    const final = await ctx.freshFinalRound();
    if ('diverged' in final) return skip('other-args', divergedReason(final.diverged), [...tried, ...final.diverged.exchanges]);
    const attack = {
      label: candidate.change,
      call: candidate.call,
      retry: { requestState: final.asked.requestState, inputResponses: final.answers.inputResponses },
    };
    return attackCheck(ctx, 'other-args', [...tried, ...final.flow.exchanges], [attack], {
      accepted: (_, exchange) => `accepted the state replayed with ${candidate.change}: ${describeOutcome(exchange.response)}`,
      refused: () => `refused the state replayed with ${candidate.change}`,
    });
  }
  return skip(
    'other-args',
    `no changed argument makes a call the server asks for (${candidates.map((c) => c.change).join('; ')}): nothing to replay the state on`,
    tried,
  );
}

/** The call with one argument changed (same type, one character or one unit apart), one per argument. */
export function changedCalls(call: ProbeCall): { call: ProbeCall; change: string }[] {
  if (call.kind === 'resource') {
    const uri = changedText(call.uri);
    return uri === call.uri ? [] : [{ call: { kind: 'resource', uri }, change: `uri ${JSON.stringify(uri)}` }];
  }
  const changes: { call: ProbeCall; change: string }[] = [];
  for (const [name, value] of Object.entries(call.arguments)) {
    const changed = changedValue(value);
    if (changed === undefined) continue;
    const change = `${name}: ${JSON.stringify(changed)} instead of ${JSON.stringify(value)}`;
    const args = { ...call.arguments, [name]: changed };
    changes.push({ call: call.kind === 'tool' ? { ...call, arguments: args } : { ...call, arguments: args as Record<string, string> }, change });
  }
  return changes;
}

function changedValue(value: unknown): unknown {
  if (typeof value === 'string') return value === '' ? 'x' : changedText(value);
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'boolean') return !value;
  return undefined;
}

/** The last letter or digit moved one step (z→a, 9→0), so the text keeps its shape and format. */
function changedText(text: string): string {
  for (let at = text.length - 1; at >= 0; at--) {
    const ch = text[at];
    let next: string | undefined;
    if (/[0-8a-yA-Y]/.test(ch)) next = String.fromCharCode(ch.charCodeAt(0) + 1);
    else if (ch === '9') next = '0';
    else if (ch === 'z') next = 'a';
    else if (ch === 'Z') next = 'A';
    if (next !== undefined) return text.slice(0, at) + next + text.slice(at + 1);
  }
  return `${text}x`;
}
