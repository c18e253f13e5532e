/**
 * Copies of a database, made while the host runs (see `datadir/backups.ts` for where they go,
 * how they are named, checked and rotated).
 *
 * `snapshotTo` uses SQLite's online backup API on a read-only connection of its own, inside one
 * read transaction held from the first step to the last: the copy is a consistent snapshot,
 * and in WAL mode the host's writer never waits for it (its commits go on into the WAL, which
 * is checkpointed once the copy is done). Without that transaction each step would begin a
 * new one, see the host's commits, and SQLite would restart the copy: with a steady stream of
 * events it would never end. The copy goes in steps with the part written so far flushed to
 * disk every few megabytes, so the disk never has a gigabyte to write at once (one final fsync
 * of it stalled the host's own commits for tenths of seconds, bench/metrics/backup.ts).
 *
 * It paces itself (`bytesPerSecond`), sleeping its thread between steps: run it off the host's
 * event loop (`datadir/db-tasks.ts`), or in a process that does nothing else (the CLI). Copying
 * in steps on the host's own connection instead held the event loop for the destination's
 * final commit (0.4–0.6 s for 1 GB, measured).
 *
 * `vacuumInto` is the one-statement copy (compacted): for the copy before a migration, taken at
 * start before anything else runs, and for compaction.
 */
import { closeSync, existsSync, fsyncSync, openSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Sqlite } from './sqlite';
import type { Db } from './db';

export interface SnapshotOptions {
  nativeBinding?: string;
  /** Pages per backup step (default 1,024: 4 MB of 4 KB pages). */
  pagesPerStep?: number;
  /** The copy so far is flushed to disk after this many pages (default 4,096: 16 MB). */
  flushEveryPages?: number;
  /**
   * At most this many bytes a second are copied (default 128 MB/s): the thread sleeps between
   * steps to keep to it, leaving the disk room for the host's own commits. 0: no limit.
   */
  bytesPerSecond?: number;
}

/** Copies the database in `source` to `dest` (which must not exist) as one consistent snapshot. */
export async function snapshotTo(source: string, dest: string, o: SnapshotOptions = {}): Promise<{ totalPages: number }> {
  const pagesPerStep = o.pagesPerStep ?? 1_024;
  const flushEvery = o.flushEveryPages ?? 4_096;
  const rate = o.bytesPerSecond ?? 128 * 1024 * 1024;
  const tick = new Int32Array(new SharedArrayBuffer(4));
  const started = performance.now();
  const db = new Sqlite(source, { readonly: true, fileMustExist: true, ...(o.nativeBinding ? { nativeBinding: o.nativeBinding } : {}) });
  let fd: number | undefined;
  try {
    // A read transaction begins at the first read: from here on every step sees this snapshot.
    db.exec('BEGIN');
    db.prepare('SELECT COUNT(*) FROM sqlite_schema').get();
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    let unflushed = 0;
    let copied = 0;
    const result = await db.backup(dest, {
      progress: ({ totalPages, remainingPages }) => {
        const done = totalPages - remainingPages;
        unflushed += done - copied;
        copied = done;
        if (unflushed >= flushEvery && existsSync(dest)) {
          fd ??= openSync(dest, 'r');
          fsyncSync(fd);
          unflushed = 0;
        }
        if (rate > 0) {
          const ahead = (copied * pageSize * 1000) / rate - (performance.now() - started);
          if (ahead > 1) Atomics.wait(tick, 0, 0, ahead);
        }
        return pagesPerStep;
      },
    });
    return { totalPages: result.totalPages };
  } finally {
    if (fd !== undefined) closeSync(fd);
    if (db.inTransaction) db.exec('COMMIT');
    db.close();
  }
}

/** Copies `db` into `dest` (must not exist) in one statement: a compacted, consistent snapshot. */
export function vacuumInto(db: Db, dest: string): void {
  db.prepare('VACUUM INTO ?').run(dest);
}

/**
 * Makes a finished copy a self-contained file: rollback journal instead of WAL, so it is one
 * file with no `-wal` or `-shm` beside it to lose when it is copied or moved.
 */
export function sealCopy(file: string, nativeBinding?: string): void {
  const db = new Sqlite(file, { fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
  try {
    db.pragma('journal_mode = DELETE');
  } finally {
    db.close();
  }
}
