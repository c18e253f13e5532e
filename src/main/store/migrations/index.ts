import type Database from 'better-sqlite3';
import { m0001 } from './0001-sessions-events';
import { m0002 } from './0002-brokers';
import { m0003 } from './0003-permissions';
import { m0004 } from './0004-settings';
import { m0005 } from './0005-agents';
import { m0006 } from './0006-archive-auth';
import { m0007 } from './0007-search';
import { m0010 } from './0010-folders';

export interface Migration {
  version: number;
  name: string;
  up(db: Database.Database): void;
}

/**
 * Forward only, in increasing version order; each runs in its own transaction with
 * `user_version`. Versions are handed out to work done in parallel, so a branch may have gaps.
 */
export const migrations: readonly Migration[] = [m0001, m0002, m0003, m0004, m0005, m0006, m0007, m0010];

/** The schema version this Switchboard writes. */
export const latestVersion = migrations.at(-1)?.version ?? 0;

export function migrate(db: Database.Database, upTo = latestVersion): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > latestVersion) {
    throw new Error(
      `database schema version ${current} is newer than this Switchboard (${latestVersion}); upgrade Switchboard`,
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
