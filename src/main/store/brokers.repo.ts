import type { Db } from './db';

export interface BrokerRow {
  id: string;
  agent_id: string;
  pid: number | null;
  pid_start_time: string | null;
  host_pid: number;
  host_start_time: string | null;
  created_at: number;
}

/** Agent processes and the session ids that own them. Every owner change is one transaction. */
export class BrokersRepo {
  private readonly stmts;
  readonly addOwner: (brokerId: string, sessionId: string) => void;
  /** Removes an owner; returns how many owners remain. */
  readonly removeOwner: (brokerId: string, sessionId: string) => number;
  /** Every owner leaves at once (the agent crashed). */
  readonly removeAllOwners: (brokerId: string) => void;

  constructor(db: Db) {
    this.stmts = {
      insert: db.prepare(
        `INSERT INTO brokers (id, agent_id, pid, pid_start_time, host_pid, host_start_time, created_at)
         VALUES (@id, @agent_id, @pid, @pid_start_time, @host_pid, @host_start_time, @created_at)`,
      ),
      setPid: db.prepare(`UPDATE brokers SET pid = ?, pid_start_time = ? WHERE id = ?`),
      delete: db.prepare(`DELETE FROM brokers WHERE id = ?`),
      all: db.prepare(`SELECT * FROM brokers`),
      addOwner: db.prepare(`INSERT OR IGNORE INTO broker_owners (broker_id, session_id) VALUES (?, ?)`),
      removeOwner: db.prepare(`DELETE FROM broker_owners WHERE broker_id = ? AND session_id = ?`),
      removeAllOwners: db.prepare(`DELETE FROM broker_owners WHERE broker_id = ?`),
      owners: db.prepare(`SELECT session_id FROM broker_owners WHERE broker_id = ? ORDER BY session_id`),
      ownerCount: db.prepare(`SELECT COUNT(*) AS n FROM broker_owners WHERE broker_id = ?`),
    };
    this.addOwner = db.transaction((brokerId: string, sessionId: string) => {
      this.stmts.addOwner.run(brokerId, sessionId);
    });
    this.removeOwner = db.transaction((brokerId: string, sessionId: string) => {
      this.stmts.removeOwner.run(brokerId, sessionId);
      return (this.stmts.ownerCount.get(brokerId) as { n: number }).n;
    });
    this.removeAllOwners = db.transaction((brokerId: string) => {
      this.stmts.removeAllOwners.run(brokerId);
    });
  }

  insert(row: BrokerRow): void {
    this.stmts.insert.run(row);
  }

  setPid(id: string, pid: number, startTime: string | null): void {
    this.stmts.setPid.run(pid, startTime, id);
  }

  delete(id: string): void {
    this.stmts.delete.run(id);
  }

  all(): BrokerRow[] {
    return this.stmts.all.all() as BrokerRow[];
  }

  owners(brokerId: string): string[] {
    return (this.stmts.owners.all(brokerId) as { session_id: string }[]).map((r) => r.session_id);
  }
}
