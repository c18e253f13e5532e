/**
 * Clean up: archived sessions whose last activity is older than a chosen age go, with their
 * transcripts, prompts, permission records, drafts and search rows. `previewCleanUp` counts
 * what would go (the confirmation names it); `cleanUp` deletes exactly those sessions.
 *
 * Only archived sessions that are ENDED: a session someone resumed meanwhile is live again and
 * stays. A long transcript is deleted in slices, each its own short transaction with a turn of
 * the event loop between them, so a turn elsewhere never waits behind a large deletion; the
 * session's row goes last, in the same transaction as its last slice. A crash midway leaves
 * the session archived with the rest of its transcript, and the next clean-up finishes it; a
 * session restored from the archive between two slices stops being deleted and keeps the rest.
 */
import type { Db } from './db';
import type { SessionsRepo } from './sessions.repo';

export interface CleanUpPreview {
  /** Sessions whose last activity is at or before this time. */
  cutoff: number;
  sessions: number;
  events: number;
}

export interface CleanUpOptions {
  /** Rows deleted per slice (default 2,000). */
  sliceRows?: number;
  /** Called after each session is gone (the host forgets its queued events; the repository told the windows). */
  onDeleted?(sessionId: string): void;
  /** Lets other work run between slices (default: `setImmediate`). */
  yieldNow?(): Promise<void>;
}

const ELIGIBLE = `archived_at IS NOT NULL AND state = 'ENDED' AND last_activity_at <= ?`;

/** What `cleanUp(cutoff)` would delete now. */
export function previewCleanUp(db: Db, cutoff: number): CleanUpPreview {
  const row = db.prepare(`SELECT COUNT(*) AS sessions, COALESCE(SUM(last_seq), 0) AS events FROM sessions WHERE ${ELIGIBLE}`).get(cutoff) as {
    sessions: number;
    events: number;
  };
  return { cutoff, ...row };
}

const defaultYield = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function hasTable(db: Db, name: string): boolean {
  return db.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?`).get(name) !== undefined;
}

/** Deletes the archived sessions `previewCleanUp(cutoff)` counts; resolves with how many went. */
export async function cleanUp(store: { db: Db; sessions: SessionsRepo }, cutoff: number, o: CleanUpOptions = {}): Promise<number> {
  const { db } = store;
  const slice = o.sliceRows ?? 2_000;
  const yieldNow = o.yieldNow ?? defaultYield;
  const ids = (db.prepare(`SELECT id FROM sessions WHERE ${ELIGIBLE} ORDER BY last_activity_at`).all(cutoff) as { id: string }[]).map((r) => r.id);
  const search = hasTable(db, 'search_docs');
  const stmts = {
    stillEligible: db.prepare(`SELECT 1 FROM sessions WHERE id = ? AND ${ELIGIBLE}`),
    ...(search
      ? {
          searchIndex: db.prepare(`DELETE FROM search_index WHERE rowid IN (SELECT id FROM search_docs WHERE session_id = ? ORDER BY id LIMIT ?)`),
          searchDocs: db.prepare(`DELETE FROM search_docs WHERE id IN (SELECT id FROM search_docs WHERE session_id = ? ORDER BY id LIMIT ?)`),
        }
      : {}),
  };
  // `events` is WITHOUT ROWID: a slice is addressed by its primary key instead.
  const eventSlice = db.prepare(
    `DELETE FROM events WHERE session_id = @id AND seq IN (SELECT seq FROM events WHERE session_id = @id ORDER BY seq LIMIT @limit)`,
  );
  const others = ['prompts', 'permissions', 'permission_rules', 'drafts'].filter((t) => hasTable(db, t));
  // Each slice checks again: a session restored from the archive meanwhile keeps the rest.
  const sliceOnce = db.transaction((id: string): boolean => {
    if (!stmts.stillEligible.get(id, cutoff)) return false;
    let removed = eventSlice.run({ id, limit: slice }).changes;
    if (stmts.searchIndex && stmts.searchDocs) {
      stmts.searchIndex.run(id, slice);
      removed += stmts.searchDocs.run(id, slice).changes;
    }
    return removed > 0;
  });
  const finish = db.transaction((id: string): boolean => {
    if (!stmts.stillEligible.get(id, cutoff)) return false;
    for (const table of others) db.prepare(`DELETE FROM ${table} WHERE session_id = ?`).run(id);
    // Through the repository, which announces it (every window drops the session); the delete
    // trigger of migration 0007 takes whatever search rows remain.
    return store.sessions.remove(id);
  });
  let deleted = 0;
  for (const id of ids) {
    if (!stmts.stillEligible.get(id, cutoff)) continue;
    while (sliceOnce(id)) await yieldNow();
    if (finish(id)) {
      deleted++;
      o.onDeleted?.(id);
    }
    await yieldNow();
  }
  return deleted;
}
