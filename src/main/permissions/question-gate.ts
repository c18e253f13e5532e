import type * as acp from '@agentclientprotocol/sdk';
import { randomUUID } from 'node:crypto';
import {
  maskAnswer,
  parseElicitationRequest,
  validateAnswer,
  type ElicitationContentT,
  type ElicitationQuestionT,
} from '../../shared/elicitation';
import type { PayloadOf, QuestionAction, QuestionViewT } from '../../shared/contract';
import { AppError } from '../../shared/errors';
import type { QuestionsRepo } from '../store/questions.repo';
import { unmodelled } from '../util/unmodelled';
import { PendingRequests, waitedFor, type Decision, type PendingRequestsOptions } from './pending-requests';
import { acpSdk } from '../util/acp-sdk';

export interface QuestionGateOptions extends PendingRequestsOptions {
  repo: QuestionsRepo;
  /** False for a session that is closing, ended or unknown: its questions are answered `cancel` at once. */
  isOpen(sessionId: string): boolean;
  /** Appends a transcript event. */
  record<K extends 'question_asked' | 'question_answered' | 'question_completed' | 'notice'>(sessionId: string, kind: K, payload: PayloadOf<K>): void;
}

type Response = acp.CreateElicitationResponse;

const CANCEL: Response = { action: 'cancel' };

/** How many accepted URL questions per session wait for their `elicitation/complete` (older ones are forgotten). */
const MAX_AWAITING_COMPLETION = 32;

/**
 * Questions from the agent (`elicitation/create`), kept like permission requests: shown in every
 * window watching the session (first answer wins), stored so a switch or reload shows them
 * again, answered `cancel` at the deadline when no window watches, on Stop, close, agent exit,
 * quit and when the agent withdraws one (then -32800). A form's answer is checked against the form here too
 * (a window is not trusted); the transcript keeps it with secret fields masked. A question that
 * cannot be shown (malformed, a URL that may not open) is refused to the agent with -32602 and
 * the reason, and noted in the transcript. An accepted URL question waits for the agent's
 * `elicitation/complete`, which the transcript records.
 */
export class QuestionGate extends PendingRequests<QuestionViewT, Response> {
  protected readonly cancelled: Response = CANCEL;
  /** Accepted URL questions by `elicitationId`: the agent's `elicitation/complete` closes them. */
  private readonly awaiting = new Map<string, { sessionId: string; requestId: string }>();

  constructor(private readonly opts: QuestionGateOptions) {
    super(opts, { timer: 'question', noun: 'question', tooLate: () => new AppError('question_answered', 'This question was already answered (in another window, or it timed out)') }, opts.repo);
  }

  /**
   * The agent asks a person something in session `sessionId`. Resolves with the answer; throws
   * an ACP invalid-params error (with the reason) for a question that cannot be shown.
   */
  ask(sessionId: string, params: unknown, signal?: AbortSignal): Promise<Response> {
    const parsed = parseElicitationRequest(params);
    if (!parsed.ok) {
      this.opts.record(sessionId, 'notice', { kind: 'question_refused', text: `The agent asked a question Switchboard cannot show. ${parsed.error.message}` });
      return Promise.reject(acpSdk().RequestError.invalidParams({ issues: parsed.error.issues }, parsed.error.message));
    }
    if (signal?.aborted || !this.opts.isOpen(sessionId)) return Promise.resolve(CANCEL);
    const { scope, question } = parsed.value;
    const toolCallId = 'toolCallId' in scope ? scope.toolCallId : undefined;
    const view: QuestionViewT = {
      requestId: randomUUID(),
      sessionId,
      ...(toolCallId === undefined ? {} : { toolCallId }),
      question,
      createdAt: this.opts.clock.now(),
    };
    this.opts.repo.insert(view);
    const extra = unmodelled(withoutTaken(params), {});
    this.opts.record(sessionId, 'question_asked', {
      requestId: view.requestId,
      ...(toolCallId === undefined ? {} : { toolCallId }),
      question,
      ...(extra ? { extra } : {}),
    });
    // Withdrawn by the agent (`$/cancel_request`): ACP defines no answer for that, so it is -32800.
    return this.wait(view, signal).then((answer) => {
      if (answer === CANCEL && signal?.aborted) throw acpSdk().RequestError.requestCancelled({ requestId: view.requestId });
      return answer;
    });
  }

  /**
   * A window's answer. Late (after the deadline or another window's answer), unknown and
   * foreign answers are refused and change nothing; an accepted form answer that does not fit
   * the form is refused with a reason per field (`details.issues`, path `content.<field>`).
   * Returns the question it answered.
   */
  answer(clientId: string, requestId: string, sessionId: string, action: QuestionAction, content: unknown): QuestionViewT {
    const pending = this.answering(requestId, sessionId);
    let response: Response = { action };
    if (action === 'accept' && pending.question.mode === 'form') {
      const checked = validateAnswer(pending.question.form, content);
      if (!checked.ok) {
        const issues = [
          ...Object.entries(checked.error.fields).map(([field, message]) => ({ path: ['content', field], message })),
          ...checked.error.form.map((message) => ({ path: ['content'], message })),
        ];
        throw new AppError('invalid_request', `The answer does not fit the form: ${issues.map((i) => `${i.path.slice(1).join('.') || 'answer'}: ${i.message}`).join('; ')}`, { issues });
      }
      response = { action, content: checked.value };
    } else if (content !== undefined && !(typeof content === 'object' && content !== null && Object.keys(content).length === 0)) {
      throw new AppError('invalid_request', action === 'accept' ? 'A URL question is answered without content' : `A ${action} carries no content`);
    }
    this.settle(requestId, response, { kind: 'window', clientId });
    if (action === 'accept' && pending.question.mode === 'url') this.awaitCompletion(sessionId, requestId, pending.question.elicitationId);
    return pending;
  }

  /** The agent's `elicitation/complete` for a URL question of this session; unknown ids are ignored (false). */
  complete(sessionId: string, elicitationId: string): boolean {
    const open = this.awaiting.get(elicitationId);
    if (!open || open.sessionId !== sessionId) return false;
    this.awaiting.delete(elicitationId);
    this.opts.record(sessionId, 'question_completed', { requestId: open.requestId, elicitationId });
    return true;
  }

  protected expired(_view: QuestionViewT, waitedMs: number): { response: Response; reason: string } {
    return { response: CANCEL, reason: `Cancelled automatically: no window watched this session for ${waitedFor(waitedMs)}` };
  }

  protected noteSleep(sessionId: string, text: string): void {
    this.opts.record(sessionId, 'notice', { kind: 'slept', text });
  }

  protected finish(view: QuestionViewT, response: Response, { decider, by, why }: Decision): void {
    // Only Switchboard's own answers get here: one of the three actions.
    const action = response.action as QuestionAction;
    this.opts.repo.decide(view.requestId, { action, decidedBy: by, ...(why ? { reason: why } : {}) }, this.opts.clock.now());
    const content = response.action === 'accept' && 'content' in response && response.content ? masked(view.question, response.content as ElicitationContentT) : undefined;
    this.opts.record(view.sessionId, 'question_answered', {
      requestId: view.requestId,
      action,
      ...(content ? { content } : {}),
      decider,
      ...(why ? { reason: why } : {}),
    });
  }

  private awaitCompletion(sessionId: string, requestId: string, elicitationId: string): void {
    this.awaiting.set(elicitationId, { sessionId, requestId });
    const mine = [...this.awaiting].filter(([, a]) => a.sessionId === sessionId);
    if (mine.length > MAX_AWAITING_COMPLETION) this.awaiting.delete(mine[0]![0]);
  }
}

/** The answer as the transcript keeps it: secret fields masked. */
function masked(question: ElicitationQuestionT, content: ElicitationContentT): ElicitationContentT {
  return question.mode === 'form' ? maskAnswer(question.form, content) : content;
}

/** What the agent sent besides what the question is made of (kept in the event's `extra`). */
function withoutTaken(params: unknown): Record<string, unknown> {
  if (typeof params !== 'object' || params === null) return {};
  const { sessionId: _s, toolCallId: _t, requestId: _r, mode: _m, message: _msg, requestedSchema: _schema, url: _u, elicitationId: _e, ...rest } = params as Record<string, unknown>;
  return rest;
}
