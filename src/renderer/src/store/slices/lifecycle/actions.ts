import type { GetState, SetState } from '../../app-store';
import type { StoreDeps } from '../../deps';

/** Sign-in, Retry, archive, restore and delete: what a session needs besides messages. */
export interface LifecycleActions {
  /** Signs in with one method of the request the session shows (`value` for an environment variable). */
  authenticate(sessionId: string, methodId: string, value?: string): Promise<void>;
  /** Starts a session whose agent never started, once, on purpose. */
  retrySession(sessionId: string): Promise<void>;
  archiveSession(sessionId: string): Promise<void>;
  restoreSession(sessionId: string): Promise<void>;
  deleteSession(sessionId: string): Promise<void>;
  /** Runs a terminal sign-in command in a terminal window (desktop app). */
  openLoginTerminal(sessionId: string, methodId: string): Promise<void>;
  /** The host deleted the session (this window or another): it leaves the list. */
  removeSession(sessionId: string): void;
}

export function createLifecycleActions(set: SetState, get: GetState, deps: StoreDeps): LifecycleActions {
  const { api } = deps;
  const viewOrNotice = async (what: string, call: Promise<Awaited<ReturnType<typeof api['sessions:archive']>>>) => {
    const res = await call;
    if (res.ok) get().upsertSession(res.value);
    else get().pushNotice(`Could not ${what} the session: ${res.error.message}`);
  };
  return {
    async authenticate(sessionId, methodId, value) {
      set({ signIn: { sessionId, methodId, status: 'running' } });
      const res = await api['agents:authenticate']({ sessionId, methodId, ...(value !== undefined ? { value } : {}) });
      set({
        signIn: res.ok
          ? { sessionId, methodId, status: 'done', message: res.value.message }
          : { sessionId, methodId, status: 'failed', message: res.error.message },
      });
    },

    retrySession(sessionId) {
      return viewOrNotice('retry', api['sessions:retry']({ sessionId }));
    },

    archiveSession(sessionId) {
      return viewOrNotice('archive', api['sessions:archive']({ sessionId }));
    },

    restoreSession(sessionId) {
      return viewOrNotice('restore', api['sessions:restore']({ sessionId }));
    },

    async deleteSession(sessionId) {
      const res = await api['sessions:delete']({ sessionId });
      if (res.ok) get().removeSession(sessionId);
      else get().pushNotice(`Could not delete the session: ${res.error.message}`);
    },

    async openLoginTerminal(sessionId, methodId) {
      const res = await api['agents:login']({ sessionId, methodId });
      set({
        signIn: res.ok
          ? { sessionId, methodId, status: 'done', message: 'Opened in a terminal: finish signing in there, then press Retry.' }
          : { sessionId, methodId, status: 'failed', message: res.error.message },
      });
    },

    removeSession(sessionId) {
      const { sessionsById, sessionOrder, currentSessionId } = get();
      if (!sessionsById.has(sessionId)) return;
      const next = new Map(sessionsById);
      next.delete(sessionId);
      set({
        sessionsById: next,
        sessionOrder: sessionOrder.filter((id) => id !== sessionId),
        ...(currentSessionId === sessionId ? { currentSessionId: undefined } : {}),
      });
    },
  };
}
