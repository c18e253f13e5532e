import type { AppState } from '../../app-store';
import { stableValues } from '../../pending-journal';
import type { PendingQuestion } from './initial-state';

const pendingList = stableValues<PendingQuestion>();

export const questionsSelectors = {
  /** The current session's pending questions, oldest first (the same array until one changes). */
  pendingList: (s: AppState): readonly PendingQuestion[] => pendingList(s.pendingQuestions),
  /** The host opens a URL question's page itself (the desktop app); a browser follows the link. */
  hostOpensPages: (s: AppState) => s.hostInfo?.canOpenExternal === true,
};
