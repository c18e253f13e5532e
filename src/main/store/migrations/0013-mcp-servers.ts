import type { Migration } from './index';

/**
 * MCP servers given to agents. `vars` is the environment (stdio) or the headers (http, sse)
 * as a JSON array of `{name, secret: false, value}` and `{name, secret: true}`: a secret's
 * value lives in the secret box, never here, so a copied database leaks no token. Names are
 * unique regardless of case (agents name tools after them). `mcp_server_agents` says which
 * agents get a server; agent ids are not foreign keys, since built-in agents have no row.
 */
export const m0013: Migration = {
  version: 13,
  name: 'mcp servers',
  up(db) {
    db.exec(`
      CREATE TABLE mcp_servers (
        id         TEXT PRIMARY KEY,
        name       TEXT NOT NULL UNIQUE COLLATE NOCASE,
        type       TEXT NOT NULL CHECK (type IN ('stdio', 'http', 'sse')),
        command    TEXT,
        args       TEXT NOT NULL DEFAULT '[]',
        url        TEXT,
        vars       TEXT NOT NULL DEFAULT '[]',
        last_test  TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        CHECK (CASE type WHEN 'stdio' THEN command IS NOT NULL AND url IS NULL ELSE url IS NOT NULL AND command IS NULL END)
      );
      CREATE TABLE mcp_server_agents (
        server_id TEXT NOT NULL REFERENCES mcp_servers (id) ON DELETE CASCADE,
        agent_id  TEXT NOT NULL,
        PRIMARY KEY (server_id, agent_id)
      );
      CREATE INDEX mcp_server_agents_agent ON mcp_server_agents (agent_id);
    `);
  },
};
