import type { Migration } from './index';

export const m0002: Migration = {
  version: 2,
  name: 'brokers and their owners',
  up(db) {
    db.exec(`
      CREATE TABLE brokers (
        id              TEXT PRIMARY KEY,
        agent_id        TEXT NOT NULL,
        pid             INTEGER,
        pid_start_time  TEXT,
        host_pid        INTEGER NOT NULL,
        host_start_time TEXT,
        created_at      INTEGER NOT NULL
      );
      CREATE TABLE broker_owners (
        broker_id  TEXT NOT NULL REFERENCES brokers (id) ON DELETE CASCADE,
        session_id TEXT NOT NULL,
        PRIMARY KEY (broker_id, session_id)
      ) WITHOUT ROWID;
      CREATE INDEX broker_owners_by_session ON broker_owners (session_id);
    `);
  },
};
