/**
 * The dialog the desktop app shows when its host cannot start: the title says what is wrong,
 * the message (the host's) names the file and what to do. Kept free of Electron so it is
 * tested as it is; `main.ts` passes the result to `dialog.showErrorBox`.
 */
import { isAppError } from '../../shared/errors';
import { StorageError } from '../host/storage-health';

const STORAGE_TITLES: Record<StorageError['problem'], string> = {
  disk_full: 'Switchboard cannot save: the disk is full',
  unwritable: 'Switchboard cannot write to its data folder',
  corrupt: 'Switchboard’s database is damaged',
  newer: 'Switchboard’s database is from a newer version',
};

export function startFailureDialog(err: unknown): { title: string; message: string } {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof StorageError) return { title: STORAGE_TITLES[err.problem], message };
  // The code, not the message: another host (a window app or `serve`) holds the data dir.
  const code = isAppError(err) ? err.code : (err as { code?: unknown } | null)?.code;
  if (code === 'already_exists') return { title: 'Switchboard is already running', message };
  return { title: 'Switchboard could not start', message };
}
