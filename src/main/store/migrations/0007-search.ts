import type { Migration } from './index';

/**
 * Full-text search over transcripts (see `search-index.ts` for what is indexed and why).
 *
 * `search_index` is an FTS5 table holding the searchable text of one event per row; its rowid
 * is `search_docs.id`, which names the event (`session_id`, `seq`). Rowids grow with time for
 * events written from now on, and the backfill of older events takes negative ids going down
 * (newest session first), so "newest first" is `ORDER BY rowid DESC`, which FTS5 answers
 * without sorting: a query stops after its first page of hits however many rows match.
 *
 * Existing events are not indexed here (a migration runs in one transaction at start-up and a
 * large database would block the window without a word): `search_backfill` records, per
 * session, the last seq that existed now; `SearchBackfill` indexes them in small batches after
 * start-up and reports progress. Live events (seq above that mark) are indexed by `EventLog`.
 *
 * A deleted session takes its index rows with it (trigger), in the same transaction.
 */
export const m0007: Migration = {
  version: 7,
  name: 'full-text search',
  up(db) {
    db.exec(`
      CREATE TABLE search_docs (
        id         INTEGER PRIMARY KEY,
        session_id TEXT NOT NULL,
        seq        INTEGER NOT NULL
      );
      CREATE INDEX search_docs_by_session ON search_docs (session_id, seq);
      CREATE VIRTUAL TABLE search_index USING fts5(text, tokenize = 'unicode61 remove_diacritics 2');

      CREATE TABLE search_backfill (
        session_id       TEXT PRIMARY KEY,
        upto_seq         INTEGER NOT NULL,
        last_activity_at INTEGER NOT NULL
      ) WITHOUT ROWID;
      INSERT INTO search_backfill (session_id, upto_seq, last_activity_at)
        SELECT id, last_seq, last_activity_at FROM sessions WHERE last_seq > 0;

      CREATE TRIGGER search_forget_session AFTER DELETE ON sessions BEGIN
        DELETE FROM search_index WHERE rowid IN (SELECT id FROM search_docs WHERE session_id = old.id);
        DELETE FROM search_docs WHERE session_id = old.id;
        DELETE FROM search_backfill WHERE session_id = old.id;
      END;
    `);
  },
};
