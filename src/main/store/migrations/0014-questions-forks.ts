import type { Migration } from './index';

/**
 * Questions from the agent (`elicitation/create`), pending and answered, with who answered and
 * when they expire: like `permissions`, so a pending question survives a switch or a reload and
 * is closed at a restart. The answer itself is not kept here (it may hold a secret); the
 * transcript keeps it with secret fields masked.
 *
 * Sessions learn where they came from and what their agent can do: `forked_from` (the session a
 * fork copied; not a foreign key, the parent may be deleted), `read_only` (imported from a file:
 * no agent session, never resumed) and `can_fork` (its agent advertised `session/fork` when it
 * last started).
 */
export const m0014: Migration = {
  version: 14,
  name: 'questions, forks and imported sessions',
  up(db) {
    db.exec(`
      CREATE TABLE questions (
        request_id   TEXT PRIMARY KEY,
        session_id   TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        tool_call_id TEXT,
        question     TEXT NOT NULL,
        status       TEXT NOT NULL CHECK (status IN ('pending', 'answered')),
        action       TEXT CHECK (action IN ('accept', 'decline', 'cancel')),
        decided_by   TEXT,
        reason       TEXT,
        created_at   INTEGER NOT NULL,
        deadline_at  INTEGER,
        decided_at   INTEGER
      );
      CREATE INDEX questions_pending ON questions (session_id) WHERE status = 'pending';

      ALTER TABLE sessions ADD COLUMN forked_from TEXT;
      ALTER TABLE sessions ADD COLUMN read_only INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE sessions ADD COLUMN can_fork INTEGER NOT NULL DEFAULT 0;
    `);
  },
};
