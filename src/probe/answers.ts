/**
 * The probe's answers to a round's `inputRequests`: elicitation forms filled from their
 * `requestedSchema` (or declined / cancelled), URL elicitations accepted, sampling with a scripted
 * model reply, roots with an empty list. Requests of any other method cannot be answered.
 */
import type { InputRequest } from './model.js';
import { contentFor } from './schema-values.js';

/** How the probe answers elicitations in one round. */
export type ElicitAction = 'accept' | 'decline' | 'cancel';

export const SCRIPTED_SAMPLING_REPLY = {
  role: 'assistant',
  content: { type: 'text', text: 'Scripted reply from mrtr-port probe.' },
  model: 'mrtr-port-probe',
  stopReason: 'endTurn',
} as const;

export interface Answers {
  inputResponses: Record<string, unknown>;
  /** Keys whose method the probe has no answer for. */
  unanswerable: string[];
  /** Keys answered as an elicitation (accepted, declined or cancelled). */
  elicitations: string[];
}

export function answersFor(inputRequests: Record<string, InputRequest>, action: ElicitAction): Answers {
  const answers: Answers = { inputResponses: {}, unanswerable: [], elicitations: [] };
  for (const [key, request] of Object.entries(inputRequests)) {
    switch (request.method) {
      case 'elicitation/create': {
        answers.elicitations.push(key);
        if (action !== 'accept') answers.inputResponses[key] = { action };
        else if (request.params?.mode === 'url') answers.inputResponses[key] = { action: 'accept' };
        else answers.inputResponses[key] = { action: 'accept', content: contentFor(request.params?.requestedSchema) };
        break;
      }
      case 'sampling/createMessage':
        answers.inputResponses[key] = SCRIPTED_SAMPLING_REPLY;
        break;
      case 'roots/list':
        answers.inputResponses[key] = { roots: [] };
        break;
      default:
        answers.unanswerable.push(key);
    }
  }
  return answers;
}
