import type { QuestionViewT } from '../../../../../shared/contract';

/** A refused answer: what the host said, and the reason beside each field it named. */
export interface QuestionError {
  message: string;
  fields: Readonly<Record<string, string>>;
}

/** A question of the current session waiting for the person, with its answer's progress. */
export interface PendingQuestion {
  view: QuestionViewT;
  /** The answer is on its way (the buttons are disabled meanwhile). */
  answering: boolean;
  /** The host refused the last answer; the question stays open. */
  error?: QuestionError;
}

export interface QuestionsState {
  /** By requestId, in arrival order. */
  pendingQuestions: ReadonlyMap<string, PendingQuestion>;
}

export const questionsInitialState: QuestionsState = { pendingQuestions: new Map() };
