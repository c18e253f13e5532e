import type { Migration } from './index';

export const m0004: Migration = {
  version: 4,
  name: 'settings',
  up(db) {
    db.exec(`CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;`);
  },
};
