import type { SessionViewT, WireError } from '../../../../../shared/contract';

export interface SessionsState {
  /** Replaced on every change, never mutated (subscribers compare by reference). */
  sessionsById: ReadonlyMap<string, SessionViewT>;
  /** Ids, newest first; recomputed only when the set of sessions changes. */
  sessionOrder: readonly string[];
  currentSessionId: string | undefined;
  sessionsLoaded: boolean;
  /** start() finished: the last session was reselected if it still exists. */
  booted: boolean;
  /** Why the last switch to the current session failed, if it did. */
  switchError: WireError | undefined;
}

export const sessionsInitialState: SessionsState = {
  sessionsById: new Map(),
  sessionOrder: [],
  currentSessionId: undefined,
  sessionsLoaded: false,
  booted: false,
  switchError: undefined,
};
