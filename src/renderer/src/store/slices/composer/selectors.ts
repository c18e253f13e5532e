import type { AppState } from '../../app-store';
import type { AvailableCommand } from '../../../../../shared/contract';
import type { PendingSend } from './initial-state';

const NO_COMMANDS: readonly AvailableCommand[] = [];

const EMPTY: readonly PendingSend[] = [];
let lastKey: unknown;
let lastSession: string | undefined;
let lastList: readonly PendingSend[] = EMPTY;

/** Optimistic prompts of the current session; stable per (map, session) for React. */
function pendingForCurrent(s: AppState): readonly PendingSend[] {
  if (s.pendingSends !== lastKey || s.currentSessionId !== lastSession) {
    lastKey = s.pendingSends;
    lastSession = s.currentSessionId;
    const list = [...s.pendingSends.values()].filter((p) => p.sessionId === s.currentSessionId);
    lastList = list.length === 0 ? EMPTY : list;
  }
  return lastList;
}

export const composerSelectors = {
  pendingForCurrent,
  sendErrorForCurrent: (s: AppState) =>
    s.sendError && s.sendError.sessionId === (s.currentSessionId ?? '') ? s.sendError : undefined,
  notices: (s: AppState) => s.notices,
  /** The current session's agent commands, for `/` completion. */
  commandsForCurrent: (s: AppState): readonly AvailableCommand[] =>
    (s.currentSessionId === undefined ? undefined : s.commandsBySession.get(s.currentSessionId)?.commands) ?? NO_COMMANDS,
  /** A Retry of the current session is on its way (its button waits). */
  isRetrying: (s: AppState) => {
    for (const p of s.pendingSends.values()) {
      if (p.retry && p.status === 'sending' && p.sessionId === s.currentSessionId) return true;
    }
    return false;
  },
};
