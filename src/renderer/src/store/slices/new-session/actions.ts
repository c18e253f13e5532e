import type { AgentSessionInfoT } from '../../../../../shared/contract';
import type { GetState, SetState } from '../../app-store';
import type { StoreDeps } from '../../deps';
import { sessionsSelectors } from '../sessions/selectors';
import type { NewSessionDialog } from './initial-state';
import { newSessionSelectors } from './selectors';

export interface NewSessionActions {
  /** Opens the dialog with the last choices: the last agent, the most recent folder. */
  openNewSession(): void;
  closeNewSession(): void;
  loadRecentFolders(): Promise<void>;
  setNewSessionAgent(agentId: string): void;
  /** The Folder box changed: the host checks it (answers to older text are dropped). */
  setNewSessionFolder(text: string): void;
  /** The native folder picker (desktop app): the chosen folder goes into the box. */
  pickNewSessionFolder(): Promise<void>;
  /** Adds a folder the agent may use besides its own, once the host says it is one. */
  addAdditionalDir(text: string): Promise<boolean>;
  removeAdditionalDir(path: string): void;
  /** Starts the session the dialog describes and closes it; false if Start is disabled. */
  submitNewSession(): boolean;
  /** Asks the chosen agent for its own sessions. */
  listAgentSessions(): Promise<void>;
  /** Opens one of them (or shows the session it is already open as) and closes the dialog. */
  openListedSession(listed: AgentSessionInfoT): void;
}

export function createNewSessionActions(set: SetState, get: GetState, deps: StoreDeps): NewSessionActions {
  const { api } = deps;
  /** Bumped by every folder change: an answer for an older text is not applied. */
  let checkToken = 0;

  const patch = (change: Partial<NewSessionDialog>): void => {
    const d = get().newSession;
    if (d) set({ newSession: { ...d, ...change } });
  };

  const check = async (text: string): Promise<void> => {
    const token = ++checkToken;
    patch({ folder: text, check: text.trim() ? { state: 'checking' } : { state: 'idle' } });
    if (!text.trim()) return;
    const res = await api['folders:check']({ path: text });
    if (token !== checkToken || !get().newSession) return;
    if (res.ok) patch({ check: { state: 'done', result: res.value } });
    // The link dropped or the host refused: say so where the folder's problem goes.
    else patch({ check: { state: 'done', result: { ok: false, problem: 'missing', message: `Could not check the folder: ${res.error.message}` } } });
  };

  return {
    openNewSession() {
      if (get().newSession) return;
      const s = get();
      const folder = s.recentFolders[0] ?? s.settings?.defaultCwd ?? '';
      set({
        newSession: {
          agentId: sessionsSelectors.newSessionAgentId(s),
          folder,
          check: { state: 'idle' },
          additionalDirs: [],
          additionalDirError: undefined,
          listed: { state: 'idle' },
        },
      });
      void check(folder);
      // Fresher recent folders (another window may have started sessions since).
      void get().loadRecentFolders();
    },

    closeNewSession() {
      checkToken++;
      set({ newSession: undefined });
    },

    async loadRecentFolders() {
      const res = await api['folders:recent']({});
      if (res.ok) set({ recentFolders: res.value.folders });
    },

    setNewSessionAgent(agentId) {
      patch({ agentId, listed: { state: 'idle' } });
    },

    setNewSessionFolder(text) {
      void check(text);
    },

    async pickNewSessionFolder() {
      const res = await api['folders:pick']({});
      if (!get().newSession) return;
      if (!res.ok) {
        patch({ check: { state: 'done', result: { ok: false, problem: 'missing', message: res.error.message } } });
        return;
      }
      if (!res.value.cancelled) await check(res.value.path);
    },

    async addAdditionalDir(text) {
      const res = await api['folders:check']({ path: text });
      const d = get().newSession;
      if (!d) return false;
      if (!res.ok || !res.value.ok) {
        patch({ additionalDirError: res.ok ? (res.value.ok ? undefined : res.value.message) : res.error.message });
        return false;
      }
      const path = res.value.path;
      patch({ additionalDirs: d.additionalDirs.includes(path) ? d.additionalDirs : [...d.additionalDirs, path], additionalDirError: undefined });
      return true;
    },

    removeAdditionalDir(path) {
      const d = get().newSession;
      if (d) patch({ additionalDirs: d.additionalDirs.filter((p) => p !== path) });
    },

    submitNewSession() {
      const s = get();
      const d = s.newSession;
      const agentId = newSessionSelectors.agentId(s);
      const cwd = newSessionSelectors.checkedFolder(s);
      if (!d || agentId === undefined || cwd === undefined || !newSessionSelectors.canStart(s)) return false;
      get().closeNewSession();
      get().chooseAgent(agentId);
      get().startSession({ agentId, cwd, additionalDirs: [...d.additionalDirs] });
      return true;
    },

    async listAgentSessions() {
      const agentId = get().newSession ? newSessionSelectors.agentId(get()) : undefined;
      if (agentId === undefined) return;
      patch({ listed: { state: 'loading', agentId } });
      const res = await api['agents:sessions']({ agentId });
      const d = get().newSession;
      if (d?.listed.state !== 'loading' || d.listed.agentId !== agentId) return;
      patch({ listed: res.ok ? { state: 'done', agentId, sessions: res.value.sessions } : { state: 'error', agentId, error: res.error } });
    },

    openListedSession(listed) {
      const agentId = get().newSession ? newSessionSelectors.agentId(get()) : undefined;
      if (agentId === undefined) return;
      get().closeNewSession();
      if (listed.openAs !== undefined && get().sessionsById.has(listed.openAs)) {
        void get().switchSession(listed.openAs);
        return;
      }
      get().chooseAgent(agentId);
      get().startSession({
        agentId,
        cwd: listed.cwd,
        acpSessionId: listed.acpSessionId,
        ...(listed.title === undefined ? {} : { title: listed.title }),
        ...(listed.additionalDirs.length ? { additionalDirs: listed.additionalDirs } : {}),
      });
    },
  };
}
