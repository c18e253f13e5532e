import type { Db } from './db';
import type { SearchProgressT } from '../../shared/contract';
import type { SearchIndex } from './search-index';
import { UNSHOWN_KINDS } from '../../shared/contract';
import { MESSAGE_KINDS } from './search-text';
import { CHUNK_TEXT_SQL, type IndexRow } from './search-index';
import type { Disposable } from '../util/lifecycle';

/**
 * Events read per batch: one short transaction, so live writes and commands wait little. 2,000
 * held the host's loop ~15–30 ms a batch (more when a batch reads on to a long message's start):
 * backfill p99 45 ms, max 215 ms (bench/metrics/host-loop.ts); 100 is ~2.5 ms a batch, p99
 * ~11 ms, max ~60 ms (a long message is still read whole), for ~7% more time in all (issue 21).
 */
const BATCH_EVENTS = 100;
/** Rows read at a time when a batch reads on to the beginning of the message at its bottom. */
const MESSAGE_PAGE = 256;

export interface BackfillOptions {
  db: Db;
  index: SearchIndex;
  /** Runs the next batch later (setImmediate in the host; tests step by hand). */
  schedule(fn: () => void): void;
  /** Progress after each batch, and once more when done. */
  onProgress(progress: SearchProgressT): void;
  /** Events per batch (default `BATCH_EVENTS`). */
  batchEvents?: number;
}

interface BackfillRow {
  session_id: string;
  upto_seq: number;
}

/**
 * Indexes transcripts stored before search existed (migration 0007 recorded what they are),
 * in batches of one short transaction each, newest session first and each session from its
 * newest event back, so recent conversations are searchable first. Resumes where it stopped
 * after a restart (the mark moves in the batch's own transaction). Live events are indexed
 * by `EventLog` meanwhile; the marks never cover them.
 */
export class SearchBackfill implements Disposable {
  private readonly stmts;
  private readonly step: () => number;
  private indexed = 0;
  private total = 0;
  private running = false;
  private disposed = false;

  constructor(private readonly o: BackfillOptions) {
    // Every shown kind, indexed or not: what ends a message must be seen to group its chunks.
    const unshown = [...UNSHOWN_KINDS].map((k) => `'${k}'`).join(', ');
    // A message chunk's text is read by SQLite, not its payload by JavaScript: a long message's
    // thousand rows were parsed and checked one by one (the backfill's longest loop stalls).
    const messages = [...MESSAGE_KINDS].map((k) => `'${k}'`).join(', ');
    const columns = `session_id, seq, kind, CASE WHEN kind IN (${messages}) THEN '' ELSE payload END AS payload,
      CASE WHEN kind IN (${messages}) THEN ${CHUNK_TEXT_SQL} END AS chunk_text`;
    this.stmts = {
      remaining: o.db.prepare(`SELECT COALESCE(SUM(upto_seq), 0) AS n FROM search_backfill`),
      next: o.db.prepare(`SELECT session_id, upto_seq FROM search_backfill ORDER BY last_activity_at DESC, session_id LIMIT 1`),
      events: o.db.prepare(
        `SELECT ${columns} FROM events
          WHERE session_id = ? AND seq BETWEEN ? AND ? AND kind NOT IN (${unshown}) ORDER BY seq DESC`,
      ),
      below: o.db.prepare(
        `SELECT ${columns} FROM events
          WHERE session_id = ? AND seq < ? AND kind NOT IN (${unshown}) ORDER BY seq DESC LIMIT ${MESSAGE_PAGE}`,
      ),
      // The seq below which the batch stopped (kinds not indexed are skipped in SQL, so the
      // batch's last seq is not enough to know how far it got).
      scanned: o.db.prepare(`SELECT MIN(seq) AS seq FROM (SELECT seq FROM events WHERE session_id = ? AND seq <= ? ORDER BY seq DESC LIMIT ?)`),
      move: o.db.prepare(`UPDATE search_backfill SET upto_seq = ? WHERE session_id = ?`),
      finish: o.db.prepare(`DELETE FROM search_backfill WHERE session_id = ?`),
    };
    // One batch: the next `batchEvents` stored events of the newest pending session.
    this.step = o.db.transaction((): number => {
      const row = this.stmts.next.get() as BackfillRow | undefined;
      if (!row) return -1;
      const scannedTo = (this.stmts.scanned.get(row.session_id, row.upto_seq, o.batchEvents ?? BATCH_EVENTS) as { seq: number | null }).seq;
      if (scannedTo === null) {
        this.stmts.finish.run(row.session_id);
        return 0;
      }
      const rows = this.stmts.events.all(row.session_id, scannedTo, row.upto_seq) as IndexRow[];
      // A message at the bottom of the batch may have begun below it: read on to its first chunk,
      // so it is indexed whole and the next batch starts between two messages.
      const bottom = this.readToMessageStart(rows);
      const from = Math.min(scannedTo, bottom);
      o.index.addOlder(rows);
      if (from <= 1) this.stmts.finish.run(row.session_id);
      else this.stmts.move.run(from - 1, row.session_id);
      return row.upto_seq - from + 1;
    });
  }

  /** Appends to `rows` (newest first) the older chunks of the message they end on; returns the lowest seq now in them. */
  private readToMessageStart(rows: IndexRow[]): number {
    let last = rows[rows.length - 1];
    if (!last || !MESSAGE_KINDS.has(last.kind)) return last?.seq ?? Infinity;
    const kind = last.kind;
    for (;;) {
      const more = this.stmts.below.all(last.session_id, last.seq) as IndexRow[];
      const end = more.findIndex((r) => r.kind !== kind);
      rows.push(...(end < 0 ? more : more.slice(0, end)));
      last = rows[rows.length - 1]!;
      if (end >= 0 || more.length < MESSAGE_PAGE) return last.seq;
    }
  }

  /** Where it stands now (undefined when there is nothing left to index). */
  progress(): SearchProgressT | undefined {
    return this.running ? { indexed: this.indexed, total: this.total, done: false } : undefined;
  }

  /** Starts indexing in the background if anything is left; false when there was nothing. */
  start(): boolean {
    if (this.running || this.disposed) return this.running;
    this.total = (this.stmts.remaining.get() as { n: number }).n;
    if (this.total === 0) return false;
    this.indexed = 0;
    this.running = true;
    this.o.schedule(() => this.runBatch());
    return true;
  }

  /** Stops after the batch in progress (each batch is its own transaction: nothing is half done). */
  dispose(): void {
    this.disposed = true;
  }

  private runBatch(): void {
    if (this.disposed) return;
    const done = this.step();
    if (done < 0) {
      this.running = false;
      this.o.onProgress({ indexed: this.total, total: this.total, done: true });
      return;
    }
    // Seqs are gap-free from 1, so events scanned count exactly against the total.
    this.indexed = Math.min(this.total, this.indexed + done);
    this.o.onProgress({ indexed: this.indexed, total: this.total, done: false });
    this.o.schedule(() => this.runBatch());
  }
}
