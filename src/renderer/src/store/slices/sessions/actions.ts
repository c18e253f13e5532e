import type { SessionViewT, SwitchResultT } from '../../../../../shared/contract';
import type { GetState, SetState } from '../../app-store';
import type { StoreDeps } from '../../deps';

export interface SessionsActions {
  /** First load: host info, the session list, then the session that was current last time. */
  start(): Promise<void>;
  refreshSessions(): Promise<void>;
  /** Applies a pushed or answered view unless a newer one is already known. */
  upsertSession(view: SessionViewT): void;
  switchSession(sessionId: string): Promise<void>;
  /** Starts a session with the host's default agent and folder and switches to it. */
  createSession(): Promise<string | undefined>;
  closeSession(sessionId: string): Promise<void>;
  /** After a reconnect: watch the current session again and catch up from lastSeq. */
  resubscribe(): Promise<void>;
}

function newestFirst(byId: ReadonlyMap<string, SessionViewT>): string[] {
  return [...byId.values()]
    .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1))
    .map((s) => s.id);
}

function isStale(known: SessionViewT | undefined, incoming: SessionViewT): boolean {
  return known !== undefined && incoming.updatedAt < known.updatedAt;
}

export function createSessionsActions(set: SetState, get: GetState, deps: StoreDeps): SessionsActions {
  const { api } = deps;

  /** Running and pending requests come from the switch answer, whatever was known before. */
  const applySwitchAnswer = (answer: SwitchResultT): void => {
    const view: SessionViewT = {
      ...answer.session,
      running: answer.running,
      pendingPermissions: answer.pendingPermissions.length,
    };
    const byId = new Map(get().sessionsById);
    const isNew = !byId.has(view.id);
    byId.set(view.id, view);
    set({ sessionsById: byId, ...(isNew ? { sessionOrder: newestFirst(byId) } : {}) });
    get().setPendingPermissions(answer.pendingPermissions);
  };

  return {
    async start() {
      await Promise.all([get().loadHostInfo(), get().refreshSessions()]);
      const last = deps.lastSession.get();
      if (last && get().sessionsById.has(last) && get().currentSessionId === undefined) {
        // Not awaited: booted means "the current session is decided", not "its page is in".
        void get().switchSession(last);
      }
      set({ booted: true });
    },

    async refreshSessions() {
      const res = await api['sessions:list']({});
      if (!res.ok) {
        if (res.error.code !== 'disconnected') get().pushNotice(`Could not load sessions: ${res.error.message}`);
        return;
      }
      // Sessions are never deleted, so merge: a view pushed while the list was in flight stays.
      const byId = new Map(get().sessionsById);
      for (const view of res.value) if (!isStale(byId.get(view.id), view)) byId.set(view.id, view);
      set({ sessionsById: byId, sessionOrder: newestFirst(byId), sessionsLoaded: true });
    },

    upsertSession(view) {
      const known = get().sessionsById.get(view.id);
      if (isStale(known, view)) return;
      const byId = new Map(get().sessionsById);
      byId.set(view.id, view);
      const reorder = !known || known.createdAt !== view.createdAt;
      set({ sessionsById: byId, ...(reorder ? { sessionOrder: newestFirst(byId) } : {}) });
    },

    async switchSession(sessionId) {
      const from = get().currentSessionId;
      const t = get().transcript;
      if (from === sessionId && t.sessionId === sessionId && !t.error && !get().switchError) return;
      const token = get().beginTranscript(sessionId);
      set({ currentSessionId: sessionId, switchError: undefined, sendError: undefined });
      get().setPendingPermissions([]);
      deps.lastSession.set(sessionId);
      const res = await api['sessions:switch'](
        from && from !== sessionId ? { sessionId, fromSessionId: from } : { sessionId },
      );
      if (get().transcript.token !== token) return;
      if (!res.ok) {
        set({ switchError: res.error });
        get().failTranscript(token, res.error);
        return;
      }
      applySwitchAnswer(res.value);
      await get().loadNewestPage(token, res.value.lastSeq);
    },

    async createSession() {
      const id = deps.newId();
      const res = await api['sessions:create']({ id });
      if (!res.ok) {
        get().pushNotice(`Could not start a session: ${res.error.message}`);
        return undefined;
      }
      get().upsertSession(res.value);
      await get().switchSession(res.value.id);
      return res.value.id;
    },

    async closeSession(sessionId) {
      const res = await api['sessions:close']({ sessionId });
      if (res.ok) get().upsertSession(res.value);
      else get().pushNotice(`Could not close the session: ${res.error.message}`);
    },

    async resubscribe() {
      const sessionId = get().currentSessionId;
      const token = get().transcript.token;
      // The switch goes out first, before requests queued while down (e.g. a prompt retry).
      const switching = sessionId ? api['sessions:switch']({ sessionId }) : undefined;
      await Promise.all([get().loadHostInfo(), get().refreshSessions()]);
      if (!sessionId || !switching) return;
      const res = await switching;
      if (get().transcript.token !== token) return;
      if (!res.ok) {
        if (res.error.code !== 'disconnected') set({ switchError: res.error });
        return;
      }
      set({ switchError: undefined });
      applySwitchAnswer(res.value);
      if (get().transcript.loaded) await get().catchUp();
      else await get().loadNewestPage(token, res.value.lastSeq);
    },
  };
}
