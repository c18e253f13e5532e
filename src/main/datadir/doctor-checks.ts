/**
 * What `switchboard doctor` finds in a data folder: the folder itself, the lock, the database
 * and the backups, and which agents the database configures. Reads only; never creates the
 * folder or the database, never migrates.
 */
import { Sqlite } from '../store/sqlite';
import { accessSync, constants, existsSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AgentRecord } from '../store/agents.repo';
import { AgentsRepo } from '../store/agents.repo';
import { checkDatabaseFile } from '../store/db-check';
import { latestVersion } from '../store/migrations';
import { listBackups } from './backups';
import { newestGoodBackup } from './backup-recovery';

export type CheckStatus = 'ok' | 'problem' | 'note';

/** One line of the doctor's report: what was checked, what it found, and how to fix it. */
export interface DoctorCheck {
  area: string;
  status: CheckStatus;
  detail: string;
  fix?: string;
}

export interface DataFolderFiles {
  dataDir: string;
  database: string;
  lock: string;
  backups: string;
}

/** Whether a host holds the folder's lock (`DataDirLock`, given by the caller). */
export type LockProbe = (lockFile: string) => { held: false } | { held: true; pid: number | undefined; message: string };

function writable(dir: string): string | undefined {
  const probe = join(dir, `.doctor-${process.pid}.tmp`);
  try {
    accessSync(dir, constants.W_OK);
    writeFileSync(probe, '');
    return undefined;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code ?? String(err);
  } finally {
    rmSync(probe, { force: true });
  }
}

/** The data folder: there (or creatable), writable, and who holds it. */
export function checkDataFolder(files: DataFolderFiles, probeLock: LockProbe): DoctorCheck[] {
  const { dataDir } = files;
  if (!existsSync(dataDir)) {
    let parent = dirname(dataDir);
    while (!existsSync(parent) && dirname(parent) !== parent) parent = dirname(parent);
    const why = writable(parent);
    return why
      ? [{ area: 'data folder', status: 'problem', detail: `${dataDir} does not exist and cannot be created (${parent}: ${why})`, fix: `Choose a folder you can write to with --data-dir, or fix the permissions of ${parent}.` }]
      : [{ area: 'data folder', status: 'note', detail: `${dataDir} does not exist yet; Switchboard creates it at its first start` }];
  }
  if (!statSync(dataDir).isDirectory()) {
    return [{ area: 'data folder', status: 'problem', detail: `${dataDir} is a file, not a folder`, fix: 'Move that file away, or choose another folder with --data-dir.' }];
  }
  const out: DoctorCheck[] = [];
  const why = writable(dataDir);
  out.push(
    why
      ? { area: 'data folder', status: 'problem', detail: `${dataDir} is not writable (${why})`, fix: `Make ${dataDir} writable by this user (chmod/chown), or choose another folder with --data-dir.` }
      : { area: 'data folder', status: 'ok', detail: `${dataDir} exists and is writable` },
  );
  const lock = probeLock(files.lock);
  out.push(
    lock.held
      ? { area: 'lock', status: 'note', detail: `a Switchboard${lock.pid ? ` (pid ${lock.pid})` : ''} is using this folder now` }
      : { area: 'lock', status: 'ok', detail: 'no Switchboard is using this folder now' },
  );
  return out;
}

/** The database: opens, passes `quick_check`, and a schema this build can use. */
export function checkDatabase(files: DataFolderFiles, nativeBinding?: string): DoctorCheck[] {
  const check = checkDatabaseFile(files.database, nativeBinding ? { nativeBinding } : {});
  const restoreHint = (): string => {
    const good = newestGoodBackup(files.backups, nativeBinding);
    return good
      ? `Quit Switchboard, then restore the newest good backup: switchboard restore "${good.file}" --data-dir "${files.dataDir}" (the damaged file is kept aside).`
      : `Quit Switchboard and move ${files.database} (with its -wal and -shm files) aside to start with an empty database; there is no good backup in ${files.backups}.`;
  };
  if (check.ok) {
    const version = check.schemaVersion;
    return [
      {
        area: 'database',
        status: 'ok',
        detail:
          version === latestVersion
            ? `${files.database} opens and passes quick_check (schema ${version}, this build's)`
            : `${files.database} opens and passes quick_check (schema ${version}; the next start upgrades it to ${latestVersion}, after a backup)`,
      },
    ];
  }
  switch (check.problem) {
    case 'missing':
      return [{ area: 'database', status: 'note', detail: `${files.database} does not exist yet; Switchboard creates it at its first start` }];
    case 'corrupt':
      return [{ area: 'database', status: 'problem', detail: `${files.database} is damaged (${check.detail})`, fix: restoreHint() }];
    case 'newer':
      return [
        {
          area: 'database',
          status: 'problem',
          detail: `${files.database} was written by a newer Switchboard (schema ${check.schemaVersion}; this build knows up to ${latestVersion})`,
          fix: 'Use that newer Switchboard, or choose another data folder with --data-dir.',
        },
      ];
    case 'foreign':
      return [{ area: 'database', status: 'problem', detail: `${files.database} is not a Switchboard database`, fix: `Move ${files.database} away, or choose another data folder with --data-dir.` }];
  }
}

/** How many backups there are and how old the newest is. Never a problem by itself. */
export function checkBackups(files: DataFolderFiles, now: number): DoctorCheck[] {
  const all = listBackups(files.backups);
  const newest = all[0];
  if (!newest) return [{ area: 'backups', status: 'note', detail: `no backups yet in ${files.backups} (the host takes one a day while it runs)` }];
  const hours = Math.round((now - newest.takenAt) / 3_600_000);
  return [{ area: 'backups', status: 'ok', detail: `${all.length} in ${files.backups}; the newest is ${hours} h old (${newest.kind}, schema ${newest.schemaVersion})` }];
}

export interface ConfiguredAgents {
  agents: AgentRecord[];
  /** Sessions waiting for the person to sign in, by agent id. */
  waitingForSignIn: Record<string, number>;
}

/** The agents the database configures (Settings and agents.json), read-only. Empty without a readable database. */
export function configuredAgents(database: string, nativeBinding?: string): ConfiguredAgents {
  if (!checkDatabaseFile(database, nativeBinding ? { nativeBinding } : {}).ok) return { agents: [], waitingForSignIn: {} };
  const db = new Sqlite(database, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
  try {
    const tables = new Set((db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table'`).all() as { name: string }[]).map((r) => r.name));
    const agents = tables.has('agents') ? new AgentsRepo(db).list() : [];
    const columns = new Set((db.prepare(`SELECT name FROM pragma_table_info('sessions')`).all() as { name: string }[]).map((c) => c.name));
    const waiting = columns.has('auth_request')
      ? (db
          .prepare(`SELECT agent_id AS id, COUNT(*) AS n FROM sessions WHERE auth_request IS NOT NULL ${columns.has('archived_at') ? 'AND archived_at IS NULL' : ''} GROUP BY agent_id`)
          .all() as { id: string; n: number }[])
      : [];
    return { agents, waitingForSignIn: Object.fromEntries(waiting.map((w) => [w.id, w.n])) };
  } finally {
    db.close();
  }
}
