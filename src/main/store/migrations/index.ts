import type Database from 'better-sqlite3';
import { m0001 } from './0001-sessions-events';
import { m0002 } from './0002-brokers';
import { m0003 } from './0003-permissions';
import { m0004 } from './0004-settings';
import { m0005 } from './0005-agents';
import { m0006 } from './0006-archive-auth';
import { m0007 } from './0007-search';
import { m0008 } from './0008-names-drafts';
import { m0009 } from './0009-session-controls';
import { m0010 } from './0010-folders';
import { m0011 } from './0011-commands-index';
import { m0012 } from './0012-registry';
import { m0013 } from './0013-mcp-servers';
import { m0014 } from './0014-questions-forks';
import { m0015 } from './0015-workspaces';
import { m0016 } from './0016-search-messages';
import { m0017 } from './0017-sessions-by-creation';
import { m0018 } from './0018-search-waiting';

export interface Migration {
  version: number;
  name: string;
  up(db: Database.Database): void;
}

/**
 * Forward only, in increasing version order; each runs in its own transaction with
 * `user_version`. Numbers are handed out per change to work done in parallel.
 */
export const migrations: readonly Migration[] = [m0001, m0002, m0003, m0004, m0005, m0006, m0007, m0008, m0009, m0010, m0011, m0012, m0013, m0014, m0015, m0016, m0017, m0018];

/** The schema this build writes: the last migration's number. */
export const latestVersion = migrations.at(-1)?.version ?? 0;

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
  if (current > latestVersion) throw new NewerDatabaseError(current, latestVersion);
  return current;
}

export function migrate(db: Database.Database, upTo = latestVersion): number {
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
