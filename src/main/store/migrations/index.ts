import type Database from 'better-sqlite3';
import { m0001 } from './0001-sessions-events';
import { m0002 } from './0002-brokers';
import { m0003 } from './0003-permissions';
import { m0004 } from './0004-settings';
import { m0005 } from './0005-agents';
import { m0006 } from './0006-archive-auth';

export interface Migration {
  version: number;
  name: string;
  up(db: Database.Database): void;
}

/** Forward only, in order; each runs in its own transaction with `user_version`. */
export const migrations: readonly Migration[] = [m0001, m0002, m0003, m0004, m0005, m0006];

/** The database was written by a newer Switchboard: it is refused, never migrated down. */
export class NewerDatabaseError extends Error {
  constructor(
    readonly found: number,
    readonly known: number,
  ) {
    super(`database schema version ${found} is newer than this Switchboard (${known}); upgrade Switchboard`);
  }
}

/** Refuses a database of a newer Switchboard; returns its schema version. Writes nothing. */
export function assertNotNewer(db: Database.Database): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > migrations.length) throw new NewerDatabaseError(current, migrations.length);
  return current;
}

export function migrate(db: Database.Database, upTo = migrations.length): number {
  const current = assertNotNewer(db);
  for (const m of migrations) {
    if (m.version <= current || m.version > upTo) continue;
    db.transaction(() => {
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
  return db.pragma('user_version', { simple: true }) as number;
}
