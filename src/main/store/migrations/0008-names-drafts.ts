import type { Migration } from './index';

/**
 * What the person keeps about a session besides its transcript: a name they chose
 * (`custom_title`, preferred over the agent's `title`, which the agent keeps updating), when a
 * window last showed it (`viewed_at`: activity after it is "unread"), and the composer's unsent
 * text (`drafts`, one row per session, removed when the session is). Existing sessions count
 * as seen, so an upgrade does not light up every entry as unread.
 */
export const m0008: Migration = {
  version: 8,
  name: 'names, unread, drafts',
  up(db) {
    db.exec(`
      ALTER TABLE sessions ADD COLUMN custom_title TEXT;
      ALTER TABLE sessions ADD COLUMN viewed_at INTEGER;
      UPDATE sessions SET viewed_at = last_activity_at;
      CREATE TABLE drafts (
        session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
        text       TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );
    `);
  },
};
