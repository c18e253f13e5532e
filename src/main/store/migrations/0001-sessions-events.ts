import type { Migration } from './index';

export const m0001: Migration = {
  version: 1,
  name: 'sessions and events',
  up(db) {
    db.exec(`
      CREATE TABLE sessions (
        id               TEXT PRIMARY KEY,
        agent_id         TEXT NOT NULL,
        cwd              TEXT NOT NULL,
        title            TEXT,
        first_prompt     TEXT,
        state            TEXT NOT NULL,
        state_reason     TEXT,
        acp_session_id   TEXT,
        last_seq         INTEGER NOT NULL DEFAULT 0,
        created_at       INTEGER NOT NULL,
        updated_at       INTEGER NOT NULL,
        last_activity_at INTEGER NOT NULL,
        detached_at      INTEGER
      );
      CREATE INDEX sessions_by_state ON sessions (state, last_activity_at);
      CREATE INDEX sessions_by_updated ON sessions (updated_at DESC);

      CREATE TABLE events (
        session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        seq        INTEGER NOT NULL,
        kind       TEXT NOT NULL,
        payload    TEXT NOT NULL,
        at         INTEGER NOT NULL,
        PRIMARY KEY (session_id, seq)
      ) WITHOUT ROWID;

      -- A retried send with the same client message id runs once.
      CREATE TABLE prompts (
        session_id        TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        client_message_id TEXT NOT NULL,
        at                INTEGER NOT NULL,
        PRIMARY KEY (session_id, client_message_id)
      ) WITHOUT ROWID;
    `);
  },
};
