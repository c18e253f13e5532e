/**
 * The dialog the desktop app shows when its host cannot start: the title says what is wrong,
 * the message (the host's) names the file and what to do. Kept free of Electron so it is
 * tested as it is; `desktop.ts` shows the result in an error box.
 */
import { StorageProblem, type StorageProblemT } from '../../shared/contract';
import { isAppError } from '../../shared/errors';

const STORAGE_TITLES: Record<StorageProblemT, string> = {
  disk_full: 'Switchboard cannot save: the disk is full',
  unwritable: 'Switchboard cannot write to its data folder',
  corrupt: 'Switchboard’s database is damaged',
  newer: 'Switchboard’s database is from a newer version',
};

/** A start the shell itself cannot go on with (e.g. its SQLite build is missing): its own title. */
export class StartProblem extends Error {
  constructor(
    readonly title: string,
    message: string,
  ) {
    super(message);
    this.name = 'StartProblem';
  }
}

export function startFailureDialog(err: unknown): { title: string; message: string } {
  if (err instanceof StartProblem) return { title: err.title, message: err.message };
  const message = err instanceof Error ? err.message : String(err);
  // A storage failure carries its kind (the host's StorageError); read it as data, not by class.
  const problem = isAppError(err) && err.code === 'storage_failed' ? StorageProblem.safeParse((err as { problem?: unknown }).problem) : undefined;
  if (problem?.success) return { title: STORAGE_TITLES[problem.data], message };
  // The code, not the message: another host (a window app or `serve`) holds the data dir.
  const code = isAppError(err) ? err.code : (err as { code?: unknown } | null)?.code;
  if (code === 'already_exists') return { title: 'Switchboard is already running', message };
  return { title: 'Switchboard could not start', message };
}
