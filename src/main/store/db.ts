import Database from 'better-sqlite3';
import { assertNotNewer, migrate } from './migrations';

export type Db = Database.Database;

export interface OpenOptions {
  /** Path to a better-sqlite3 `.node` built for this runtime's ABI (Electron needs its own). */
  nativeBinding?: string;
}

/**
 * Opens (creating if needed) the host's database: WAL so windows' reads never wait on the
 * writer, `synchronous=NORMAL` (durable across process crashes, which is what we guard
 * against; a power cut may lose the last transactions but never corrupts), foreign keys on.
 */
export function openDatabase(file: string, options: OpenOptions = {}): Db {
  const db = new Database(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  try {
    // Before anything writes (switching to WAL rewrites the header): a newer file stays as it was.
    assertNotNewer(db);
  } catch (err) {
    db.close();
    throw err;
  }
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}
