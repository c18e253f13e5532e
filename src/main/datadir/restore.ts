/**
 * `switchboard backup FILE` and `switchboard restore FILE`, as functions of the data folder.
 */
import { Sqlite } from '../store/sqlite';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { AppError } from '../../shared/errors';
import { fsyncPath } from '../store/compact';
import { checkDatabaseFile, describeCheck, type DatabaseCheck } from '../store/db-check';
import { sealCopy, snapshotTo, vacuumInto } from '../store/backup';
import type { Disposable } from '../util/lifecycle';
import { asideName, replaceDatabase } from './replace-database';

/** The files of a data folder these commands touch. */
export interface DataFiles {
  database: string;
  lock: string;
}

const binding = (nativeBinding?: string) => (nativeBinding ? { nativeBinding } : {});

export interface BackupToFileResult {
  file: string;
  schemaVersion: number;
  pages: number;
}

/**
 * Copies the data folder's database to `target` while a host may be using it: a snapshot
 * through a read-only connection of this process (`snapshotTo`; the host's writer never
 * waits), written beside the target under a temporary name, made self-contained, checked,
 * and renamed.
 */
export async function backupToFile(database: string, target: string, nativeBinding?: string): Promise<BackupToFileResult> {
  if (!existsSync(database)) throw new AppError('not_found', `There is no database to back up: ${database} does not exist.`);
  const file = resolve(target);
  if (existsSync(file)) throw new AppError('already_exists', `${file} exists already; choose a new file name.`);
  if (!existsSync(dirname(file))) throw new AppError('not_found', `The folder ${dirname(file)} does not exist.`);
  const partial = join(dirname(file), `.${basename(file)}.partial`);
  rmSync(partial, { force: true });
  try {
    const { totalPages } = await snapshotTo(database, partial, binding(nativeBinding));
    sealCopy(partial, nativeBinding);
    const check = checkDatabaseFile(partial, binding(nativeBinding));
    if (!check.ok) throw new AppError('storage_failed', `The copy failed its check: ${describeCheck(file, check)}`);
    fsyncPath(partial);
    renameSync(partial, file);
    fsyncPath(dirname(file));
    return { file, schemaVersion: check.schemaVersion, pages: totalPages };
  } catch (err) {
    rmSync(partial, { force: true });
    rmSync(`${partial}-journal`, { force: true });
    throw err;
  }
}

export interface RestoreOptions {
  /** Takes the data folder's lock (`DataDirLock.acquire`); throws while a host holds it. */
  acquireLock(lockFile: string): Disposable;
  now(): number;
  nativeBinding?: string;
}

export interface RestoreResult {
  restoredFrom: string;
  schemaVersion: number;
  /** Where the database that was in place is kept now (undefined: there was none). */
  setAside: string | undefined;
}

/** Why a file is refused as a backup to restore, in words a person can act on. */
function refusal(file: string, check: Exclude<DatabaseCheck, { ok: true }>): AppError {
  const why = describeCheck(file, check);
  const code = check.problem === 'missing' ? 'not_found' : 'invalid_request';
  const advice = check.problem === 'newer' ? ' Use that newer Switchboard to restore it.' : ' Nothing was changed.';
  return new AppError(code, `Cannot restore: ${why}${advice}`);
}

/**
 * Restores `backupFile` as the data folder's database. Refused while a host runs on the folder
 * (its lock), and for a file that fails `integrity_check`, is not Switchboard's, or was written
 * by a newer Switchboard (an older one is fine: the next start upgrades it, after a backup).
 * The current database is kept aside under a timestamped name; the backup itself is left as it is.
 */
export function restoreFromFile(files: DataFiles, backupFile: string, o: RestoreOptions): RestoreResult {
  const source = resolve(backupFile);
  const check = checkDatabaseFile(source, { depth: 'full', ...binding(o.nativeBinding) });
  if (!check.ok) throw refusal(source, check);
  mkdirSync(dirname(files.database), { recursive: true });
  const lock = o.acquireLock(files.lock);
  const staged = `${files.database}.restoring`;
  try {
    rmSync(staged, { force: true });
    // Through SQLite, not a file copy: a backup with a WAL of its own comes whole, as one file.
    const db = new Sqlite(source, { readonly: true, fileMustExist: true, ...binding(o.nativeBinding) });
    try {
      vacuumInto(db, staged);
    } finally {
      db.close();
    }
    const again = checkDatabaseFile(staged, binding(o.nativeBinding));
    if (!again.ok) throw refusal(source, again);
    fsyncPath(staged);
    const setAside = replaceDatabase(files.database, staged, asideName(files.database, 'before-restore', o.now()), binding(o.nativeBinding));
    return { restoredFrom: source, schemaVersion: check.schemaVersion, setAside };
  } finally {
    rmSync(staged, { force: true });
    lock.dispose();
  }
}
