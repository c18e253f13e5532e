/**
 * Puts another database in place of the data folder's own, keeping the current one aside:
 * what `switchboard restore` and the recovery from a damaged database both do.
 *
 * The order matters because SQLite finds a database's WAL by name (`<file>-wal`): a WAL left
 * beside the new file would be replayed onto it. So the current database is first folded into
 * one file where it can be (a checkpoint); then it gets its aside name by a hard link (the
 * data folder still has a database at every moment); its WAL, if one remains (a damaged file
 * cannot be checkpointed), follows it to the aside name; then one `rename` puts the new file in
 * place. A crash before that rename leaves the current database where it was, a crash after
 * leaves the new one; the aside copy is complete either way.
 */
import type Database from 'better-sqlite3';
import { Sqlite } from '../store/sqlite';
import { copyFileSync, existsSync, linkSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fsyncPath } from '../store/compact';

/** `switchboard.db.<reason>-2026-11-26T13-04-05-123Z`: the name the current database is kept under. */
export function asideName(database: string, reason: string, at: number): string {
  return join(dirname(database), `${basename(database)}.${reason}-${new Date(at).toISOString().replace(/[:.]/g, '-')}`);
}

/** Folds the WAL into the main file where SQLite can; a damaged file is left as it is. */
function checkpointQuietly(database: string, nativeBinding?: string): void {
  if (!existsSync(`${database}-wal`)) return;
  let db: Database.Database | undefined;
  try {
    db = new Sqlite(database, { fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
    db.pragma('wal_checkpoint(TRUNCATE)');
  } catch {
    // Damaged or unreadable: its WAL moves aside with it instead (see `replaceDatabase`).
  } finally {
    try {
      db?.close();
    } catch {
      // Closing a damaged file may fail too; nothing of it is kept open.
    }
  }
}

export interface ReplaceOptions {
  /**
   * Fold the current database's WAL into it first (default true). Off for a damaged file,
   * which is kept exactly as it was found, WAL beside it.
   */
  checkpoint?: boolean;
  nativeBinding?: string;
}

/**
 * Replaces `database` by `replacement` (a complete, flushed file in the same folder, which is
 * moved, not copied), keeping the current database (if any) at `aside` with its WAL.
 * The caller holds the data folder's lock. Returns the aside path, or undefined if there was
 * no database to keep.
 */
export function replaceDatabase(database: string, replacement: string, aside: string, o: ReplaceOptions = {}): string | undefined {
  const had = existsSync(database);
  if (had) {
    if (o.checkpoint ?? true) checkpointQuietly(database, o.nativeBinding);
    try {
      linkSync(database, aside);
    } catch {
      // A file system without hard links (FAT, some network shares): a copy does the same.
      copyFileSync(database, aside);
    }
    if (existsSync(`${database}-wal`)) renameSync(`${database}-wal`, `${aside}-wal`);
    rmSync(`${database}-shm`, { force: true });
  }
  // A rollback journal of the old file would be as wrong for the new one as a WAL.
  if (existsSync(`${database}-journal`)) renameSync(`${database}-journal`, `${aside}-journal`);
  renameSync(replacement, database);
  fsyncPath(dirname(database));
  return had ? aside : undefined;
}
