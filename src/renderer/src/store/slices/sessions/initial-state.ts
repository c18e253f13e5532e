import type { SessionViewT, WireError } from '../../../../../shared/contract';

export interface SessionsState {
  /** Replaced on every change, never mutated (subscribers compare by reference). */
  sessionsById: ReadonlyMap<string, SessionViewT>;
  /**
   * What the last one-session change did: `to` is `from` with the views of `ids` replaced or
   * added. Readers that walk every session (the attention count, the sidebar's rows) look at
   * only those when their last `sessionsById` was `from` and the current one is `to`; any other
   * change of `sessionsById` (a list loaded, a session removed) leaves this behind, and they walk
   * all again. With 10,000 sessions listed each walk was a few ms per `session:updated`.
   */
  sessionsChanged: SessionsChange | undefined;
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

export interface SessionsChange {
  from: ReadonlyMap<string, SessionViewT>;
  to: ReadonlyMap<string, SessionViewT>;
  ids: readonly string[];
}

/** The ids that changed from `before` to `after`, when the last change recorded says (else undefined: any may have). */
export function sessionsChangedIds(
  before: ReadonlyMap<string, SessionViewT> | undefined,
  after: { sessionsById: ReadonlyMap<string, SessionViewT>; sessionsChanged: SessionsChange | undefined },
): readonly string[] | undefined {
  const c = after.sessionsChanged;
  return c && c.from === before && c.to === after.sessionsById ? c.ids : undefined;
}

export const sessionsInitialState: SessionsState = {
  sessionsById: new Map(),
  sessionsChanged: undefined,
  sessionOrder: [],
  currentSessionId: undefined,
  creatingSessionId: undefined,
  chosenAgentId: undefined,
  sessionsLoaded: false,
  booted: false,
  switchError: undefined,
};
