import type { ExportFormatT } from '../../../../../shared/contract';
import type { GetState, SetState } from '../../app-store';
import type { StoreDeps } from '../../deps';

/** Sign-in, Retry, archive, restore and delete: what a session needs besides messages. */
export interface LifecycleActions {
  /** Signs in with one method of the request the session shows (`value` for an environment variable). */
  authenticate(sessionId: string, methodId: string, value?: string): Promise<void>;
  /** Starts a session whose agent never started, once, on purpose. */
  retrySession(sessionId: string): Promise<void>;
  /**
   * Archives it. A worktree session asks first: its folder is removed (uncommitted files
   * checkpointed, the branch kept) unless the person keeps it.
   */
  archiveSession(sessionId: string): Promise<void>;
  restoreSession(sessionId: string): Promise<void>;
  /**
   * Deletes it (after DeleteConfirm). `deleteBranch` also deletes a worktree's branch; one with
   * work not in its base asks a second time, naming what would be lost.
   */
  deleteSession(sessionId: string, options?: { deleteBranch?: boolean; confirmUnmerged?: boolean }): Promise<void>;
  /** The person names the session ('' gives the title back to the agent); false if the host refused. */
  renameSession(sessionId: string, title: string): Promise<boolean>;
  /** Shows the session in a window of its own (desktop app) or a new browser tab. */
  openInNewWindow(sessionId: string): Promise<void>;
  /** Runs a terminal sign-in command in a terminal window (desktop app). */
  openLoginTerminal(sessionId: string, methodId: string): Promise<void>;
  /** The host deleted the session (this window or another): it leaves the list. */
  removeSession(sessionId: string): void;
  /** Rename from the sidebar or a shortcut: shows the session and opens its name for editing. */
  beginRename(sessionId: string): void;
  endRename(): void;
  /** A new session with this one's transcript so far, forked by its agent; shown once made. */
  forkSession(sessionId: string): Promise<void>;
  /**
   * Edit and resend: a fork before the message `beforeSeq`, shown, then `text` sent there. False
   * (with a notice) when the fork was refused.
   */
  editAndResend(sessionId: string, beforeSeq: number, text: string): Promise<boolean>;
  /** `Export…` asks which format first (one dialog, from the header or the sidebar). */
  askExport(sessionId: string): void;
  cancelExport(): void;
  /** Writes the transcript as Markdown or JSON: through the save dialog (desktop) or as a download. */
  exportSession(sessionId: string, format: ExportFormatT): Promise<void>;
  /** Reads an exported JSON file back as a new read-only session, and shows it. */
  importSession(fileName: string, text: string): Promise<void>;
  /** Delete asks first (one dialog, whichever control asked). */
  askDelete(sessionId: string): void;
  cancelDelete(): void;
  setSidebarVisible(ids: readonly string[]): void;
  /** Opens the session `step` places below (or above, negative) the current one in the sidebar, wrapping. */
  switchBy(step: number): void;
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

    async archiveSession(sessionId) {
      const ws = get().sessionsById.get(sessionId)?.workspace;
      if (ws?.kind !== 'worktree' || ws.removed || ws.missing) return viewOrNotice('archive', api['sessions:archive']({ sessionId }));
      get().askConfirm({
        title: 'Archive this worktree session?',
        text: `The branch ${ws.branch ?? ''} is kept. Its worktree folder ${ws.path ?? ''} is removed (uncommitted files are checkpointed first); Restore makes it again.`,
        confirmLabel: 'Archive',
        danger: false,
        options: [{ id: 'keepWorktree', label: 'Keep the worktree folder', checked: false }],
        onConfirm: (o) => void viewOrNotice('archive', api['sessions:archive']({ sessionId, ...(o.keepWorktree ? { keepWorktree: true } : {}) })),
      });
    },

    restoreSession(sessionId) {
      return viewOrNotice('restore', api['sessions:restore']({ sessionId }));
    },

    async deleteSession(sessionId, options = {}) {
      const res = await api['sessions:delete']({
        sessionId,
        ...(options.deleteBranch ? { deleteBranch: true } : {}),
        ...(options.confirmUnmerged ? { confirmUnmerged: true } : {}),
      });
      if (res.ok) return get().removeSession(sessionId);
      const git = res.error.details?.git;
      if (git?.problem === 'unmerged' && !options.confirmUnmerged) {
        const branch = get().sessionsById.get(sessionId)?.workspace?.branch ?? 'The branch';
        const lost: string[] = [];
        if (git.unmergedCommits) lost.push(`${git.unmergedCommits} commit${git.unmergedCommits === 1 ? '' : 's'} not in its base`);
        if (git.uncommittedFiles) lost.push(`${git.uncommittedFiles} uncommitted file${git.uncommittedFiles === 1 ? '' : 's'}`);
        get().askConfirm({
          title: 'Delete unmerged work?',
          text: `${branch} has ${lost.join(' and ') || 'work not in its base'}. Deleting the branch loses it for good.`,
          confirmLabel: 'Delete branch and work',
          onConfirm: () => void get().deleteSession(sessionId, { deleteBranch: true, confirmUnmerged: true }),
        });
        return;
      }
      get().pushNotice(`Could not delete the session: ${res.error.message}`);
    },

    async renameSession(sessionId, title) {
      const res = await api['sessions:rename']({ sessionId, title });
      if (res.ok) get().upsertSession(res.value);
      else get().pushNotice(`Could not rename the session: ${res.error.message}`);
      return res.ok;
    },

    async openInNewWindow(sessionId) {
      // A browser opens the session's address itself; the desktop app asks the host for a window.
      if (deps.openTab) {
        if (!deps.openTab(sessionId)) get().pushNotice('Could not open a new tab: the browser blocked it.');
        return;
      }
      const res = await api['windows:open']({ sessionId });
      if (!res.ok) get().pushNotice(`Could not open a new window: ${res.error.message}`);
    },

    async openLoginTerminal(sessionId, methodId) {
      const res = await api['agents:login']({ sessionId, methodId });
      set({
        signIn: res.ok
          ? { sessionId, methodId, status: 'done', message: 'Opened in a terminal: finish signing in there, then press Retry.' }
          : { sessionId, methodId, status: 'failed', message: res.error.message },
      });
    },

    beginRename(sessionId) {
      if (get().currentSessionId !== sessionId) void get().switchSession(sessionId);
      set({ renamingSessionId: sessionId });
    },

    endRename() {
      set({ renamingSessionId: undefined });
    },

    async forkSession(sessionId) {
      const id = deps.newId();
      const res = await api['sessions:fork']({ sessionId, id });
      if (!res.ok) return get().pushNotice(`Could not fork the session: ${res.error.message}`);
      get().upsertSession(res.value);
      await get().switchSession(res.value.id);
    },

    async editAndResend(sessionId, beforeSeq, text) {
      const res = await api['sessions:fork']({ sessionId, id: deps.newId(), beforeSeq });
      if (!res.ok) {
        get().pushNotice(`Could not fork the session to resend the message: ${res.error.message}`);
        return false;
      }
      get().upsertSession(res.value);
      await get().switchSession(res.value.id);
      return get().sendPrompt(text);
    },

    askExport(sessionId) {
      set({ exportAskedFor: sessionId });
    },

    cancelExport() {
      set({ exportAskedFor: undefined });
    },

    async exportSession(sessionId, format) {
      set({ exportAskedFor: undefined });
      const res = await api['sessions:export']({ sessionId, format });
      if (!res.ok) return get().pushNotice(`Could not export the session: ${res.error.message}`);
      const result = res.value;
      if (result.kind === 'saved') get().pushNotice(`Exported to ${result.path}`);
      else if (result.kind === 'download') {
        if (deps.download) deps.download(result.fileName, result.mimeType, result.text);
        else get().pushNotice('This window cannot download files.');
      }
    },

    async importSession(fileName, text) {
      const res = await api['sessions:import']({ text, fileName });
      if (!res.ok) return get().pushNotice(`Could not import ${fileName}: ${res.error.message}`);
      get().upsertSession(res.value);
      await get().switchSession(res.value.id);
    },

    askDelete(sessionId) {
      set({ deleteAskedFor: sessionId });
    },

    cancelDelete() {
      set({ deleteAskedFor: undefined });
    },

    setSidebarVisible(ids) {
      // The sidebar reports after every render of its rows; the same ids (a view that changed
      // within its place) need not wake every subscriber of the store.
      const known = get().sidebarVisible;
      if (known.length === ids.length && known.every((id, i) => id === ids[i])) return;
      set({ sidebarVisible: ids });
    },

    switchBy(step) {
      const ids = get().sidebarVisible;
      if (ids.length === 0) return;
      const at = ids.indexOf(get().currentSessionId ?? '');
      const to = at < 0 ? (step > 0 ? 0 : ids.length - 1) : (at + step + ids.length) % ids.length;
      const id = ids[to];
      if (id !== undefined && id !== get().currentSessionId) void get().switchSession(id);
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
        ...(get().deleteAskedFor === sessionId ? { deleteAskedFor: undefined } : {}),
        ...(get().renamingSessionId === sessionId ? { renamingSessionId: undefined } : {}),
      });
    },
  };
}
