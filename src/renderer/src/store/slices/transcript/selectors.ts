import type { AppState } from '../../app-store';

export const transcriptSelectors = {
  events: (s: AppState) => s.transcript.events,
  /** The transcript shown belongs to the current session and its newest page is in. */
  isReady: (s: AppState) => s.transcript.loaded && s.transcript.sessionId === s.currentSessionId,
  isLoadingNewest: (s: AppState) =>
    s.currentSessionId !== undefined && !s.transcript.loaded && s.transcript.error === undefined,
  hasOlder: (s: AppState) => s.transcript.hasOlder,
  isLoadingOlder: (s: AppState) => s.transcript.loadingOlder,
  oldestSeq: (s: AppState) => s.transcript.oldestSeq,
  error: (s: AppState) => s.transcript.error,
};
