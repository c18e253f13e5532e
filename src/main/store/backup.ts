/**
 * Copies of the live database, made while the host runs (see `datadir/backups.ts` for where they
 * go, how they are named, checked and rotated).
 *
 * `backupInSteps` uses SQLite's online backup API through the host's own connection: a few
 * pages per step, one step per turn of the event loop, so a turn's events keep flowing while a
 * large database is copied. The host's connection must be the source: SQLite folds the host's
 * own writes into a backup in progress, whereas a write through any other connection restarts
 * it (with a steady stream of events it would never finish).
 *
 * `vacuumInto` is the one-statement copy (a consistent snapshot, compacted, in one read
 * transaction): for the copy before a migration, taken at start before anything else runs.
 */
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import type { Db } from './db';

export interface BackupStep {
  /** Pages copied in this step. */
  pages: number;
  /** How long the step held the event loop. */
  ms: number;
  remainingPages: number;
  totalPages: number;
}

export interface SteppedBackupOptions {
  /** How long one step may hold the event loop (default 4 ms); the pages per step follow it. */
  stepBudgetMs?: number;
  onStep?(step: BackupStep): void;
  /** A monotonic clock in ms (default `performance.now`). */
  now?: () => number;
}

export interface SteppedBackupResult {
  totalPages: number;
  steps: number;
  /** The longest time one step held the event loop. */
  longestStepMs: number;
}

const FIRST_STEP_PAGES = 32;
const MIN_STEP_PAGES = 8;
const MAX_STEP_PAGES = 16_384;

/**
 * Copies `db` into `dest` (a file that must not exist yet) in steps sized to `stepBudgetMs`.
 * Each step's time is measured from a mark queued just before it on the same immediate queue
 * (better-sqlite3 runs each step in its own `setImmediate`), so it is the step's own time, not
 * the time other callbacks took in between.
 */
export async function backupInSteps(db: Db, dest: string, o: SteppedBackupOptions = {}): Promise<SteppedBackupResult> {
  const now = o.now ?? (() => performance.now());
  const budget = o.stepBudgetMs ?? 4;
  let pages = FIRST_STEP_PAGES;
  let markedAt: number | undefined;
  let steps = 0;
  let longest = 0;
  let previousRemaining: number | undefined;
  const measured = (remainingPages: number, totalPages: number): number => {
    const ms = markedAt === undefined ? 0 : now() - markedAt;
    const copied = previousRemaining === undefined ? 0 : previousRemaining - remainingPages;
    if (markedAt !== undefined) {
      steps++;
      longest = Math.max(longest, ms);
      o.onStep?.({ pages: copied, ms, remainingPages, totalPages });
    }
    previousRemaining = remainingPages;
    return ms;
  };
  const result = await db.backup(dest, {
    progress: ({ totalPages, remainingPages }) => {
      const ms = measured(remainingPages, totalPages);
      if (markedAt !== undefined) {
        // Aim the next step at the budget: grow at most 2x a step, shrink as far as needed.
        const fitted = ms > 0 ? Math.floor((pages * budget) / ms) : pages * 2;
        pages = Math.max(MIN_STEP_PAGES, Math.min(MAX_STEP_PAGES, pages * 2, fitted));
      }
      setImmediate(() => {
        markedAt = now();
      });
      return pages;
    },
  });
  // The last step ends the backup without a progress call: measured here.
  measured(0, result.totalPages);
  return { totalPages: result.totalPages, steps, longestStepMs: longest };
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
  const db = new Database(file, { fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
  try {
    db.pragma('journal_mode = DELETE');
  } finally {
    db.close();
  }
}
