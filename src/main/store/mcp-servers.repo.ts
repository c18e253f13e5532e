import type { Db } from './db';

/**
 * A stored environment entry or header. A secret carries no value here: the type leaves no
 * room for one, and `write` strips any that slipped through a cast.
 */
export type StoredVar = { name: string; secret: false; value: string } | { name: string; secret: true };

type Base = { id: string; name: string; agentIds: string[]; lastTest?: unknown; createdAt: number; updatedAt: number };
export type McpServerRecord =
  | (Base & { type: 'stdio'; command: string; args: string[]; env: StoredVar[] })
  | (Base & { type: 'http' | 'sse'; url: string; headers: StoredVar[] });

/** What `upsert` writes: everything but times, the last test and the agents (set apart). */
export type McpServerWrite =
  | { id: string; name: string; type: 'stdio'; command: string; args: string[]; env: StoredVar[] }
  | { id: string; name: string; type: 'http' | 'sse'; url: string; headers: StoredVar[] };

interface Row {
  id: string;
  name: string;
  type: 'stdio' | 'http' | 'sse';
  command: string | null;
  args: string;
  url: string | null;
  vars: string;
  last_test: string | null;
  created_at: number;
  updated_at: number;
}

/** Only `{name, secret, value?}` leaves or enters the column, whatever else an object carries. */
function cleanVars(vars: readonly StoredVar[]): StoredVar[] {
  return vars.map((v) => (v.secret ? { name: v.name, secret: true } : { name: v.name, secret: false, value: v.value }));
}

function toRecord(row: Row, agentIds: string[]): McpServerRecord {
  const base: Base = {
    id: row.id,
    name: row.name,
    agentIds,
    ...(row.last_test ? { lastTest: JSON.parse(row.last_test) as unknown } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  const vars = cleanVars(JSON.parse(row.vars) as StoredVar[]);
  return row.type === 'stdio'
    ? { ...base, type: 'stdio', command: row.command ?? '', args: JSON.parse(row.args) as string[], env: vars }
    : { ...base, type: row.type, url: row.url ?? '', headers: vars };
}

/** The MCP servers' rows and which agents get each. Never a secret value (see `StoredVar`). */
export class McpServersRepo {
  private readonly stmts;

  constructor(private readonly db: Db) {
    this.stmts = {
      // Added in the same ms: in the order they were added (rowid), not by their random ids.
      list: db.prepare(`SELECT * FROM mcp_servers ORDER BY created_at, rowid`),
      get: db.prepare(`SELECT * FROM mcp_servers WHERE id = ?`),
      byName: db.prepare(`SELECT id FROM mcp_servers WHERE name = ?`),
      agentsAll: db.prepare(`SELECT server_id, agent_id FROM mcp_server_agents ORDER BY agent_id`),
      agentsOf: db.prepare(`SELECT agent_id FROM mcp_server_agents WHERE server_id = ? ORDER BY agent_id`),
      forAgent: db.prepare(
        `SELECT s.* FROM mcp_servers s JOIN mcp_server_agents a ON a.server_id = s.id WHERE a.agent_id = ? ORDER BY s.created_at, s.rowid`,
      ),
      upsert: db.prepare(
        `INSERT INTO mcp_servers (id, name, type, command, args, url, vars, created_at, updated_at)
         VALUES (@id, @name, @type, @command, @args, @url, @vars, @now, @now)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, type = excluded.type, command = excluded.command,
           args = excluded.args, url = excluded.url, vars = excluded.vars, updated_at = excluded.updated_at`,
      ),
      remove: db.prepare(`DELETE FROM mcp_servers WHERE id = ?`),
      setTest: db.prepare(`UPDATE mcp_servers SET last_test = ? WHERE id = ?`),
      clearAgents: db.prepare(`DELETE FROM mcp_server_agents WHERE server_id = ?`),
      enable: db.prepare(`INSERT OR IGNORE INTO mcp_server_agents (server_id, agent_id) VALUES (?, ?)`),
      disable: db.prepare(`DELETE FROM mcp_server_agents WHERE server_id = ? AND agent_id = ?`),
      forgetAgent: db.prepare(`DELETE FROM mcp_server_agents WHERE agent_id = ?`),
    };
  }

  list(): McpServerRecord[] {
    const agents = new Map<string, string[]>();
    for (const r of this.stmts.agentsAll.all() as { server_id: string; agent_id: string }[]) {
      agents.set(r.server_id, [...(agents.get(r.server_id) ?? []), r.agent_id]);
    }
    return (this.stmts.list.all() as Row[]).map((row) => toRecord(row, agents.get(row.id) ?? []));
  }

  get(id: string): McpServerRecord | undefined {
    const row = this.stmts.get.get(id) as Row | undefined;
    return row && toRecord(row, this.agentsOf(id));
  }

  /** The id of the server with this name in any case, if there is one. */
  idByName(name: string): string | undefined {
    return (this.stmts.byName.get(name) as { id: string } | undefined)?.id;
  }

  /** The servers an agent gets, in the order they were added. */
  forAgent(agentId: string): McpServerRecord[] {
    return (this.stmts.forAgent.all(agentId) as Row[]).map((row) => toRecord(row, this.agentsOf(row.id)));
  }

  /** Adds or replaces a server and sets exactly `agentIds`, in one transaction; keeps its creation time and last test. */
  save(server: McpServerWrite, agentIds: readonly string[], now: number): void {
    this.db.transaction(() => {
      this.stmts.upsert.run({
        id: server.id,
        name: server.name,
        type: server.type,
        command: server.type === 'stdio' ? server.command : null,
        args: JSON.stringify(server.type === 'stdio' ? server.args : []),
        url: server.type === 'stdio' ? null : server.url,
        vars: JSON.stringify(cleanVars(server.type === 'stdio' ? server.env : server.headers)),
        now,
      });
      this.stmts.clearAgents.run(server.id);
      for (const agentId of agentIds) this.stmts.enable.run(server.id, agentId);
    })();
  }

  setEnabled(serverId: string, agentId: string, enabled: boolean): void {
    if (enabled) this.stmts.enable.run(serverId, agentId);
    else this.stmts.disable.run(serverId, agentId);
  }

  /** An agent that is removed gets no server any more. */
  forgetAgent(agentId: string): void {
    this.stmts.forgetAgent.run(agentId);
  }

  remove(id: string): boolean {
    return this.stmts.remove.run(id).changes > 0;
  }

  setLastTest(id: string, result: unknown): void {
    this.stmts.setTest.run(JSON.stringify(result), id);
  }

  private agentsOf(id: string): string[] {
    return (this.stmts.agentsOf.all(id) as { agent_id: string }[]).map((r) => r.agent_id);
  }
}
