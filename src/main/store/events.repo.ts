import type { Db } from './db';
import type { EventKindT, SessionEventT } from '../../shared/contract';

interface EventRow {
  session_id: string;
  seq: number;
  kind: EventKindT;
  payload: string;
  at: number;
}

const toEvent = (r: EventRow): SessionEventT => ({
  sessionId: r.session_id,
  seq: r.seq,
  kind: r.kind,
  payload: JSON.parse(r.payload) as Record<string, unknown>,
  at: r.at,
});

/** Append-only transcript storage. Appends go through `EventLog`, which batches them. */
export class EventsRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      insert: db.prepare(`INSERT INTO events (session_id, seq, kind, payload, at) VALUES (?, ?, ?, ?, ?)`),
      bumpSeq: db.prepare(`UPDATE sessions SET last_seq = ?, last_activity_at = MAX(last_activity_at, ?) WHERE id = ?`),
      before: db.prepare(
        `SELECT * FROM events WHERE session_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
      ),
      after: db.prepare(`SELECT * FROM events WHERE session_id = ? AND seq > ? ORDER BY seq ASC LIMIT ?`),
      lastSeq: db.prepare(`SELECT last_seq FROM sessions WHERE id = ?`),
      recentOfKinds: db.prepare(
        `SELECT * FROM events WHERE session_id = ? AND kind IN (SELECT value FROM json_each(?))
         ORDER BY seq DESC LIMIT ?`,
      ),
      countOfKind: db.prepare(`SELECT COUNT(*) AS n FROM events WHERE session_id = ? AND kind = ?`),
    };
  }

  insert(e: SessionEventT): void {
    this.stmts.insert.run(e.sessionId, e.seq, e.kind, JSON.stringify(e.payload), e.at);
  }

  setLastSeq(sessionId: string, seq: number, at: number): void {
    this.stmts.bumpSeq.run(seq, at, sessionId);
  }

  /** Stored last seq (0 for a new session, undefined for an unknown one). */
  lastSeq(sessionId: string): number | undefined {
    return (this.stmts.lastSeq.get(sessionId) as { last_seq: number } | undefined)?.last_seq;
  }

  /** Newest `limit` events before `beforeSeq`, returned oldest first; `hasMore` if older exist. */
  pageBefore(sessionId: string, beforeSeq: number, limit: number): { events: SessionEventT[]; hasMore: boolean } {
    const rows = this.stmts.before.all(sessionId, beforeSeq, limit + 1) as EventRow[];
    const hasMore = rows.length > limit;
    return { events: rows.slice(0, limit).reverse().map(toEvent), hasMore };
  }

  /** Up to `limit` events after `afterSeq`, oldest first; `hasMore` if newer exist. */
  pageAfter(sessionId: string, afterSeq: number, limit: number): { events: SessionEventT[]; hasMore: boolean } {
    const rows = this.stmts.after.all(sessionId, afterSeq, limit + 1) as EventRow[];
    return { events: rows.slice(0, limit).map(toEvent), hasMore: rows.length > limit };
  }

  /** The newest `limit` events of the given kinds, oldest first. */
  recentOfKinds(sessionId: string, kinds: readonly EventKindT[], limit: number): SessionEventT[] {
    return (this.stmts.recentOfKinds.all(sessionId, JSON.stringify(kinds), limit) as EventRow[]).reverse().map(toEvent);
  }

  countOfKind(sessionId: string, kind: EventKindT): number {
    return (this.stmts.countOfKind.get(sessionId, kind) as { n: number }).n;
  }
}
