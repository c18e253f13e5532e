import type { Migration } from './index';

/**
 * The agent catalogue. `env` holds only non-secret values (JSON object); secret values live in
 * the host's secret box (never in this file), only their names here (`secret_names`, JSON
 * array), so a copied database leaks no key. `source` says who owns the row: the settings view
 * (`user`) or `<data dir>/agents.json` (`file`, re-imported on every start). `last_test` is the
 * last `agents:test` outcome as JSON.
 */
export const m0005: Migration = {
  version: 5,
  name: 'agents',
  up(db) {
    db.exec(`
      CREATE TABLE agents (
        id           TEXT PRIMARY KEY,
        name         TEXT NOT NULL,
        command      TEXT NOT NULL,
        args         TEXT NOT NULL DEFAULT '[]',
        env          TEXT NOT NULL DEFAULT '{}',
        secret_names TEXT NOT NULL DEFAULT '[]',
        source       TEXT NOT NULL CHECK (source IN ('user', 'file')),
        preset_id    TEXT,
        last_test    TEXT,
        created_at   INTEGER NOT NULL,
        updated_at   INTEGER NOT NULL
      );
    `);
  },
};
