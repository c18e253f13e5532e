import type { Migration } from './index';

export const m0003: Migration = {
  version: 3,
  name: 'permission requests and remembered rules',
  up(db) {
    db.exec(`
      CREATE TABLE permissions (
        request_id   TEXT PRIMARY KEY,
        session_id   TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        tool_call_id TEXT NOT NULL,
        tool_call    TEXT NOT NULL,
        options      TEXT NOT NULL,
        status       TEXT NOT NULL CHECK (status IN ('pending', 'decided')),
        outcome      TEXT,
        option_id    TEXT,
        decided_by   TEXT,
        reason       TEXT,
        created_at   INTEGER NOT NULL,
        deadline_at  INTEGER,
        decided_at   INTEGER
      );
      CREATE INDEX permissions_pending ON permissions (session_id) WHERE status = 'pending';

      CREATE TABLE permission_rules (
        id         TEXT PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        tool_kind  TEXT NOT NULL,
        decision   TEXT NOT NULL CHECK (decision IN ('allow_always', 'reject_always')),
        created_at INTEGER NOT NULL,
        UNIQUE (session_id, tool_kind)
      );
    `);
  },
};
