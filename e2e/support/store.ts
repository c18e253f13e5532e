import Database from 'better-sqlite3';
import { join } from 'node:path';

/** Reads the host's SQLite file (read-only, alongside the running host: WAL allows it). */
export function readStore<T>(dataDir: string, read: (db: Database.Database) => T): T {
  const db = new Database(join(dataDir, 'switchboard.db'), { readonly: true, fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

export const pendingPermissions = (dataDir: string): number =>
  readStore(dataDir, (db) => (db.prepare(`SELECT COUNT(*) AS n FROM permissions WHERE status = 'pending'`).get() as { n: number }).n);
