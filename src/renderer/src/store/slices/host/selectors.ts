import type { AppState } from '../../app-store';

export const hostSelectors = {
  /** The banner shows once a connection attempt failed, not during the very first connect. */
  isDisconnected: (s: AppState) => s.connection === 'reconnecting',
  settings: (s: AppState) => s.settings,
  /** What to tell the person while the host cannot save; undefined while it can. */
  storageProblem: (s: AppState) => (s.storage.ok ? undefined : (s.storage.message ?? 'Switchboard cannot save right now.')),
  /** The newest problem the person has not dismissed. */
  hostProblem: (s: AppState) => (s.hostProblems.length > s.hostProblemsSeen ? s.hostProblems.at(-1) : undefined),
  rulesFor: (sessionId: string | undefined) => (s: AppState) =>
    sessionId !== undefined && s.rulesSessionId === sessionId ? s.rules : undefined,
};
