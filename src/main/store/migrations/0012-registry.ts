import type { Migration } from './index';

/**
 * Agents added from the ACP registry. `registry_agents` holds, per catalogue agent (its row in
 * `agents` carries the launch actually started), the registry entry it came from, how it is
 * distributed, the version it runs, the version Roll back returns to, and whether it is pinned
 * (Update refused). `registry_versions` keeps each kept version's launch and the entry as it
 * was, so a roll back needs neither the network nor the registry still listing that version;
 * a binary version also records its folder and the sha256 of its download (verified against
 * the entry, or first seen: a second download of the same version must match it). Both go
 * with their agent (ON DELETE CASCADE); folders no row names are pruned from the data dir.
 */
export const m0012: Migration = {
  version: 12,
  name: 'registry agents',
  up(db) {
    db.exec(`
      CREATE TABLE registry_agents (
        agent_id         TEXT PRIMARY KEY REFERENCES agents(id) ON DELETE CASCADE,
        registry_id      TEXT NOT NULL,
        kind             TEXT NOT NULL CHECK (kind IN ('npx', 'uvx', 'binary')),
        version          TEXT NOT NULL,
        previous_version TEXT,
        pinned           INTEGER NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1)),
        updated_at       INTEGER NOT NULL
      );
      CREATE TABLE registry_versions (
        agent_id     TEXT NOT NULL REFERENCES registry_agents(agent_id) ON DELETE CASCADE,
        version      TEXT NOT NULL,
        command      TEXT NOT NULL,
        args         TEXT NOT NULL,
        env          TEXT NOT NULL,
        manifest     TEXT NOT NULL,
        platform     TEXT,
        install_dir  TEXT,
        sha256       TEXT,
        installed_at INTEGER NOT NULL,
        PRIMARY KEY (agent_id, version)
      );
    `);
  },
};
