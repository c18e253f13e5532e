import type Database from 'better-sqlite3';
import { m0001 } from './0001-sessions-events';
import { m0002 } from './0002-brokers';
import { m0003 } from './0003-permissions';
import { m0004 } from './0004-settings';
import { m0005 } from './0005-agents';
import { m0006 } from './0006-archive-auth';
import { m0007 } from './0007-search';

export interface Migration {
  version: number;
  name: string;
  up(db: Database.Database): void;
}

/** Forward only, in order; each runs in its own transaction with `user_version`. */
export const migrations: readonly Migration[] = [m0001, m0002, m0003, m0004, m0005, m0006, m0007];

export function migrate(db: Database.Database, upTo = migrations.length): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > migrations.length) {
    throw new Error(
      `database schema version ${current} is newer than this Switchboard (${migrations.length}); upgrade Switchboard`,
    );
  }
  for (const m of migrations) {
    if (m.version <= current || m.version > upTo) continue;
    db.transaction(() => {
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
  return db.pragma('user_version', { simple: true }) as number;
}
