import type { Db } from './db';

export interface AgentRow {
  id: string;
  name: string;
  command: string;
  args: string;
  env: string;
  secret_names: string;
  source: 'user' | 'file';
  preset_id: string | null;
  last_test: string | null;
  created_at: number;
  updated_at: number;
}

export interface AgentRecord {
  id: string;
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  secretNames: string[];
  source: 'user' | 'file';
  presetId?: string;
  lastTest?: unknown;
  createdAt: number;
  updatedAt: number;
}

const LIVE = `('CREATED', 'STARTING', 'ACTIVE', 'DETACHED', 'CLOSING')`;

function toRecord(row: AgentRow): AgentRecord {
  return {
    id: row.id,
    name: row.name,
    command: row.command,
    args: JSON.parse(row.args) as string[],
    env: JSON.parse(row.env) as Record<string, string>,
    secretNames: JSON.parse(row.secret_names) as string[],
    source: row.source,
    ...(row.preset_id ? { presetId: row.preset_id } : {}),
    ...(row.last_test ? { lastTest: JSON.parse(row.last_test) as unknown } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The agent catalogue's rows (definitions and non-secret environment; never secret values). */
export class AgentsRepo {
  private readonly stmts;

  constructor(private readonly db: Db) {
    this.stmts = {
      list: db.prepare(`SELECT * FROM agents ORDER BY created_at, id`),
      get: db.prepare(`SELECT * FROM agents WHERE id = ?`),
      upsert: db.prepare(
        `INSERT INTO agents (id, name, command, args, env, secret_names, source, preset_id, created_at, updated_at)
         VALUES (@id, @name, @command, @args, @env, @secret_names, @source, @preset_id, @now, @now)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, command = excluded.command, args = excluded.args,
           env = excluded.env, secret_names = excluded.secret_names, source = excluded.source,
           preset_id = excluded.preset_id, updated_at = excluded.updated_at`,
      ),
      remove: db.prepare(`DELETE FROM agents WHERE id = ?`),
      setTest: db.prepare(`UPDATE agents SET last_test = ? WHERE id = ?`),
      openSessions: db.prepare(`SELECT COUNT(*) AS n FROM sessions WHERE agent_id = ? AND state IN ${LIVE}`),
    };
  }

  list(): AgentRecord[] {
    return (this.stmts.list.all() as AgentRow[]).map(toRecord);
  }

  get(id: string): AgentRecord | undefined {
    const row = this.stmts.get.get(id) as AgentRow | undefined;
    return row && toRecord(row);
  }

  /** Adds or replaces a definition; keeps its creation time and last test. */
  upsert(a: Omit<AgentRecord, 'createdAt' | 'updatedAt' | 'lastTest'>, now: number): void {
    this.stmts.upsert.run({
      id: a.id,
      name: a.name,
      command: a.command,
      args: JSON.stringify(a.args),
      env: JSON.stringify(a.env),
      secret_names: JSON.stringify(a.secretNames),
      source: a.source,
      preset_id: a.presetId ?? null,
      now,
    });
  }

  remove(id: string): boolean {
    return this.stmts.remove.run(id).changes > 0;
  }

  setLastTest(id: string, result: unknown): void {
    this.stmts.setTest.run(JSON.stringify(result), id);
  }

  /** Sessions of this agent that are not ended. */
  openSessions(id: string): number {
    return (this.stmts.openSessions.get(id) as { n: number }).n;
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }
}
