import type { ElicitationContentT } from '../../../../../shared/elicitation';
import type { EventPayload, QuestionAction, QuestionViewT } from '../../../../../shared/contract';
import type { GetState, SetState } from '../../app-store';
import type { StoreDeps } from '../../deps';
import { PendingJournal, withoutKey } from '../../pending-journal';
import type { PendingQuestion } from './initial-state';

export interface QuestionsActions {
  setPendingQuestions(list: readonly QuestionViewT[]): void;
  questionAsked(question: QuestionViewT): void;
  questionResolved(resolved: EventPayload<'question:resolved'>): void;
  /** A marker of the question pushes applied so far (take it when a snapshot is asked for). */
  questionsMark(): number;
  /** A switch answer's pending questions, as of `mark` (see `PendingJournal`). */
  applyQuestionsSnapshot(list: readonly QuestionViewT[], mark: number): void;
  /**
   * Answers a question (`content` with `accept` of a form, already checked by the form). True
   * when the host took it; a refusal leaves the question open with the host's reasons.
   */
  answerQuestion(requestId: string, action: QuestionAction, content?: ElicitationContentT): Promise<boolean>;
}

/** The host's refusal of an answer to a question that is gone: it closes with this notice. */
function goneNotice(code: string): string | undefined {
  if (code === 'question_answered') return 'That question was already answered in another window, or it timed out.';
  if (code === 'not_found') return 'That question is no longer pending.';
  return undefined;
}

export function createQuestionsActions(set: SetState, get: GetState, deps: StoreDeps): QuestionsActions {
  const journal = new PendingJournal<QuestionViewT>();
  const update = (requestId: string, change: (q: PendingQuestion) => PendingQuestion | undefined): void => {
    const q = get().pendingQuestions.get(requestId);
    if (!q) return;
    const next = change(q);
    set({ pendingQuestions: next ? new Map(get().pendingQuestions).set(requestId, next) : withoutKey(get().pendingQuestions, requestId) });
  };
  return {
    setPendingQuestions(list) {
      set({ pendingQuestions: new Map(list.map((view) => [view.requestId, { view, answering: false }])) });
    },
    questionAsked(view) {
      if (view.sessionId !== get().currentSessionId) return;
      journal.noteRequested(view);
      set({ pendingQuestions: new Map(get().pendingQuestions).set(view.requestId, { view, answering: false }) });
    },
    questionResolved({ requestId, sessionId }) {
      if (sessionId !== get().currentSessionId) return;
      journal.noteResolved(requestId);
      update(requestId, () => undefined);
    },
    questionsMark() {
      return journal.mark();
    },
    applyQuestionsSnapshot(list, mark) {
      // Keeps the progress (and refusal) of questions that are still pending.
      const known = get().pendingQuestions;
      const merged = journal.merge(list, mark, get().currentSessionId);
      set({ pendingQuestions: new Map(merged.map((view) => [view.requestId, { ...known.get(view.requestId), view, answering: known.get(view.requestId)?.answering ?? false }])) });
    },
    async answerQuestion(requestId, action, content) {
      const pending = get().pendingQuestions.get(requestId);
      if (!pending || pending.answering) return false;
      update(requestId, (q) => ({ view: q.view, answering: true }));
      const res = await deps.api['questions:answer']({ requestId, sessionId: pending.view.sessionId, action, ...(content ? { content } : {}) });
      if (res.ok) {
        update(requestId, () => undefined);
        return true;
      }
      const gone = goneNotice(res.error.code);
      if (gone) {
        update(requestId, () => undefined);
        get().pushNotice(gone);
        return false;
      }
      // The host checks a form's answer again and names each field it refused.
      const fields: Record<string, string> = {};
      for (const issue of res.error.details?.issues ?? []) {
        const [first, field] = issue.path;
        if (first === 'content' && typeof field === 'string') fields[field] = issue.message;
      }
      const message = res.error.code === 'disconnected' ? 'Not sent: the connection was lost. Try again.' : res.error.message;
      update(requestId, (q) => ({ view: q.view, answering: false, error: { message, fields } }));
      return false;
    },
  };
}
