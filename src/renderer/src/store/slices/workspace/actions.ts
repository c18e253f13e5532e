import type { ChangedFileT, SaveRepositorySettings, SetupOutputT, WireError, WorkspaceStatusT } from '../../../../../shared/contract';
import type { z } from 'zod';
import type { GetState, SetState } from '../../app-store';
import type { StoreDeps } from '../../deps';
import { ownEvents } from '../transcript/merge';
import { lastUserPrompt } from '../transcript/rows';
import { commitMessageFrom, gitFailure, shortCommit } from './git-failure';
import type { ChangesPanel, CompareView } from './initial-state';

export interface WorkspaceActions {
  /** Pushed `workspace:status`, or read on showing a session. */
  receiveWorkspaceStatus(status: WorkspaceStatusT): void;
  loadWorkspaceStatus(sessionId: string): Promise<void>;
  /** Pushed `workspace:changed`: an open Changes (or Compare) of that session lists again. */
  workspaceChanged(sessionId: string): void;
  openChanges(sessionId: string): void;
  closeChanges(): void;
  refreshChanges(): Promise<void>;
  selectChange(file: ChangedFileT): Promise<void>;
  setCommitMessage(text: string): void;
  setMergeSquash(squash: boolean): void;
  /** Revert one file to the base, after confirming. */
  askRevert(path: string): void;
  /** Every file back to the base, after confirming. */
  askDiscardAll(): void;
  commitChanges(): Promise<boolean>;
  /** Merges the session's branch into its base (from Changes, or from Compare with `compare`). */
  mergeBranch(sessionId: string, squash: boolean): Promise<boolean>;
  rebaseOnBase(): Promise<boolean>;
  /** `Restore to before this turn` (or `undo` a restore, revert or discard), after confirming. */
  askRestoreCheckpoint(sessionId: string, checkpointId: string, what?: 'turn' | 'undo'): void;
  recreateWorktree(sessionId: string): Promise<void>;
  openCompare(groupId: string): void;
  closeCompare(): void;
  refreshCompare(): Promise<void>;
  setCompareSquash(squash: boolean): void;
  loadRepositories(): Promise<void>;
  /** Returns the host's refusal, if any, for the form to show. */
  saveRepository(req: z.input<typeof SaveRepositorySettings>): Promise<WireError | undefined>;
  receiveSetupOutput(piece: SetupOutputT): void;
  loadSetupOutput(sessionId: string): Promise<void>;
}

export function createWorkspaceActions(set: SetState, get: GetState, deps: StoreDeps): WorkspaceActions {
  const { api } = deps;
  /** A list asked while one is in flight runs once more after it, so the last change is always shown. */
  let listAgain = false;
  let diffToken = 0;
  let compareAgain = false;
  /** The person typed in Commit message: it is no longer prefilled. */
  let messageEdited = false;

  /** The commit message a turn's prompt suggests: the session's last prompt, if its transcript is loaded here. */
  const promptOf = (sessionId: string): string => {
    const t = get().transcript;
    return t.sessionId === sessionId ? commitMessageFrom(lastUserPrompt(ownEvents(t))) : '';
  };

  const patchChanges = (sessionId: string, change: Partial<ChangesPanel>): void => {
    const c = get().changes;
    if (c?.sessionId === sessionId) set({ changes: { ...c, ...change } });
  };
  const patchCompare = (groupId: string, change: Partial<CompareView>): void => {
    const c = get().compare;
    if (c?.groupId === groupId) set({ compare: { ...c, ...change } });
  };

  const revert = async (sessionId: string, paths: string[] | 'all'): Promise<void> => {
    const op = paths === 'all' ? 'discard' : 'revert';
    patchChanges(sessionId, { busy: op, failure: undefined, done: undefined });
    const res = paths === 'all' ? await api['changes:discard']({ sessionId }) : await api['changes:revert']({ sessionId, paths });
    if (!res.ok) return patchChanges(sessionId, { busy: undefined, failure: gitFailure(op, res.error) });
    const n = res.value.written.length + res.value.removed.length;
    patchChanges(sessionId, { busy: undefined, done: `${paths === 'all' ? 'Discarded' : 'Reverted'} ${n} file${n === 1 ? '' : 's'}.` });
    const sel = get().changes?.selected;
    if (sel && (paths === 'all' || paths.includes(sel.path))) patchChanges(sessionId, { selected: undefined, diff: undefined });
    await get().refreshChanges();
  };

  return {
    receiveWorkspaceStatus(status) {
      const known = get().workspaceStatus.get(status.sessionId);
      if (known && known.at > status.at) return;
      const next = new Map(get().workspaceStatus);
      next.set(status.sessionId, status);
      set({ workspaceStatus: next });
    },

    async loadWorkspaceStatus(sessionId) {
      const res = await api['workspace:status']({ sessionId });
      // A status that cannot be read leaves the header without git facts; Changes says why when opened.
      if (res.ok) get().receiveWorkspaceStatus(res.value);
    },

    workspaceChanged(sessionId) {
      if (get().changes?.sessionId === sessionId) void get().refreshChanges();
      const cmp = get().compare;
      if (cmp?.result?.sessions.some((s) => s.sessionId === sessionId)) void get().refreshCompare();
    },

    openChanges(sessionId) {
      if (get().changes?.sessionId === sessionId) return;
      messageEdited = false;
      set({
        changes: {
          sessionId,
          list: undefined,
          loading: false,
          listError: undefined,
          selected: undefined,
          diff: undefined,
          busy: undefined,
          failure: undefined,
          done: undefined,
          commitMessage: promptOf(sessionId),
          squash: false,
        },
      });
      void get().refreshChanges();
    },

    closeChanges() {
      diffToken++;
      set({ changes: undefined });
    },

    async refreshChanges() {
      const c = get().changes;
      if (!c) return;
      if (c.loading) {
        listAgain = true;
        return;
      }
      const { sessionId } = c;
      patchChanges(sessionId, { loading: true });
      const res = await api['changes:list']({ sessionId });
      patchChanges(sessionId, res.ok ? { loading: false, list: res.value, listError: undefined } : { loading: false, listError: res.error });
      // Opened before the transcript had loaded (or before the first prompt): prefill now.
      const now = get().changes;
      if (now?.sessionId === sessionId && now.commitMessage === '' && !messageEdited) patchChanges(sessionId, { commitMessage: promptOf(sessionId) });
      const sel = get().changes?.selected;
      if (res.ok && sel && get().changes?.sessionId === sessionId) {
        const still = res.value.files.find((f) => f.path === sel.path);
        // The diff shown follows the file: read again (it changed), or gone when the file is.
        if (still) void get().selectChange(still);
        else patchChanges(sessionId, { selected: undefined, diff: undefined });
      }
      if (listAgain && get().changes?.sessionId === sessionId) {
        listAgain = false;
        await get().refreshChanges();
      }
    },

    async selectChange(file) {
      const c = get().changes;
      if (!c) return;
      const token = ++diffToken;
      const sameFile = c.selected?.path === file.path && c.diff?.state === 'done';
      // Reading the same file again keeps its diff on screen until the new one arrives.
      patchChanges(c.sessionId, { selected: file, ...(sameFile ? {} : { diff: { state: 'loading' } }) });
      const res = await api['changes:diff']({
        sessionId: c.sessionId,
        path: file.path,
        ...(file.from !== undefined ? { from: file.from } : {}),
        ...(file.untracked ? { untracked: true } : {}),
      });
      if (token !== diffToken) return;
      patchChanges(c.sessionId, { diff: res.ok ? { state: 'done', diff: res.value } : { state: 'error', error: res.error } });
    },

    setCommitMessage(text) {
      messageEdited = true;
      const c = get().changes;
      if (c) patchChanges(c.sessionId, { commitMessage: text });
    },

    setMergeSquash(squash) {
      const c = get().changes;
      if (c) patchChanges(c.sessionId, { squash });
    },

    askRevert(path) {
      const c = get().changes;
      if (!c) return;
      const sessionId = c.sessionId;
      get().askConfirm({
        title: `Revert ${path}?`,
        text: `${path} goes back to how it is in the base. A checkpoint is taken first, so this can be undone.`,
        confirmLabel: 'Revert file',
        onConfirm: () => void revert(sessionId, [path]),
      });
    },

    askDiscardAll() {
      const c = get().changes;
      if (!c) return;
      const sessionId = c.sessionId;
      const n = c.list?.total ?? 0;
      get().askConfirm({
        title: 'Discard all changes?',
        text: `Every changed file (${n}) goes back to how it is in the base. A checkpoint is taken first, so this can be undone.`,
        confirmLabel: 'Discard all',
        onConfirm: () => void revert(sessionId, 'all'),
      });
    },

    async commitChanges() {
      const c = get().changes;
      if (!c || c.busy || !c.commitMessage.trim()) return false;
      const { sessionId } = c;
      patchChanges(sessionId, { busy: 'commit', failure: undefined, done: undefined });
      const res = await api['changes:commit']({ sessionId, message: c.commitMessage });
      if (!res.ok) {
        patchChanges(sessionId, { busy: undefined, failure: gitFailure('commit', res.error) });
        return false;
      }
      patchChanges(sessionId, { busy: undefined, done: `Committed ${shortCommit(res.value.commit)}.` });
      void get().loadWorkspaceStatus(sessionId);
      await get().refreshChanges();
      return true;
    },

    async mergeBranch(sessionId, squash) {
      const fromCompare = get().compare;
      const inCompare = fromCompare?.result?.sessions.some((s) => s.sessionId === sessionId) === true && get().changes?.sessionId !== sessionId;
      if (inCompare && fromCompare) patchCompare(fromCompare.groupId, { merging: sessionId, failure: undefined, done: undefined });
      else patchChanges(sessionId, { busy: 'merge', failure: undefined, done: undefined });
      const res = await api['workspace:merge']({ sessionId, ...(squash ? { squash: true } : {}) });
      const branch = get().sessionsById.get(sessionId)?.workspace?.branch ?? 'the branch';
      if (!res.ok) {
        const failure = gitFailure('merge', res.error);
        if (inCompare && fromCompare) patchCompare(fromCompare.groupId, { merging: undefined, failure });
        else patchChanges(sessionId, { busy: undefined, failure });
        return false;
      }
      const done = `Merged ${branch} into its base (${shortCommit(res.value.commit)}).`;
      if (inCompare && fromCompare) {
        patchCompare(fromCompare.groupId, { merging: undefined, done });
        void get().refreshCompare();
      } else {
        patchChanges(sessionId, { busy: undefined, done });
        await get().refreshChanges();
      }
      void get().loadWorkspaceStatus(sessionId);
      return true;
    },

    async rebaseOnBase() {
      const c = get().changes;
      if (!c || c.busy) return false;
      const { sessionId } = c;
      patchChanges(sessionId, { busy: 'rebase', failure: undefined, done: undefined });
      const res = await api['workspace:rebase']({ sessionId });
      if (!res.ok) {
        patchChanges(sessionId, { busy: undefined, failure: gitFailure('rebase', res.error) });
        return false;
      }
      patchChanges(sessionId, {
        busy: undefined,
        done: res.value.moved ? `Rebased on the base (${shortCommit(res.value.baseCommit)}).` : 'Already on the tip of the base.',
      });
      void get().loadWorkspaceStatus(sessionId);
      await get().refreshChanges();
      return true;
    },

    askRestoreCheckpoint(sessionId, checkpointId, what = 'turn') {
      get().askConfirm({
        title: what === 'turn' ? 'Restore to before this turn?' : 'Undo this restore?',
        text:
          what === 'turn'
            ? "The session's files go back to how they were before this turn. What is there now is checkpointed first, so this can be undone."
            : 'The files go back to how they were just before it. What is there now is checkpointed first.',
        confirmLabel: what === 'turn' ? 'Restore files' : 'Undo',
        onConfirm: () => {
          void (async () => {
            const res = await api['checkpoints:restore']({ sessionId, checkpointId });
            if (!res.ok) {
              const f = gitFailure('restore', res.error);
              get().pushNotice(`Could not restore the files: ${[f.message, ...f.words].join(' ')}`);
              return;
            }
            const n = res.value.written.length + res.value.removed.length;
            get().pushNotice(`Restored ${n} file${n === 1 ? '' : 's'}${what === 'turn' ? ' to before this turn' : ''}.`);
            get().workspaceChanged(sessionId);
          })();
        },
      });
    },

    async recreateWorktree(sessionId) {
      const res = await api['workspace:recreate']({ sessionId });
      if (res.ok) get().upsertSession(res.value);
      else get().pushNotice(`Could not make the worktree again: ${[res.error.message, ...(res.error.details?.stderrTail ?? [])].join(' ')}`);
    },

    openCompare(groupId) {
      if (get().compare?.groupId === groupId) return;
      set({ compare: { groupId, loading: false, result: undefined, error: undefined, merging: undefined, failure: undefined, done: undefined, squash: false } });
      void get().refreshCompare();
    },

    closeCompare() {
      set({ compare: undefined });
    },

    async refreshCompare() {
      const c = get().compare;
      if (!c) return;
      if (c.loading) {
        compareAgain = true;
        return;
      }
      const { groupId } = c;
      patchCompare(groupId, { loading: true });
      const res = await api['workspace:compare']({ groupId });
      patchCompare(groupId, res.ok ? { loading: false, result: res.value, error: undefined } : { loading: false, error: res.error });
      if (compareAgain && get().compare?.groupId === groupId) {
        compareAgain = false;
        await get().refreshCompare();
      }
    },

    setCompareSquash(squash) {
      const c = get().compare;
      if (c) patchCompare(c.groupId, { squash });
    },

    async loadRepositories() {
      set({ repositories: { ...get().repositories, loading: true } });
      const res = await api['repositories:list']({});
      set({ repositories: res.ok ? { loading: false, list: res.value, error: undefined } : { ...get().repositories, loading: false, error: res.error } });
    },

    async saveRepository(req) {
      const res = await api['repositories:save'](req);
      if (!res.ok) return res.error;
      const list = get().repositories.list;
      const at = list.findIndex((r) => r.repository === res.value.repository);
      set({ repositories: { ...get().repositories, list: at < 0 ? [...list, res.value] : list.map((r, i) => (i === at ? res.value : r)) } });
      return undefined;
    },

    receiveSetupOutput(piece) {
      const known = get().setupOutput.get(piece.sessionId);
      const base = known ?? { command: '', text: '', end: 0, truncated: false, running: true };
      // Pieces are placed by position: a repeat is dropped, a gap (a piece missed) is read again.
      if (piece.start + piece.text.length <= base.end) return;
      if (piece.start > base.end) {
        void get().loadSetupOutput(piece.sessionId);
        return;
      }
      const text = base.text + piece.text.slice(base.end - piece.start);
      const next = new Map(get().setupOutput);
      next.set(piece.sessionId, { ...base, text, end: piece.start + piece.text.length, running: true });
      set({ setupOutput: next });
    },

    async loadSetupOutput(sessionId) {
      const res = await api['setup:read']({ sessionId });
      if (!res.ok) return;
      const known = get().setupOutput.get(sessionId);
      if (known && known.end > res.value.end) return;
      const next = new Map(get().setupOutput);
      const { command, text, end, truncated, running } = res.value;
      next.set(sessionId, { command, text, end, truncated, running });
      set({ setupOutput: next });
    },
  };
}
