import type { Db } from './db';

/**
 * Environment variables stored for an agent (a sign-in with an API key), put into its
 * environment when it is spawned. The interface is what the session host needs; the agent
 * catalogue (issue 11) brings its own implementation with secrets kept in `safeStorage` / a
 * 0600 file and can replace `SqliteAgentEnvStore` behind it.
 */
export interface AgentEnvStore {
  set(agentId: string, name: string, value: string, secret: boolean): void;
  /** Every stored variable of the agent, by name. */
  get(agentId: string): Record<string, string>;
}

/** The minimal store: one SQLite table (`agent_env`), values in clear inside the data dir. */
export class SqliteAgentEnvStore implements AgentEnvStore {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      set: db.prepare(
        `INSERT INTO agent_env (agent_id, name, value, secret) VALUES (?, ?, ?, ?)
         ON CONFLICT (agent_id, name) DO UPDATE SET value = excluded.value, secret = excluded.secret`,
      ),
      get: db.prepare(`SELECT name, value FROM agent_env WHERE agent_id = ?`),
    };
  }

  set(agentId: string, name: string, value: string, secret: boolean): void {
    this.stmts.set.run(agentId, name, value, secret ? 1 : 0);
  }

  get(agentId: string): Record<string, string> {
    const out: Record<string, string> = {};
    for (const row of this.stmts.get.all(agentId) as { name: string; value: string }[]) out[row.name] = row.value;
    return out;
  }
}
