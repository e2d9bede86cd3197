/**
 * Everything the checks of one call share: the endpoints, the settings, the genuine flow that
 * `round-trip` drove, and, computed once on first use, the genuine retry of the final round with the
 * attack's answers (the control every attack is judged against).
 */
import { answersFor, type Answers, type ElicitAction } from './answers.js';
import type { Endpoint } from './endpoint.js';
import { driveFlow, type AskingOutcome, type Flow } from './flow.js';
import type { Baseline } from './judge.js';
import type { AnswerChoice, Exchange, ProbeCall } from './model.js';

export interface ProbeSettings {
  answers: AnswerChoice;
  allowEffects: boolean;
  ttlWaitSeconds?: number;
}

/** A fresh flow stopped at the round whose answers would complete the call, and what an attack answers there. */
export interface FinalRound {
  flow: Flow;
  asked: AskingOutcome;
  answers: Answers;
}

export class CallContext {
  /** Set by `round-trip`: the call driven to its end on the target. */
  genuine: Flow | undefined;
  /** Set by `no-state` when the server completed on the answers alone. */
  completesWithoutState = false;
  private control: Promise<{ exchanges: Exchange[]; baseline: Baseline }> | undefined;
  /** The answer attacks give when they must not complete: chosen by `baseline()`. */
  private safeAction: 'decline' | 'cancel' = 'decline';

  constructor(
    readonly call: ProbeCall,
    /** Every call of the run, this one included (for `other-call`). */
    readonly calls: readonly ProbeCall[],
    readonly primary: Endpoint,
    readonly replicas: readonly Endpoint[],
    /** A client that declares no capabilities, on the target. */
    readonly bare: Endpoint,
    readonly settings: ProbeSettings,
  ) {}

  /** How genuine flows answer elicitations: accept when `--answers` allows it, else the one action given. */
  get genuineAction(): ElicitAction {
    const choice = this.settings.answers;
    return choice === 'all' ? 'accept' : choice;
  }

  /**
   * How attacks answer the final round: decline, so an accepted attack completes without its effect
   * (cancel when the server asks a declined question again); accept with --allow-effects.
   */
  get attackAction(): ElicitAction {
    return this.acceptsRepeatedEffects ? 'accept' : this.safeAction;
  }

  /** --allow-effects, and --answers lets the probe accept: retries that may complete for real are allowed. */
  get acceptsRepeatedEffects(): boolean {
    return this.settings.allowEffects && (this.settings.answers === 'all' || this.settings.answers === 'accept');
  }

  /** Why no check on the state can run, or undefined when they can. */
  stateCheckBlocker(options: { needsState: boolean }): string | undefined {
    const flow = this.genuine;
    if (flow === undefined || flow.end !== 'complete') return 'needs a completed round-trip';
    if (flow.rounds.length === 0) return 'the call completed without asking for input: no round to work on';
    if (options.needsState && flow.rounds.some((r) => r.asked.response.requestState === undefined)) {
      return 'the server asks without a requestState';
    }
    return undefined;
  }

  /** Why an attack (a retry that must be refused) cannot run, or undefined. */
  attackBlocker(): string | undefined {
    const blocker = this.stateCheckBlocker({ needsState: true });
    if (blocker !== undefined) return blocker;
    if (this.completesWithoutState) return 'the server completes on the answers alone (see no-state): no state to attack';
    return this.answerBlocker();
  }

  /** Default mode: the final round must hold an elicitation to decline, or an accepted attack would complete for real. */
  answerBlocker(): string | undefined {
    const last = this.genuine?.rounds.at(-1);
    if (last === undefined || this.acceptsRepeatedEffects) return undefined;
    if (answersFor(last.asked.response.inputRequests, 'decline').elicitations.length === 0) {
      return 'the final round asks no elicitation, so no answer there is safe to send (run with --allow-effects)';
    }
    return undefined;
  }

  /** Rounds in the genuine flow. */
  get roundCount(): number {
    return this.genuine?.rounds.length ?? 0;
  }

  /** A fresh flow on `route`, answered like the genuine one, stopped when its final round asks. */
  async freshFinalRound(route: (index: number) => Endpoint = () => this.primary): Promise<FinalRound | { diverged: Flow }> {
    const flow = await driveFlow(this.call, { route, action: this.genuineAction, stopAt: this.roundCount });
    if (flow.end !== 'stopped') return { diverged: flow };
    const asked = flow.rounds[flow.rounds.length - 1].asked.response;
    return { flow, asked, answers: answersFor(asked.inputRequests, this.attackAction) };
  }

  /**
   * The baseline of every attack: the genuine retry of a fresh final round with the attack's answers
   * (decline; cancel when a decline does not complete). When attacks answer accept (--allow-effects)
   * that retry would run the effect, and the genuine flow's own completion is the control.
   * Attacks call this before they build their answers: it picks the answer.
   */
  async baseline(): Promise<{ exchanges: Exchange[]; baseline: Baseline }> {
    this.control ??= this.computeBaseline();
    return this.control;
  }

  private async computeBaseline(): Promise<{ exchanges: Exchange[]; baseline: Baseline }> {
    const genuine = this.genuine!;
    const first = genuine.rounds[0].asked.response;
    const attacked = genuine.rounds[genuine.rounds.length - 1].asked.response;
    if (this.acceptsRepeatedEffects) return { exchanges: [], baseline: { first, attacked, control: genuine.last.response } };
    const exchanges: Exchange[] = [];
    let control: Baseline['control'] | undefined;
    for (const action of ['decline', 'cancel'] as const) {
      this.safeAction = action;
      const final = await this.freshFinalRound();
      if ('diverged' in final) return { exchanges: [...exchanges, ...final.diverged.exchanges], baseline: { first, attacked, control: final.diverged.last.response } };
      const retry = await this.primary.send(this.call, { requestState: final.asked.requestState, inputResponses: final.answers.inputResponses });
      exchanges.push(...final.flow.exchanges, retry);
      control = retry.response;
      if (control.kind === 'complete') break;
    }
    if (control!.kind !== 'complete') this.safeAction = 'decline';
    return { exchanges, baseline: { first, attacked, control: control! } };
  }
}
