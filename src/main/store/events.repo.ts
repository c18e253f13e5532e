import type { Db } from './db';
import { eventPayloads, type EventBody, type EventKind, type EventOf, type SessionEventT } from '../../shared/contract';

interface EventRow {
  session_id: string;
  seq: number;
  kind: string;
  payload: string;
  at: number;
}

const isKind = (kind: string): kind is EventKind => Object.hasOwn(eventPayloads, kind);

/**
 * A stored row as the event its kind says, checked against the kind's payload schema. A row
 * that does not parse (an older or newer version wrote it, or it is damaged) becomes an
 * `unreadable` event with the stored kind and text: shown, never dropped, never a crash.
 */
export function eventFromRow(r: EventRow): SessionEventT {
  const header = { sessionId: r.session_id, seq: r.seq, at: r.at };
  let body: EventBody | undefined;
  if (isKind(r.kind)) {
    let json: unknown;
    try {
      json = JSON.parse(r.payload);
    } catch {
      json = undefined;
    }
    const parsed = eventPayloads[r.kind].safeParse(json);
    // The schema of `r.kind` produced the payload, so kind and payload correspond.
    if (parsed.success) body = { kind: r.kind, payload: parsed.data } as EventBody;
  }
  return body ? { ...header, ...body } : { ...header, kind: 'unreadable', payload: { storedKind: r.kind, raw: r.payload } };
}

/** The events a query for `K` returns: of those kinds, or rows of them that are unreadable. */
export type Found<K extends EventKind> = EventOf<K> | EventOf<'unreadable'>;

/** Append-only transcript storage. Appends go through `EventLog`, which batches them. */
/**
 * The newest command list of a session through the partial index of migration 0011 (named: on
 * equal columns the planner would pick the primary key and walk the transcript).
 */
export const LATEST_COMMANDS_SQL = `SELECT * FROM events INDEXED BY events_available_commands
  WHERE session_id = ? AND kind = 'available_commands' ORDER BY seq DESC LIMIT 1`;

/**
 * Sessions whose newest page is kept, parsed: the page every switch asks for (issue 21,
 * `switch_ms_100k`: its rows' JSON and schema checks were 0.46 of the host's 0.84 ms for 200
 * events, the read 0.36). About 200 events of a few hundred bytes each per session.
 */
const NEWEST_PAGES_KEPT = 32;

type Page = { events: SessionEventT[]; hasMore: boolean };

export class EventsRepo {
  private readonly stmts;
  /**
   * The newest page per session, with the session's committed last seq and its first stored seq
   * when it was read: a commit moves the last seq in the same transaction as its rows, and a
   * clean-up deletes a transcript from its oldest rows (leaving the last seq), so equal seqs are
   * the same page. In the order last read (the first is dropped first). Never handed out to be changed.
   */
  private readonly newest = new Map<string, { lastSeq: number; firstSeq: number | null; limit: number; page: Readonly<Page> }>();

  constructor(db: Db) {
    this.stmts = {
      insert: db.prepare(`INSERT INTO events (session_id, seq, kind, payload, at) VALUES (?, ?, ?, ?, ?)`),
      bumpSeq: db.prepare(`UPDATE sessions SET last_seq = ?, last_activity_at = MAX(last_activity_at, ?) WHERE id = ?`),
      touch: db.prepare(`UPDATE sessions SET last_activity_at = MAX(last_activity_at, ?) WHERE id = ?`),
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
      firstSeq: db.prepare(`SELECT MIN(seq) FROM events WHERE session_id = ?`).pluck(),
      latestCommands: db.prepare(LATEST_COMMANDS_SQL),
    };
  }

  insert(e: SessionEventT): void {
    // An unreadable event is only ever read; the host never writes one.
    if (e.kind === 'unreadable') throw new Error('unreadable events are not stored');
    this.stmts.insert.run(e.sessionId, e.seq, e.kind, JSON.stringify(e.payload), e.at);
  }

  setLastSeq(sessionId: string, seq: number, at: number): void {
    this.stmts.bumpSeq.run(seq, at, sessionId);
  }

  /** The session was active at `at` (later than its stored activity, else nothing changes). */
  touch(sessionId: string, at: number): void {
    this.stmts.touch.run(at, sessionId);
  }

  /** Stored last seq (0 for a new session, undefined for an unknown one). */
  lastSeq(sessionId: string): number | undefined {
    return (this.stmts.lastSeq.get(sessionId) as { last_seq: number } | undefined)?.last_seq;
  }

  /**
   * Newest `limit` events before `beforeSeq`, returned oldest first; `hasMore` if older exist.
   * The newest page (`beforeSeq` past the last) comes from `newest` while nothing was committed
   * to the session since it was read. The caller must not change what it gets.
   */
  pageBefore(sessionId: string, beforeSeq: number, limit: number): Readonly<Page> {
    const lastSeq = this.lastSeq(sessionId);
    const isNewest = lastSeq !== undefined && beforeSeq > lastSeq;
    const firstSeq = isNewest ? (this.stmts.firstSeq.get(sessionId) as number | null) : null;
    if (isNewest) {
      const kept = this.newest.get(sessionId);
      if (kept && kept.lastSeq === lastSeq && kept.firstSeq === firstSeq && kept.limit === limit) {
        this.newest.delete(sessionId);
        this.newest.set(sessionId, kept);
        return kept.page;
      }
    }
    const rows = this.stmts.before.all(sessionId, beforeSeq, limit + 1) as EventRow[];
    const page: Readonly<Page> = Object.freeze({ events: Object.freeze(rows.slice(0, limit).reverse().map(eventFromRow)) as SessionEventT[], hasMore: rows.length > limit });
    if (isNewest) {
      this.newest.delete(sessionId);
      this.newest.set(sessionId, { lastSeq, firstSeq, limit, page });
      if (this.newest.size > NEWEST_PAGES_KEPT) this.newest.delete(this.newest.keys().next().value!);
    }
    return page;
  }

  /** Drops the session's kept newest page (it closed, or is deleted). */
  forgetNewest(sessionId: string): void {
    this.newest.delete(sessionId);
  }

  /** Every stored event of a session before `beforeSeq` (all when absent), oldest first, read a page at a time. */
  *all(sessionId: string, beforeSeq = Number.MAX_SAFE_INTEGER): Generator<SessionEventT> {
    let after = 0;
    for (;;) {
      const page = this.pageAfter(sessionId, after, 2_000);
      for (const e of page.events) {
        if (e.seq >= beforeSeq) return;
        yield e;
      }
      const last = page.events.at(-1);
      if (!page.hasMore || !last) return;
      after = last.seq;
    }
  }

  /** Up to `limit` events after `afterSeq`, oldest first; `hasMore` if newer exist. */
  pageAfter(sessionId: string, afterSeq: number, limit: number): { events: SessionEventT[]; hasMore: boolean } {
    const rows = this.stmts.after.all(sessionId, afterSeq, limit + 1) as EventRow[];
    return { events: rows.slice(0, limit).map(eventFromRow), hasMore: rows.length > limit };
  }

  /** The newest `limit` events of the given kinds, oldest first. */
  recentOfKinds<K extends EventKind>(sessionId: string, kinds: readonly K[], limit: number): Found<K>[] {
    const rows = (this.stmts.recentOfKinds.all(sessionId, JSON.stringify(kinds), limit) as EventRow[]).reverse();
    // The query kept only rows stored as `kinds`; each reads as its kind or as unreadable.
    return rows.map(eventFromRow) as Found<K>[];
  }

  /** The session's newest `available_commands` event, found through its own index (switching asks). */
  latestCommands(sessionId: string): Found<'available_commands'> | undefined {
    const row = this.stmts.latestCommands.get(sessionId) as EventRow | undefined;
    return row ? (eventFromRow(row) as Found<'available_commands'>) : undefined;
  }

  countOfKind(sessionId: string, kind: EventKind): number {
    return (this.stmts.countOfKind.get(sessionId, kind) as { n: number }).n;
  }
}
