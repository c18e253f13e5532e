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

const NO_IDS: readonly string[] = [];
let lastIds: readonly string[] = NO_IDS;

/**
 * The ids of the current session's optimistic prompts, in order: the same array while they are
 * the same ids. A prompt's answer (`sending` → `accepted`) changes its entry but not its row's
 * place or key, and must not look like a new list to the transcript's virtualizer (a new key
 * function re-measures every row it shows).
 */
function pendingIdsForCurrent(s: AppState): readonly string[] {
  const list = pendingForCurrent(s);
  if (list.length === lastIds.length && list.every((p, i) => p.clientMessageId === lastIds[i])) return lastIds;
  lastIds = list.length === 0 ? NO_IDS : list.map((p) => p.clientMessageId);
  return lastIds;
}

export const composerSelectors = {
  pendingForCurrent,
  pendingIdsForCurrent,
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
