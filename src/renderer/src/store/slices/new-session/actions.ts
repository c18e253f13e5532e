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
  /**
   * The recent folders or the settings arrived: a dialog opened before them (a click while the
   * window was still loading) whose Folder box is empty and untouched gets the folder it would
   * have opened with.
   */
  newSessionDefaultsArrived(): void;
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
  /** The `Separate worktree` box. */
  setNewSessionWorktree(on: boolean): void;
  /** The Branch box changed: the host checks the name (answers to older text are dropped). */
  setNewSessionBranch(text: string): void;
  /** One more sibling session on that agent (the same agent may run more than once). */
  addAlsoRunOn(agentId: string): void;
  /** Removes the `index`th extra agent. */
  removeAlsoRunOn(index: number): void;
  /** Asks the chosen agent for its own sessions. */
  listAgentSessions(): Promise<void>;
  /** Opens one of them (or shows the session it is already open as) and closes the dialog. */
  openListedSession(listed: AgentSessionInfoT): void;
}

/** The contract's bound on `alsoRunOn`. */
const MAX_ALSO_RUN_ON = 7;

export function createNewSessionActions(set: SetState, get: GetState, deps: StoreDeps): NewSessionActions {
  const { api } = deps;
  /** Bumped by every folder change: an answer for an older text is not applied. */
  let checkToken = 0;
  let branchToken = 0;

  const patch = (change: Partial<NewSessionDialog>): void => {
    const d = get().newSession;
    if (d) set({ newSession: { ...d, ...change } });
  };

  const check = async (text: string): Promise<void> => {
    const token = ++checkToken;
    patch({ folder: text, check: text.trim() ? { state: 'checking' } : { state: 'idle' }, workspace: { state: 'idle' } });
    if (!text.trim()) return;
    const res = await api['folders:check']({ path: text });
    if (token !== checkToken || !get().newSession) return;
    if (res.ok) patch({ check: { state: 'done', result: res.value } });
    // The link dropped or the host refused: say so where the folder's problem goes.
    else patch({ check: { state: 'done', result: { ok: false, problem: 'missing', message: `Could not check the folder: ${res.error.message}` } } });
    if (res.ok && res.value.ok) await probe(res.value.path, token);
    else patch({ workspace: { state: 'idle' } });
  };

  /** Is the folder in a git repository? Prefills Branch and the box; a box left on prepares a worktree ahead. */
  const probe = async (path: string, token: number): Promise<void> => {
    patch({ workspace: { state: 'probing' } });
    const res = await api['workspace:probe']({ path });
    const d = get().newSession;
    if (token !== checkToken || !d) return;
    if (!res.ok) {
      // Not knowing whether it is a repository, the session starts in the folder as it is.
      patch({ workspace: { state: 'done', probe: { kind: 'no_git', message: `Could not check for a git repository: ${res.error.message}` } } });
      return;
    }
    const p = res.value;
    patch({ workspace: { state: 'done', probe: p } });
    if (p.kind !== 'repository') return;
    if (!d.branchEdited) patch({ branch: p.suggestedBranch ?? '' });
    // A name typed for another repository is checked again against this one.
    void checkBranch(get().newSession?.branch ?? '');
    if (newSessionSelectors.worktreeOn(get()) && !p.preparing) void prepare(path);
  };

  /** Starts making a worktree now, so Start only claims it; its answer changes nothing shown. */
  const prepare = async (path: string): Promise<void> => {
    const res = await api['workspace:probe']({ path, prepare: true });
    if (!res.ok) console.warn('workspace:probe with prepare failed; Start makes the worktree itself', res.error);
  };

  const checkBranch = async (name: string): Promise<void> => {
    const token = ++branchToken;
    const path = newSessionSelectors.checkedFolder(get());
    if (!name.trim() || path === undefined) {
      patch({ branchCheck: { state: 'idle' } });
      return;
    }
    patch({ branchCheck: { state: 'checking' } });
    const res = await api['branches:check']({ path, name });
    if (token !== branchToken || !get().newSession) return;
    patch({
      branchCheck: { state: 'done', result: res.ok ? res.value : { ok: false, problem: 'invalid', message: `Could not check the branch name: ${res.error.message}` } },
    });
  };

  /** The person typed in (or picked) the Folder box of the dialog now open. */
  let folderTouched = false;
  const defaultFolder = (): string => {
    const s = get();
    return s.recentFolders[0] ?? s.settings?.defaultCwd ?? '';
  };

  return {
    openNewSession() {
      if (get().newSession) return;
      const s = get();
      folderTouched = false;
      const folder = defaultFolder();
      set({
        newSession: {
          agentId: sessionsSelectors.newSessionAgentId(s),
          folder,
          check: { state: 'idle' },
          additionalDirs: [],
          additionalDirError: undefined,
          listed: { state: 'idle' },
          workspace: { state: 'idle' },
          worktree: undefined,
          branch: '',
          branchEdited: false,
          branchCheck: { state: 'idle' },
          alsoRunOn: [],
        },
      });
      void check(folder);
      // Fresher recent folders (another window may have started sessions since).
      void get().loadRecentFolders();
    },

    closeNewSession() {
      checkToken++;
      branchToken++;
      set({ newSession: undefined });
    },

    async loadRecentFolders() {
      const res = await api['folders:recent']({});
      if (!res.ok) return;
      set({ recentFolders: res.value.folders });
      get().newSessionDefaultsArrived();
    },

    newSessionDefaultsArrived() {
      const d = get().newSession;
      const folder = defaultFolder();
      if (!d || folderTouched || d.folder !== '' || folder === '') return;
      void check(folder);
    },

    setNewSessionAgent(agentId) {
      patch({ agentId, listed: { state: 'idle' } });
    },

    setNewSessionFolder(text) {
      folderTouched = true;
      void check(text);
    },

    setNewSessionWorktree(on) {
      patch({ worktree: on });
      const path = newSessionSelectors.checkedFolder(get());
      const ws = get().newSession?.workspace;
      if (on && path !== undefined && ws?.state === 'done' && ws.probe.kind === 'repository' && !ws.probe.preparing) void prepare(path);
    },

    setNewSessionBranch(text) {
      patch({ branch: text, branchEdited: true });
      void checkBranch(text);
    },

    addAlsoRunOn(agentId) {
      const d = get().newSession;
      if (d && d.alsoRunOn.length < MAX_ALSO_RUN_ON) patch({ alsoRunOn: [...d.alsoRunOn, agentId] });
    },

    removeAlsoRunOn(index) {
      const d = get().newSession;
      if (d) patch({ alsoRunOn: d.alsoRunOn.filter((_, i) => i !== index) });
    },

    async pickNewSessionFolder() {
      const res = await api['folders:pick']({});
      if (!get().newSession) return;
      if (!res.ok) {
        patch({ check: { state: 'done', result: { ok: false, problem: 'missing', message: res.error.message } } });
        return;
      }
      if (res.value.cancelled) return;
      folderTouched = true;
      await check(res.value.path);
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
      const worktree = newSessionSelectors.worktreeOn(s);
      const branch = newSessionSelectors.checkedBranch(s);
      if (d.worktree !== undefined && newSessionSelectors.isRepository(s)) {
        // The box's choice is remembered for this repository (the host may also note it on create).
        void api['repositories:save']({ path: cwd, worktreeDefault: d.worktree }).then((res) => {
          if (!res.ok) console.warn('Could not remember the Separate worktree choice', res.error);
        });
      }
      get().closeNewSession();
      get().chooseAgent(agentId);
      get().startSession({
        agentId,
        cwd,
        additionalDirs: [...d.additionalDirs],
        ...(worktree && branch !== undefined ? { worktree: { branch } } : {}),
        ...(worktree && d.alsoRunOn.length ? { alsoRunOn: [...d.alsoRunOn] } : {}),
      });
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
