import type { BackupListT } from '../../../../../shared/contract';
import type { GetState, SetState } from '../../app-store';
import type { StoreDeps } from '../../deps';

export interface StorageActions {
  /** Loads the report and the backups (Settings → Storage opened). */
  loadStorage(): Promise<void>;
  /** Pushed by the host: a backup was taken, failed or rotated away. */
  backupsChanged(list: BackupListT): void;
  backUpNow(): Promise<void>;
  /** Counts what a clean-up of archived sessions last used `olderThanDays` ago would delete; waits for confirmation. */
  previewCleanUp(olderThanDays: number): Promise<void>;
  /** Deletes what the preview counted; then the report is loaded again. */
  confirmCleanUp(): Promise<void>;
  cancelCleanUp(): void;
  requestCompaction(): Promise<void>;
  /** `host:restart` (the desktop app): compacts now. */
  restartHost(): Promise<void>;
}

export function createStorageActions(set: SetState, get: GetState, deps: StoreDeps): StorageActions {
  const { api } = deps;
  const cleanUp = (patch: Partial<ReturnType<GetState>['cleanUp']>) => set({ cleanUp: { ...get().cleanUp, ...patch } });
  const loadReport = async (): Promise<void> => {
    set({ storageLoading: true, storageError: undefined });
    const res = await api['storage:report']({});
    set(res.ok ? { storageReport: res.value, storageLoading: false } : { storageError: res.error, storageLoading: false });
  };

  return {
    async loadStorage() {
      const backups = api['storage:backups']({}).then((res) => set(res.ok ? { backups: res.value } : { backupError: res.error }));
      await Promise.all([loadReport(), backups]);
    },

    backupsChanged(backups) {
      set({ backups });
    },

    async backUpNow() {
      set({ backupError: undefined });
      const res = await api['storage:backup']({});
      // The list itself comes pushed (`storage:backups`), from this window's backup or any other.
      if (!res.ok) set({ backupError: res.error });
    },

    async previewCleanUp(olderThanDays) {
      cleanUp({ preview: undefined, deleted: undefined, error: undefined });
      const res = await api['storage:preview']({ olderThanDays });
      cleanUp(res.ok ? { preview: res.value } : { error: res.error });
    },

    async confirmCleanUp() {
      const { preview, running } = get().cleanUp;
      if (!preview || running) return;
      cleanUp({ running: true, error: undefined });
      const res = await api['storage:clean']({ cutoff: preview.cutoff });
      cleanUp(res.ok ? { running: false, preview: undefined, deleted: res.value.deleted } : { running: false, error: res.error });
      if (res.ok) await loadReport();
    },

    cancelCleanUp() {
      cleanUp({ preview: undefined, error: undefined });
    },

    async requestCompaction() {
      set({ compactionError: undefined });
      const res = await api['storage:compact']({});
      set(res.ok ? { compaction: res.value } : { compactionError: res.error });
    },

    async restartHost() {
      const res = await api['host:restart']({});
      if (!res.ok) set({ compactionError: res.error });
    },
  };
}
