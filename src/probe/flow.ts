/**
 * Driving one call through its rounds the way a client does: send, read `input_required`, answer every
 * request, retry with the echoed `requestState` (on a new JSON-RPC id: the client does that), until the
 * call completes, fails, or asks for too long.
 */
import { answersFor, type Answers, type ElicitAction } from './answers.js';
import type { Endpoint } from './endpoint.js';
import type { Exchange, Outcome, ProbeCall } from './model.js';
import { askShape } from './outcome.js';

/** The client driver's default round cap: a flow still asking after 10 answered rounds loops. */
export const MAX_ROUNDS = 10;

export type AskingOutcome = Extract<Outcome, { kind: 'input_required' }>;

export interface Round {
  /** The exchange that returned `input_required`. */
  asked: Exchange & { response: AskingOutcome };
  /** What the probe answered (absent on the round a flow stopped at). */
  answers?: Answers;
}

export type FlowEnd =
  | 'complete'
  | 'error'
  | 'too-many-rounds'
  | 'unanswerable'
  /** A round asks again what was answered, with no requestState to carry the answer: no way forward. */
  | 'cannot-resume'
  /** Stopped on purpose at the asked round (`stopAt`). */
  | 'stopped';

export interface Flow {
  exchanges: Exchange[];
  rounds: Round[];
  end: FlowEnd;
  /** The last exchange: the completion, the error, or the round stopped at. */
  last: Exchange;
}

export interface DriveOptions {
  /** Where request i (0 = the first call) goes: one endpoint, or the next replica each time. */
  route: (index: number) => Endpoint;
  /** How elicitations are answered. */
  action: ElicitAction;
  /** Stop, without answering, when round `stopAt` (1-based) asks. */
  stopAt?: number;
}

export async function driveFlow(call: ProbeCall, options: DriveOptions): Promise<Flow> {
  const exchanges: Exchange[] = [];
  const rounds: Round[] = [];
  const answeredShapes = new Set<string>();
  let retry: { requestState?: string; inputResponses?: Record<string, unknown> } = {};
  for (let index = 0; ; index++) {
    const exchange = await options.route(index).send(call, retry);
    exchanges.push(exchange);
    const outcome = exchange.response;
    if (outcome.kind !== 'input_required') return { exchanges, rounds, end: outcome.kind, last: exchange };
    const round: Round = { asked: exchange as Round['asked'] };
    rounds.push(round);
    const shape = askShape(outcome) ?? '';
    if (options.stopAt === rounds.length) return { exchanges, rounds, end: 'stopped', last: exchange };
    if (rounds.length > MAX_ROUNDS) return { exchanges, rounds, end: 'too-many-rounds', last: exchange };
    if (outcome.requestState === undefined && answeredShapes.has(shape)) return { exchanges, rounds, end: 'cannot-resume', last: exchange };
    const answers = answersFor(outcome.inputRequests, options.action);
    if (answers.unanswerable.length > 0) return { exchanges, rounds, end: 'unanswerable', last: exchange };
    round.answers = answers;
    answeredShapes.add(shape);
    retry = { requestState: outcome.requestState, inputResponses: answers.inputResponses };
  }
}

