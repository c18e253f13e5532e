import type { AppState } from '../../app-store';

export const hostSelectors = {
  /** The banner shows once a connection attempt failed, not during the very first connect. */
  isDisconnected: (s: AppState) => s.connection === 'reconnecting',
  settings: (s: AppState) => s.settings,
  rulesFor: (sessionId: string | undefined) => (s: AppState) =>
    sessionId !== undefined && s.rulesSessionId === sessionId ? s.rules : undefined,
};
