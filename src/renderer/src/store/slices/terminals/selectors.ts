import type { AppStore } from '../../app-store';
import { terminalKey, type LiveTerminal } from './initial-state';

export const terminalsSelectors = {
  /** The live state of a terminal of a session; stable while nothing about it changes. */
  terminal:
    (sessionId: string | undefined, terminalId: string) =>
    (s: AppStore): LiveTerminal | undefined =>
      sessionId === undefined ? undefined : s.terminals.get(terminalKey(sessionId, terminalId)),
};
