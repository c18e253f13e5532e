import type { SessionViewT, WireError } from '../../../../../shared/contract';

export interface SessionsState {
  /** Replaced on every change, never mutated (subscribers compare by reference). */
  sessionsById: ReadonlyMap<string, SessionViewT>;
  /** Ids, newest first; recomputed only when the set of sessions changes. */
  sessionOrder: readonly string[];
  /**
   * The session the window shows. Set at once by New session, before the host has answered
   * `sessions:create` (see `creatingSessionId`), so the composer targets it immediately.
   */
  currentSessionId: string | undefined;
  /** A session this window asked the host to create and that has no answer yet. */
  creatingSessionId: string | undefined;
  /** The agent picked for new sessions; undefined means the host's default agent. */
  chosenAgentId: string | undefined;
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
  creatingSessionId: undefined,
  chosenAgentId: undefined,
  sessionsLoaded: false,
  booted: false,
  switchError: undefined,
};
