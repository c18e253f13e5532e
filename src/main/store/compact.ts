/**
 * Compaction: the database rewritten without its free pages (what deleted sessions left), by
 * `VACUUM INTO` a new file that then replaces the old one in one rename.
 *
 * It needs the file to itself: with a writer open, whatever that writer commits after the copy
 * was taken would be lost with the old file. So it runs where nothing else has the database
 * open: at start, before the host opens its store (`datadir/compaction.ts` asks for it through
 * a marker file), under the data folder's lock.
 *
 * Crash safety, step by step (`onStage` names each, for the test that kills a child at each):
 * - `checkpointed`: the WAL is folded into the main file; the file is complete on its own.
 * - `copied`: the compact copy exists beside it (`<file>.compact`); the original is untouched.
 *   A crash before the rename leaves the original as it was and a leftover copy, which the
 *   next start removes (`removeCompactionLeftover`) — complete or torn, it never counts.
 * - `checked`: the copy passed `quick_check` and holds the same schema version and row counts.
 * - `closed`: the original's connection is closed and no `-wal` is left (none may be: a WAL
 *   beside the new file would be replayed onto it). The copy is on disk (fsync'd).
 * - `swapped`: `rename` put the copy in place: the old file or the new one, never neither.
 */
import type Database from 'better-sqlite3';
import { Sqlite } from './sqlite';
import { closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { checkDatabaseFile } from './db-check';
import { vacuumInto } from './backup';

export const COMPACTION_STAGES = ['checkpointed', 'copied', 'checked', 'closed', 'swapped'] as const;
export type CompactionStage = (typeof COMPACTION_STAGES)[number];

export interface CompactOptions {
  nativeBinding?: string;
  /** Told as each step is done (tests stop the process there). */
  onStage?(stage: CompactionStage): void;
}

export interface CompactionResult {
  bytesBefore: number;
  bytesAfter: number;
}

/** Where the compact copy is written before it replaces `file`. */
export const compactionCopyOf = (file: string): string => `${file}.compact`;

/** Flushes a file (or a folder's entries) to the disk. */
export function fsyncPath(path: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    fsyncSync(fd);
  } catch (err) {
    // Windows cannot open a folder to flush it; its renames are durable without.
    if (process.platform !== 'win32') throw err;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function rowCounts(db: Database.Database): Record<string, number> {
  const out: Record<string, number> = {};
  for (const table of ['sessions', 'events', 'prompts', 'permissions', 'agents']) {
    if (!db.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?`).get(table)) continue;
    out[table] = (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  }
  return out;
}

const sizeOf = (file: string): number => (existsSync(file) ? statSync(file).size : 0);

/** Removes a copy a crashed compaction left. Returns whether there was one. */
export function removeCompactionLeftover(file: string): boolean {
  const copy = compactionCopyOf(file);
  const found = existsSync(copy);
  for (const f of [copy, `${copy}-journal`, `${copy}-wal`, `${copy}-shm`]) rmSync(f, { force: true });
  return found;
}

/**
 * Compacts `file` in place (see the file's comment for the steps). The caller holds the data
 * folder's lock and has no connection open on it. Throws, leaving the original as it was, if
 * the copy fails its checks or another connection keeps a WAL open.
 */
export function compactDatabase(file: string, o: CompactOptions = {}): CompactionResult {
  const copy = compactionCopyOf(file);
  removeCompactionLeftover(file);
  const binding = o.nativeBinding ? { nativeBinding: o.nativeBinding } : {};
  const bytesBefore = sizeOf(file) + sizeOf(`${file}-wal`);
  const db = new Sqlite(file, { fileMustExist: true, ...binding });
  let closed = false;
  try {
    const [checkpoint] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
    if (checkpoint && checkpoint.busy !== 0) throw new Error(`${file} is in use by another connection; compaction needs it alone`);
    o.onStage?.('checkpointed');
    vacuumInto(db, copy);
    o.onStage?.('copied');
    const check = checkDatabaseFile(copy, o.nativeBinding ? { nativeBinding: o.nativeBinding } : {});
    const version = db.pragma('user_version', { simple: true }) as number;
    if (!check.ok && check.problem !== 'foreign') throw new Error(`the compact copy failed its check: ${check.detail}`);
    const copied = new Sqlite(copy, { readonly: true, ...binding });
    try {
      const same = JSON.stringify(rowCounts(copied)) === JSON.stringify(rowCounts(db));
      const copyVersion = copied.pragma('user_version', { simple: true }) as number;
      if (!same || copyVersion !== version) throw new Error('the compact copy does not hold the same rows as the database');
    } finally {
      copied.close();
    }
    o.onStage?.('checked');
    fsyncPath(copy);
    db.close();
    closed = true;
    // Closing the last connection folds the WAL in and deletes it; one still there means
    // someone else has the file open: their next commits would go to a file being replaced.
    if (existsSync(`${file}-wal`)) throw new Error(`${file} is in use by another connection; compaction needs it alone`);
    rmSync(`${file}-shm`, { force: true });
    o.onStage?.('closed');
    renameSync(copy, file);
    fsyncPath(dirname(file));
    o.onStage?.('swapped');
    return { bytesBefore, bytesAfter: sizeOf(file) };
  } catch (err) {
    removeCompactionLeftover(file);
    throw err;
  } finally {
    if (!closed) db.close();
  }
}
