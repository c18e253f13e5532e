import type { Migration } from './index';

/**
 * Archived sessions (hidden from the list, restorable) and the sign-in an agent waits for
 * (shown in the session's view until it is done). Variables stored by a sign-in are secrets:
 * they live with the catalogue's other secrets (safeStorage / a 0600 file), not in SQLite.
 */
export const m0006: Migration = {
  version: 6,
  name: 'archive, sign-in',
  up(db) {
    db.exec(`
      ALTER TABLE sessions ADD COLUMN archived_at INTEGER;
      ALTER TABLE sessions ADD COLUMN auth_request TEXT;
    `);
  },
};
