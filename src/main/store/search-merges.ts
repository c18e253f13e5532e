import type { Db } from './db';
import type { Schedule } from './event-log';
import type { Disposable } from '../util/lifecycle';

/**
 * Pages of merged index a step writes at most (FTS5's `merge` command): about 2 ms a step here,
 * 9 ms at the 99th percentile (a scratch index of 100,000 rows in 3,000 transactions).
 */
export const MERGE_STEP_PAGES = 16;

/**
 * The search index's merges, a small step per turn of the host's loop (ADR 0030). FTS5 writes
 * each transaction's rows as a new segment and, by default, merges segments inside the
 * transaction that crosses its `automerge` threshold: in a search backfill that made 1% of the
 * host's batches 4–6 × longer (`host_loop_p99_ms_backfill` 13.5 ms; with automatic merges off
 * and nothing else, segments piled up until FTS5's crisis merge blocked the loop 227 ms).
 * Here automatic merges are off (settings FTS5 keeps in the database) and, after writes, one
 * `merge` of at most `MERGE_STEP_PAGES` pages runs per turn until FTS5 says nothing is left.
 * FTS5's crisis merge (a level's segments merged in one go) waits for 64 segments instead of
 * 16, so the steps keep ahead of it. A process without this (a tool, an older build) writes
 * correct segments: the next host merges them.
 */
export class SearchMerges implements Disposable {
  private readonly merge;
  private readonly changes;
  private scheduled = false;
  private seenRows = -1;
  private readonly waiting: (() => void)[] = [];
  private disposed = false;

  constructor(
    db: Db,
    private readonly schedule: Schedule = (fn) => setImmediate(fn),
    private readonly onError: (err: unknown) => void = () => {},
    /** How many index rows were written so far (`SearchIndex.rowsWritten`), if known. */
    private readonly rowsWritten?: () => number,
  ) {
    db.prepare(`INSERT INTO search_index(search_index, rank) VALUES ('automerge', 0)`).run();
    db.prepare(`INSERT INTO search_index(search_index, rank) VALUES ('crisismerge', 64)`).run();
    this.merge = db.prepare(`INSERT INTO search_index(search_index, rank) VALUES ('merge', ${MERGE_STEP_PAGES})`);
    this.changes = db.prepare(`SELECT total_changes()`).pluck();
  }

  /**
   * Something may have been written to the index: steps follow, one per turn, until merged.
   * With `rowsWritten` given, a call when no row was written since the last does nothing (a
   * commit of events that indexed nothing, like most of a stream's, costs no step).
   */
  noteWrite(): void {
    if (this.rowsWritten) {
      const written = this.rowsWritten();
      if (written === this.seenRows) return;
      this.seenRows = written;
    }
    this.next();
  }

  /**
   * Runs `fn` on a turn of its own once the steps have nothing left to merge (at once if none
   * are under way). The search backfill waits so between its batches: a batch makes a segment
   * a turn, a step merges 16 pages a turn, and with nothing else the segments outran the steps
   * until FTS5's crisis merge ran inside a batch's commit (the backfill's loop at most 77–200
   * ms once its batches stopped parsing each row in JavaScript).
   */
  whenMerged(fn: () => void): void {
    if (this.disposed) return;
    if (!this.scheduled) return this.schedule(fn);
    this.waiting.push(fn);
  }

  private next(): void {
    if (this.scheduled || this.disposed) return;
    this.scheduled = true;
    this.schedule(() => {
      this.scheduled = false;
      if (this.disposed) return;
      if (this.step()) return this.next();
      for (const fn of this.waiting.splice(0)) this.schedule(fn);
    });
  }

  /** One merge step; true when FTS5 has more to merge (it wrote more than its structure record). */
  step(): boolean {
    try {
      const before = this.changes.get() as number;
      this.merge.run();
      return (this.changes.get() as number) - before >= 2;
    } catch (err) {
      // A full or failing disk: the next write tries again; the index stays correct unmerged.
      this.onError(err);
      return false;
    }
  }

  dispose(): void {
    this.disposed = true;
  }
}
