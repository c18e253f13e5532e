import type Database from 'better-sqlite3';
import { assertNotNewer, latestVersion, migrate } from './migrations';
import { Sqlite } from './sqlite';

export type Db = Database.Database;

export interface OpenOptions {
  /** Path to a better-sqlite3 `.node` built for this runtime's ABI (Electron needs its own). */
  nativeBinding?: string;
  /**
   * Runs before migrations change an existing database (schema `from` > 0, below `to`), while
   * nothing else uses it: the copy to go back to if an upgrade goes wrong. Throwing refuses
   * the upgrade (the file stays as it was).
   */
  beforeMigrate?: (db: Db, from: number, to: number) => void;
}

/**
 * Opens (creating if needed) the host's database: WAL so windows' reads never wait on the
 * writer, `synchronous=NORMAL` (durable across process crashes, which is what we guard
 * against; a power cut may lose the last transactions but never corrupts), foreign keys on.
 */
export function openDatabase(file: string, options: OpenOptions = {}): Db {
  const db = new Sqlite(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  try {
    // Before anything writes (switching to WAL rewrites the header): a newer file stays as it was.
    const from = assertNotNewer(db);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    if (from > 0 && from < latestVersion) options.beforeMigrate?.(db, from, latestVersion);
    migrate(db);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}
