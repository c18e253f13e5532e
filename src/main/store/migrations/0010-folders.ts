import type { Migration } from './index';

/**
 * Folders for New session: the folders a session may use besides its own (`additional_dirs`,
 * a JSON array of absolute paths, NULL for none) and the folders sessions were started in,
 * for the dialog's recent list (kept apart from sessions: deleting a session does not make
 * its folder less recent).
 */
export const m0010: Migration = {
  version: 10,
  name: 'additional dirs, recent folders',
  up(db) {
    db.exec(`
      ALTER TABLE sessions ADD COLUMN additional_dirs TEXT;
      CREATE TABLE recent_folders (
        path TEXT PRIMARY KEY,
        used_at INTEGER NOT NULL
      );
      CREATE INDEX recent_folders_used ON recent_folders (used_at DESC);
    `);
  },
};
