/**
 * Whether a database file can be trusted: SQLite's own checks (`quick_check`, or the slower
 * `integrity_check`, which also compares every index with its table) and its schema version
 * against this build. Used on backups before they count as good, on a file before it is
 * restored, and on the live database at start. Never writes to the file it checks.
 */
import type Database from 'better-sqlite3';
import { Sqlite } from './sqlite';
import { existsSync } from 'node:fs';
import { latestVersion } from './migrations';

export type CheckDepth = 'quick' | 'full';

export type DatabaseCheck =
  | { ok: true; schemaVersion: number }
  | {
      ok: false;
      /**
       * `missing`: no such file; `corrupt`: SQLite finds damage (or it is not a database);
       * `newer`: written by a newer Switchboard; `foreign`: a database, but not Switchboard's.
       */
      problem: 'missing' | 'corrupt' | 'newer' | 'foreign';
      detail: string;
      schemaVersion?: number;
    };

export interface CheckOptions {
  depth?: CheckDepth;
  /** better-sqlite3 `.node` built for this runtime's ABI (the Electron app's own build). */
  nativeBinding?: string;
}

/** At most this many of SQLite's complaints are kept in `detail`. */
const MAX_COMPLAINTS = 5;

function sqliteMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The tables every Switchboard database has had since its first schema. */
const FIRST_TABLES = ['sessions', 'events', 'prompts'];

/**
 * Checks `file` through a read-only connection. A file in WAL mode gets its `-shm` (and an empty
 * `-wal`) created beside it if missing, as any reader would; its pages are never written.
 */
export function checkDatabaseFile(file: string, options: CheckOptions = {}): DatabaseCheck {
  if (!existsSync(file)) return { ok: false, problem: 'missing', detail: `${file} does not exist` };
  let db: Database.Database | undefined;
  try {
    db = new Sqlite(file, { readonly: true, fileMustExist: true, ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}) });
    const schemaVersion = db.pragma('user_version', { simple: true }) as number;
    const pragma = options.depth === 'full' ? 'integrity_check' : 'quick_check';
    const rows = (db.pragma(`${pragma}(${MAX_COMPLAINTS})`) as Record<string, string>[]).map((r) => Object.values(r)[0] ?? '');
    if (rows.length !== 1 || rows[0] !== 'ok') return { ok: false, problem: 'corrupt', detail: rows.join('; '), schemaVersion };
    if (schemaVersion > latestVersion) {
      return { ok: false, problem: 'newer', schemaVersion, detail: `schema version ${schemaVersion} is newer than this Switchboard (${latestVersion})` };
    }
    const tables = new Set((db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table'`).all() as { name: string }[]).map((r) => r.name));
    if (schemaVersion === 0 || !FIRST_TABLES.every((t) => tables.has(t))) {
      return { ok: false, problem: 'foreign', schemaVersion, detail: `${file} is an SQLite database, but not one of Switchboard's` };
    }
    return { ok: true, schemaVersion };
  } catch (err) {
    // SQLITE_NOTADB, SQLITE_CORRUPT…: the file cannot even be read as a database.
    return { ok: false, problem: 'corrupt', detail: sqliteMessage(err) };
  } finally {
    db?.close();
  }
}

/** One line a person can read, for a failed check of `file`. */
export function describeCheck(file: string, check: Exclude<DatabaseCheck, { ok: true }>): string {
  switch (check.problem) {
    case 'missing':
      return `${file} does not exist.`;
    case 'corrupt':
      return `${file} is damaged (${check.detail}).`;
    case 'newer':
      return `${file} was written by a newer Switchboard (${check.detail}).`;
    case 'foreign':
      return `${file} is not a Switchboard database.`;
  }
}
