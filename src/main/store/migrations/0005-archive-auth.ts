import type { Migration } from './index';

/**
 * Archived sessions (hidden from the list, restorable), the sign-in an agent waits for (shown
 * in the session's view until it is done), and environment variables stored per agent (a
 * sign-in with an API key).
 */
export const m0005: Migration = {
  version: 5,
  name: 'archive, sign-in, agent environment',
  up(db) {
    db.exec(`
      ALTER TABLE sessions ADD COLUMN archived_at INTEGER;
      ALTER TABLE sessions ADD COLUMN auth_request TEXT;
      CREATE TABLE agent_env (
        agent_id TEXT NOT NULL,
        name     TEXT NOT NULL,
        value    TEXT NOT NULL,
        secret   INTEGER NOT NULL DEFAULT 1,
        PRIMARY KEY (agent_id, name)
      ) WITHOUT ROWID;
    `);
  },
};
