import type { Migration } from './index';

/**
 * Search indexes whole messages (issue 22): a message the agent streamed is stored as many
 * chunks, and one index row per chunk showed "Echo:" alone as the snippet of "Echo: hello there"
 * and never found a phrase across two chunks. From now on `SearchIndex` keeps one row per
 * message, written when the message ends; `search_open` holds, per session, the message still
 * being written (its chunks are indexed one by one until then, so it is found meanwhile).
 *
 * The upgrade re-indexes: the old per-chunk rows are dropped here (dropping the table is fast;
 * deleting its rows would walk them all), and every stored transcript is queued for
 * `SearchBackfill` again, which indexes it in the background after start-up, newest first, with
 * messages whole, reporting progress as it goes (the search panel says results may be
 * incomplete meanwhile). Live events are indexed by `EventLog` as usual.
 */
export const m0016: Migration = {
  version: 16,
  name: 'search whole messages',
  up(db) {
    db.exec(`
      DROP TABLE search_index;
      CREATE VIRTUAL TABLE search_index USING fts5(text, tokenize = 'unicode61 remove_diacritics 2');
      DELETE FROM search_docs;

      CREATE TABLE search_open (
        session_id TEXT PRIMARY KEY,
        kind       TEXT NOT NULL,
        first_seq  INTEGER NOT NULL,
        last_seq   INTEGER NOT NULL
      ) WITHOUT ROWID;

      DELETE FROM search_backfill;
      INSERT INTO search_backfill (session_id, upto_seq, last_activity_at)
        SELECT id, last_seq, last_activity_at FROM sessions WHERE last_seq > 0;

      DROP TRIGGER search_forget_session;
      CREATE TRIGGER search_forget_session AFTER DELETE ON sessions BEGIN
        DELETE FROM search_index WHERE rowid IN (SELECT id FROM search_docs WHERE session_id = old.id);
        DELETE FROM search_docs WHERE session_id = old.id;
        DELETE FROM search_backfill WHERE session_id = old.id;
        DELETE FROM search_open WHERE session_id = old.id;
      END;
    `);
  },
};
