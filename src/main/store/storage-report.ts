/**
 * What the database holds, for Settings → Storage: its size, the sessions that take the most
 * room and the search index's share. Reads only; on a large file some of it walks many pages,
 * so the host asks for it off its event loop (`datadir/db-worker.ts`) on a connection of its own.
 */
import type { Db } from './db';
import { displayTitle } from './sessions.repo';

export interface LargeSession {
  id: string;
  title: string;
  events: number;
  /** Bytes of the stored event payloads (the transcript's text and data). */
  payloadBytes: number;
  archived: boolean;
  lastActivityAt: number;
}

export interface StorageReport {
  /** The database's pages (the main file's size once its WAL is checkpointed). */
  databaseBytes: number;
  /** Pages no table uses any more: what a compaction gives back. */
  freeBytes: number;
  sessions: number;
  archivedSessions: number;
  largestSessions: LargeSession[];
  /**
   * The search index (its FTS5 tables, the document map and the backfill's marks). `bytes` is
   * measured with SQLite's `dbstat` table where this build has it, else unknown.
   */
  searchIndex: { bytes: number | undefined; share: number | undefined };
}

/** Whether this SQLite build has the `dbstat` virtual table (better-sqlite3's builds do). */
export function hasDbstat(db: Db): boolean {
  try {
    db.prepare(`SELECT 1 FROM dbstat WHERE name = 'sqlite_schema' AND aggregate = TRUE`).get();
    return true;
  } catch {
    return false;
  }
}

/** Bytes of the pages of the search tables and their indexes, through `dbstat`. */
function searchIndexBytes(db: Db): number {
  const names = (
    db.prepare(`SELECT name FROM sqlite_schema WHERE name LIKE 'search\\_%' ESCAPE '\\' AND type IN ('table', 'index')`).all() as {
      name: string;
    }[]
  ).map((r) => r.name);
  // One name per query: dbstat then visits that b-tree only, not the whole file.
  const size = db.prepare(`SELECT COALESCE(SUM(pgsize), 0) AS bytes FROM dbstat WHERE name = ? AND aggregate = TRUE`);
  return names.reduce((sum, name) => sum + (size.get(name) as { bytes: number }).bytes, 0);
}

/**
 * The report. The largest sessions are the `largest` with the most events (their stored
 * `last_seq`, no transcript scan), each with its payload bytes summed over its own rows.
 */
export function storageReport(db: Db, largest = 10): StorageReport {
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const pages = db.pragma('page_count', { simple: true }) as number;
  const free = db.pragma('freelist_count', { simple: true }) as number;
  const counts = db.prepare(`SELECT COUNT(*) AS n, COUNT(archived_at) AS archived FROM sessions`).get() as { n: number; archived: number };
  const top = db
    .prepare(
      `SELECT id, title, custom_title, first_prompt, last_seq, archived_at, last_activity_at FROM sessions
       ORDER BY last_seq DESC, id LIMIT ?`,
    )
    .all(largest) as {
    id: string;
    title: string | null;
    custom_title: string | null;
    first_prompt: string | null;
    last_seq: number;
    archived_at: number | null;
    last_activity_at: number;
  }[];
  const bytesOf = db.prepare(`SELECT COUNT(*) AS events, COALESCE(SUM(LENGTH(CAST(payload AS BLOB))), 0) AS bytes FROM events WHERE session_id = ?`);
  const largestSessions = top.map((r) => {
    const { events, bytes } = bytesOf.get(r.id) as { events: number; bytes: number };
    return {
      id: r.id,
      title: displayTitle(r),
      events,
      payloadBytes: bytes,
      archived: r.archived_at !== null,
      lastActivityAt: r.last_activity_at,
    };
  });
  const databaseBytes = pageSize * pages;
  const searchBytes = hasDbstat(db) ? searchIndexBytes(db) : undefined;
  return {
    databaseBytes,
    freeBytes: pageSize * free,
    sessions: counts.n,
    archivedSessions: counts.archived,
    largestSessions,
    searchIndex: { bytes: searchBytes, share: searchBytes === undefined || databaseBytes === 0 ? undefined : searchBytes / databaseBytes },
  };
}
