import type { BackupListT, CleanUpPreviewT, CompactionRequestedT, StorageReportViewT, WireError } from '../../../../../shared/contract';

/** Settings → Storage while it is open: the report, the backups, a clean-up and a compaction asked for. */
export interface StorageState {
  storageReport: StorageReportViewT | undefined;
  /** The report is being walked (a large database takes a moment). */
  storageLoading: boolean;
  storageError: WireError | undefined;
  /** The backups, pushed by the host whenever one is taken or fails. */
  backups: BackupListT | undefined;
  backupError: WireError | undefined;
  /** A clean-up: the age chosen, what it would delete (waiting for confirmation), what it did. */
  cleanUp: {
    preview: CleanUpPreviewT | undefined;
    running: boolean;
    deleted: number | undefined;
    error: WireError | undefined;
  };
  compaction: CompactionRequestedT | undefined;
  compactionError: WireError | undefined;
}

export const storageInitialState: StorageState = {
  storageReport: undefined,
  storageLoading: false,
  storageError: undefined,
  backups: undefined,
  backupError: undefined,
  cleanUp: { preview: undefined, running: false, deleted: undefined, error: undefined },
  compaction: undefined,
  compactionError: undefined,
};
