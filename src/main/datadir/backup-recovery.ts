/**
 * At start: is the database damaged, and if so, what can be done. `checkAtStart` runs SQLite's
 * `quick_check`; for a damaged file `recoveryOffer` finds the newest backup that still passes
 * its own check and says what would be lost by going back to it; `recoverFromBackup` does it,
 * keeping the damaged file aside (never deleted: a person or a tool may still get more out of it).
 */
import type Database from 'better-sqlite3';
import { Sqlite } from '../store/sqlite';
import { existsSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { writeFileAtomicSync } from '../util/atomic-file';
import { checkDatabaseFile, type DatabaseCheck } from '../store/db-check';
import { fsyncPath } from '../store/compact';
import { vacuumInto } from '../store/backup';
import { displayTitle } from '../store/sessions.repo';
import { listBackups, type BackupInfo } from './backups';
import { runDbTask } from './db-tasks';
import { asideName, replaceDatabase } from './replace-database';

export interface StartCheckOptions {
  nativeBinding?: string;
}

/**
 * The database's state at start. `missing` is a first start (ok for the host: it creates one);
 * `corrupt` is what `recoveryOffer` is for; `newer` is refused by the store as before.
 */
export function checkAtStart(database: string, o: StartCheckOptions = {}): DatabaseCheck {
  return checkDatabaseFile(database, { depth: 'quick', ...(o.nativeBinding ? { nativeBinding: o.nativeBinding } : {}) });
}

/**
 * `checkAtStart` in a worker thread: `quick_check` reads every page (13.6 s for 1 GB measured),
 * so a host that must not keep its window waiting runs this beside its start instead.
 */
export function checkAtStartInWorker(database: string, o: StartCheckOptions = {}, signal?: AbortSignal): Promise<DatabaseCheck> {
  return runDbTask({ kind: 'check', file: database, depth: 'quick', ...(o.nativeBinding ? { nativeBinding: o.nativeBinding } : {}) }, signal);
}

/** What going back to a backup loses, as far as the damaged file can still be read. */
export interface WouldBeLost {
  /** The backup's time: everything after it is at stake. */
  since: number;
  /** Sessions in the damaged file that the backup does not have; undefined if unreadable. */
  sessions: number | undefined;
  /** Their titles (at most 10), for the dialog. */
  titles: string[];
  /** Transcript events stored after the backup, over all sessions; undefined if unreadable. */
  events: number | undefined;
}

export interface RecoveryOffer {
  damaged: string;
  /** SQLite's words about the damage. */
  detail: string;
  /** The newest backup that passes its check; undefined when there is none. */
  backup: BackupInfo | undefined;
  lost: WouldBeLost | undefined;
}

interface SessionMark {
  id: string;
  last_seq: number;
  title: string | null;
  custom_title: string | null;
  first_prompt: string | null;
}

/** Sessions with their last seq; undefined if the file cannot give them. */
function sessionMarks(file: string, nativeBinding?: string): SessionMark[] | undefined {
  let db: Database.Database | undefined;
  try {
    db = new Sqlite(file, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
    const columns = new Set((db.prepare(`SELECT name FROM pragma_table_info('sessions')`).all() as { name: string }[]).map((c) => c.name));
    const custom = columns.has('custom_title') ? 'custom_title' : 'NULL AS custom_title';
    return db.prepare(`SELECT id, last_seq, title, ${custom}, first_prompt FROM sessions`).all() as SessionMark[];
  } catch {
    return undefined;
  } finally {
    try {
      db?.close();
    } catch {
      // A damaged file may fail to close cleanly; it was only read.
    }
  }
}

/**
 * Compares the damaged file with the backup session by session: the sessions the backup lacks,
 * and the events past each session's last seq in the backup (seqs are gap-free, so that is
 * exactly what was stored since). Reads only the sessions table of each, never a transcript.
 */
export function wouldBeLost(damaged: string, backup: BackupInfo, nativeBinding?: string): WouldBeLost {
  const now = sessionMarks(damaged, nativeBinding);
  const then = sessionMarks(backup.file, nativeBinding);
  if (!now || !then) return { since: backup.takenAt, sessions: undefined, titles: [], events: undefined };
  const before = new Map(then.map((s) => [s.id, s.last_seq]));
  const newSessions = now.filter((s) => !before.has(s.id));
  const events = now.reduce((sum, s) => sum + Math.max(0, s.last_seq - (before.get(s.id) ?? 0)), 0);
  return { since: backup.takenAt, sessions: newSessions.length, titles: newSessions.slice(0, 10).map((s) => displayTitle(s)), events };
}

/** The newest backup in `folder` that passes `quick_check` (a backup can rot on disk too). */
export function newestGoodBackup(folder: string, nativeBinding?: string): BackupInfo | undefined {
  return listBackups(folder).find((b) => checkDatabaseFile(b.file, nativeBinding ? { nativeBinding } : {}).ok);
}

/** For a damaged database: the backup to go back to and what that would lose. */
export function recoveryOffer(database: string, detail: string, backupsFolder: string, nativeBinding?: string): RecoveryOffer {
  const backup = newestGoodBackup(backupsFolder, nativeBinding);
  return { damaged: database, detail, backup, lost: backup && wouldBeLost(database, backup, nativeBinding) };
}

/**
 * `recoveryOffer` in a worker thread: it checks every backup until one passes (each a
 * `quick_check`, seconds on a large file), which a running host must not wait for.
 */
export function recoveryOfferInWorker(database: string, detail: string, backupsFolder: string, nativeBinding?: string): Promise<RecoveryOffer> {
  return runDbTask({ kind: 'offer', database, detail, folder: backupsFolder, ...(nativeBinding ? { nativeBinding } : {}) });
}

/** A time as people read it in a log or a dialog, the same on every machine: `2026-11-26 13:04 UTC`. */
export function stamp(at: number): string {
  return `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/**
 * What going back to the offer's backup means, in sentences: which backup, what is lost, where
 * the damaged file goes. Shown by `serve` on stderr, in the desktop app's dialog and its banner.
 */
export function describeRecoveryOffer(offer: RecoveryOffer): string {
  const { backup, lost } = offer;
  if (!backup) return `There is no good backup of it to go back to (none in ${join(dirname(offer.damaged), 'backups')} passes its check).`;
  const what =
    !lost || lost.sessions === undefined || lost.events === undefined
      ? 'What was stored since cannot be read from the damaged file: everything after that time may be lost.'
      : lost.sessions === 0 && lost.events === 0
        ? 'Nothing stored since is missing from it, as far as the damaged file can still be read.'
        : `Going back to it loses what was stored since: ${plural(lost.sessions, 'new session')}${
            lost.titles.length ? ` (${lost.titles.map((t) => `“${t}”`).join(', ')}${lost.sessions > lost.titles.length ? ', …' : ''})` : ''
          } and ${plural(lost.events, 'transcript event')}.`;
  return (
    `The newest good backup was taken ${stamp(backup.takenAt)} (${basename(backup.file)}). ${what} ` +
    `The damaged file is kept aside (renamed ${basename(offer.damaged)}.damaged-<time>), never deleted.`
  );
}

/**
 * The person accepted the offer while a host ran on the folder (the desktop app's dialog): the
 * database is replaced at the next start, under the lock, before the store opens.
 */
export const recoveryRequestOf = (dataDir: string): string => join(dataDir, 'recover-requested');

export function requestRecovery(dataDir: string, now: number): void {
  writeFileAtomicSync(recoveryRequestOf(dataDir), `${new Date(now).toISOString()}\n`);
}

export function isRecoveryRequested(dataDir: string): boolean {
  return existsSync(recoveryRequestOf(dataDir));
}

export function withdrawRecoveryRequest(dataDir: string): void {
  rmSync(recoveryRequestOf(dataDir), { force: true });
}

export interface RecoveryResult {
  restored: BackupInfo;
  /** Where the damaged database is kept (with its WAL, if it had one). */
  damagedKeptAt: string | undefined;
}

/**
 * Puts the offer's backup in place of the damaged database, which is kept aside as
 * `switchboard.db.damaged-<time>`. The backup itself stays in the backups folder. The caller
 * holds the data folder's lock and has the database closed.
 */
export function recoverFromBackup(database: string, backup: BackupInfo, now: number, nativeBinding?: string): RecoveryResult {
  const staged = `${database}.recovering`;
  rmSync(staged, { force: true });
  try {
    const db = new Sqlite(backup.file, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
    try {
      vacuumInto(db, staged);
    } finally {
      db.close();
    }
    const check = checkDatabaseFile(staged, nativeBinding ? { nativeBinding } : {});
    if (!check.ok) throw new Error(`the backup ${backup.file} could not be copied whole: ${check.detail}`);
    fsyncPath(staged);
    const damagedKeptAt = replaceDatabase(database, staged, asideName(database, 'damaged', now), {
      checkpoint: false,
      ...(nativeBinding ? { nativeBinding } : {}),
    });
    return { restored: backup, damagedKeptAt };
  } finally {
    if (existsSync(staged)) rmSync(staged, { force: true });
  }
}
