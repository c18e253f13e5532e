import type { Migration } from './index';

/**
 * What was stored and waits to be indexed for search (ADR 0034): a prompt, a tool call's title,
 * a message (or a part of one, ADR 0029) that ended. `SearchIndex` indexes them in batches (a
 * search first, else within `TAIL_MS`, or once enough text waits), not one FTS5 segment per
 * write: with 100 sessions taking turns at once, most writes carried one or two such rows, and
 * their segments and merges were a third of the host's work per turn. A row here is written in
 * the transaction that stores its event and deleted in the one that indexes it, so a crash
 * loses nothing: the next start indexes what is left (`SearchIndex.recover`). `seq`…`last_seq`
 * is the event, or a message's chunks; `replaces` says rows of that message were indexed
 * before (a search came first), to delete when it is indexed whole.
 */
export const m0018: Migration = {
  version: 18,
  name: 'search waiting',
  up(db) {
    db.exec(`
      CREATE TABLE search_waiting (
        session_id TEXT NOT NULL,
        seq        INTEGER NOT NULL,
        last_seq   INTEGER NOT NULL,
        kind       TEXT NOT NULL,
        replaces   INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (session_id, seq)
      ) WITHOUT ROWID;

      DROP TRIGGER search_forget_session;
      CREATE TRIGGER search_forget_session AFTER DELETE ON sessions BEGIN
        DELETE FROM search_index WHERE rowid IN (SELECT id FROM search_docs WHERE session_id = old.id);
        DELETE FROM search_docs WHERE session_id = old.id;
        DELETE FROM search_backfill WHERE session_id = old.id;
        DELETE FROM search_open WHERE session_id = old.id;
        DELETE FROM search_waiting WHERE session_id = old.id;
      END;
    `);
  },
};
