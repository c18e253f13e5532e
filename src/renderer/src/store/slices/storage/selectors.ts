import type { AppState } from '../../app-store';

export const storageSelectors = {
  report: (s: AppState) => s.storageReport,
  backups: (s: AppState) => s.backups,
  cleanUp: (s: AppState) => s.cleanUp,
  /** The host can restart itself (the desktop app): "Restart now" after asking for a compaction. */
  canRestart: (s: AppState) => s.hostInfo?.canRestart === true,
};
