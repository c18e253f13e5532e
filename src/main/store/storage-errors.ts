/**
 * What can go wrong with the database file itself, in words a person can act on. SQLite says
 * which with its error code (better-sqlite3's `SqliteError.code`); the host turns a failed
 * write into a notice in every window, and a failed start into a refusal that names the file
 * and what to do. A damaged or newer database is never replaced or migrated down.
 */
import type { StorageProblemT as StorageProblem } from '../../shared/contract';
import { AppError } from '../../shared/errors';
import { NewerDatabaseError } from './migrations';

/** A storage failure with its kind and file; its message says what to do. */
export class StorageError extends AppError {
  constructor(
    readonly problem: StorageProblem,
    readonly file: string,
    message: string,
  ) {
    super('storage_failed', message);
  }
}

function sqliteCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}

/** The kind of a SQLite failure that is about the file or the disk, not about a query. */
export function storageProblemOf(err: unknown): StorageProblem | undefined {
  if (err instanceof StorageError) return err.problem;
  if (err instanceof NewerDatabaseError) return 'newer';
  const code = sqliteCode(err);
  if (!code) return undefined;
  if (code === 'SQLITE_FULL') return 'disk_full';
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') return 'corrupt';
  if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_CANTOPEN') || code === 'SQLITE_PERM') {
    return 'unwritable';
  }
  return undefined;
}

/** What the person reads, for a problem with `file`. */
export function describeStorageProblem(problem: StorageProblem, file: string, err?: unknown): string {
  const detail = err instanceof Error ? err.message : err === undefined ? '' : String(err);
  switch (problem) {
    case 'disk_full':
      return `The disk holding ${file} is full: Switchboard cannot save what sessions do now, and it is not kept. Free some space; saving resumes by itself.`;
    case 'unwritable':
      return `Switchboard cannot write to ${file} (${sqliteCode(err) ?? detail}). Check that its folder is writable and the disk is healthy; saving resumes once it can write.`;
    case 'corrupt':
      return (
        `The database ${file} is damaged (${detail}). Switchboard has not changed or replaced it. ` +
        `To go on: quit, move it aside (rename switchboard.db and its -wal and -shm files, e.g. to switchboard.db.damaged) to start with an empty one, or restore it from a backup.`
      );
    case 'newer': {
      const versions = err instanceof NewerDatabaseError ? ` (schema ${err.found}; this version knows up to ${err.known})` : '';
      return (
        `The database ${file} was written by a newer version of Switchboard${versions}. It has not been changed: ` +
        `use that newer Switchboard, or choose another data folder (--data-dir).`
      );
    }
  }
}

/** A file-system error creating or locking the data folder, as a storage problem (at start only). */
export function folderProblemOf(err: unknown): StorageProblem | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return 'disk_full';
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS' || code === 'ENOTDIR' || code === 'EEXIST') return 'unwritable';
  return undefined;
}

/** `err` as a StorageError about `file` if it is one of the storage problems, else undefined. */
export function asStorageError(err: unknown, file: string): StorageError | undefined {
  if (err instanceof StorageError) return err;
  const problem = storageProblemOf(err);
  return problem && new StorageError(problem, file, describeStorageProblem(problem, file, err));
}
