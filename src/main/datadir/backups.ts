/**
 * Rotating backups of the database in `<data dir>/backups/`: one a day while the host runs and
 * one before every migration, the newest N of each kind kept (N is a setting).
 *
 * A backup is written under a temporary name (`.…partial`), checked, made a self-contained file,
 * flushed, and only then renamed to its final name: a crash at any point leaves no file that
 * looks like a good backup, and the partial one is removed by the next backup. The name says
 * when it was taken and the schema version it holds, so a restore knows both without opening it:
 *
 *     switchboard-2026-11-26T13-04-05-123Z-v0011-daily.db
 *     switchboard-2026-11-26T13-04-05-123Z-v0011-pre-migration.db   (the schema before upgrading)
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Db } from '../store/db';
import { vacuumInto } from '../store/backup';
import { checkDatabaseFile } from '../store/db-check';
import { folderProblemOf, StorageError, storageProblemOf } from '../store/storage-errors';
import { fsyncPath } from '../store/compact';
import type { Clock } from '../util/clock';
import type { Logger } from '../util/log';
import { runDbTask, type CopyResult } from './db-tasks';

export const BACKUP_KINDS = ['daily', 'pre-migration'] as const;
export type BackupKind = (typeof BACKUP_KINDS)[number];

export const DAILY_BACKUP_INTERVAL_MS = 24 * 60 * 60_000;

export interface BackupInfo {
  file: string;
  kind: BackupKind;
  takenAt: number;
  schemaVersion: number;
  bytes: number;
}

/** `<data dir>/backups`. */
export const backupsFolder = (dataDir: string): string => join(dataDir, 'backups');

const NAME = /^switchboard-(\d{4})-(\d{2})-(\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z-v(\d{4,})-(daily|pre-migration)\.db$/;
const PARTIAL = /^\.switchboard-.*\.partial(-journal|-wal|-shm)?$/;

export function backupFileName(kind: BackupKind, takenAt: number, schemaVersion: number): string {
  const stamp = new Date(takenAt).toISOString().replace(/[:.]/g, '-');
  return `switchboard-${stamp}-v${String(schemaVersion).padStart(4, '0')}-${kind}.db`;
}

export function parseBackupFileName(name: string): Pick<BackupInfo, 'kind' | 'takenAt' | 'schemaVersion'> | undefined {
  const m = NAME.exec(name);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, ms, v, kind] = m as unknown as [string, string, string, string, string, string, string, string, string, BackupKind];
  const takenAt = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}Z`);
  return Number.isNaN(takenAt) ? undefined : { kind, takenAt, schemaVersion: Number(v) };
}

/** The backups in `folder`, newest first. Files of any other name (partial ones) are not backups. */
export function listBackups(folder: string): BackupInfo[] {
  if (!existsSync(folder)) return [];
  const out: BackupInfo[] = [];
  for (const name of readdirSync(folder)) {
    const parsed = parseBackupFileName(name);
    if (!parsed) continue;
    const file = join(folder, name);
    out.push({ file, ...parsed, bytes: statSync(file).size });
  }
  return out.sort((a, b) => b.takenAt - a.takenAt || b.file.localeCompare(a.file));
}

/** Deletes all but the newest `keep` backups of each kind; returns the files deleted. */
export function rotateBackups(folder: string, keep: number): string[] {
  const removed: string[] = [];
  for (const kind of BACKUP_KINDS) {
    for (const old of listBackups(folder).filter((b) => b.kind === kind).slice(Math.max(1, keep))) {
      rmSync(old.file, { force: true });
      removed.push(old.file);
    }
  }
  return removed;
}

/** Removes what a backup interrupted by a crash left (never a finished backup). */
export function removePartialBackups(folder: string): string[] {
  if (!existsSync(folder)) return [];
  const gone = readdirSync(folder).filter((name) => PARTIAL.test(name));
  for (const name of gone) rmSync(join(folder, name), { force: true });
  return gone.map((name) => join(folder, name));
}

/** Whether the newest daily backup is a day old or more (or there is none). */
export function isDailyDue(backups: readonly BackupInfo[], now: number): boolean {
  const newest = backups.find((b) => b.kind === 'daily');
  return !newest || now - newest.takenAt >= DAILY_BACKUP_INTERVAL_MS || newest.takenAt > now;
}

/** The temporary name a backup is written under until it is checked. */
const partialOf = (folder: string, name: string): string => join(folder, `.${name}.partial`);

/** Flushes a checked copy and gives it its backup name. */
function finishPartial(partial: string, final: string, folder: string): void {
  fsyncPath(partial);
  renameSync(partial, final);
  fsyncPath(folder);
}

export interface BackupsOptions {
  /** The database file backed up (the host's own; a connection of the worker reads it). */
  database: string;
  /** `<data dir>/backups` (created when the first backup is taken). */
  folder: string;
  clock: Clock;
  log: Logger;
  /** How many of each kind to keep (read at each backup: the setting may change). */
  keep(): number;
  nativeBinding?: string;
  /**
   * How a copy is made and checked (default: `snapshotTo`, sealed, `quick_check`ed and flushed
   * in a worker thread, off the host's event loop).
   */
  copy?(source: string, dest: string): Promise<CopyResult>;
  /** Told when the checked copy is about to get its name (tests stop a backup there). */
  onCopied?(partial: string): void;
  /**
   * The host's own connection to the database. While the copy runs its automatic checkpoints
   * are held: one would wait for the disk behind the copy's writes (its fsync) in the middle of
   * a commit, on the host's event loop (measured, bench/metrics/backup.ts); and a checkpoint
   * cannot go past the copy's snapshot anyway. The worker checkpoints what grew meanwhile.
   */
  hostDb?: Db;
}

/** A backup taken, with how it went. */
export interface TakenBackup extends BackupInfo {
  pages: number;
  durationMs: number;
}

/**
 * The host's daily backups, taken while it runs: a read-only connection in a worker thread
 * copies the database as one snapshot (`store/backup.ts`), so neither the host's event loop nor
 * its writer waits. One at a time: a second call while one runs gets the same backup.
 */
export class Backups {
  private running: Promise<TakenBackup> | undefined;

  constructor(private readonly o: BackupsOptions) {}

  list(): BackupInfo[] {
    return listBackups(this.o.folder);
  }

  /** Takes a daily backup if the last is a day old; resolves with it, or undefined if not due. */
  async takeDailyIfDue(): Promise<TakenBackup | undefined> {
    if (!isDailyDue(this.list(), this.o.clock.now())) return undefined;
    return this.take('daily');
  }

  /** Holds the host connection's automatic checkpoints; returns what gives them back. */
  private holdCheckpoints(): () => void {
    const db = this.o.hostDb;
    if (!db) return () => {};
    const before = db.pragma('wal_autocheckpoint', { simple: true }) as number;
    db.pragma('wal_autocheckpoint = 0');
    return () => {
      // Only if still held: checkpoints given back to the connection meanwhile (the checkpoint
      // worker failed) stay given back.
      if (db.open && db.pragma('wal_autocheckpoint', { simple: true }) === 0) db.pragma(`wal_autocheckpoint = ${before}`);
    };
  }

  take(kind: BackupKind): Promise<TakenBackup> {
    this.running ??= this.run(kind).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async run(kind: BackupKind): Promise<TakenBackup> {
    const { folder, log } = this.o;
    mkdirSync(folder, { recursive: true });
    removePartialBackups(folder);
    const takenAt = this.o.clock.now();
    // The name says the schema version, known only from the copy: written as a partial first.
    const partial = partialOf(folder, backupFileName(kind, takenAt, 0));
    const held = this.holdCheckpoints();
    try {
      const copy = this.o.copy ?? defaultCopy(this.o.nativeBinding);
      const { totalPages, check } = await copy(this.o.database, partial).finally(held);
      if (!check.ok) throw new Error(`the backup failed its check: ${check.detail}`);
      this.o.onCopied?.(partial);
      const final = join(folder, backupFileName(kind, takenAt, check.schemaVersion));
      renameSync(partial, final);
      // Off the event loop: flushing a folder waits for the file system's journal.
      await fsyncFolder(folder);
      const removed = await rotateBackupsAsync(folder, this.o.keep());
      const durationMs = this.o.clock.now() - takenAt;
      log.info('backup taken', { file: final, kind, schemaVersion: check.schemaVersion, pages: totalPages, durationMs, removed });
      return { file: final, kind, takenAt, schemaVersion: check.schemaVersion, bytes: statSync(final).size, pages: totalPages, durationMs };
    } catch (err) {
      removePartialBackups(folder);
      log.error('backup failed', { kind, error: String(err) });
      throw err;
    }
  }
}

function defaultCopy(nativeBinding: string | undefined) {
  return (source: string, dest: string): Promise<CopyResult> =>
    runDbTask({ kind: 'backup', source, dest, depth: 'quick', checkpoint: true, ...(nativeBinding ? { nativeBinding } : {}) });
}

async function fsyncFolder(folder: string): Promise<void> {
  if (process.platform === 'win32') return; // a folder cannot be opened to flush it there
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** `rotateBackups`, with the deletions (a large file's can take a while) off the event loop. */
async function rotateBackupsAsync(folder: string, keep: number): Promise<string[]> {
  const old = BACKUP_KINDS.flatMap((kind) => listBackups(folder).filter((b) => b.kind === kind).slice(Math.max(1, keep)));
  await Promise.all(old.map((b) => rm(b.file, { force: true })));
  return old.map((b) => b.file);
}

export interface BeforeMigrationOptions {
  folder: string;
  clock: Clock;
  log: Logger;
  keep: number;
  nativeBinding?: string;
}

/**
 * The store's `beforeMigrate` hook (`OpenOptions`): a checked copy of the database as it is,
 * taken at start before any migration touches it. Synchronous (nothing else runs yet): one
 * `VACUUM INTO`, a `quick_check`, the rename. A copy that cannot be made refuses the upgrade.
 */
export function backupBeforeMigration(o: BeforeMigrationOptions): (db: Db, from: number, to: number) => void {
  return (db, from, to) => {
    const name = backupFileName('pre-migration', o.clock.now(), from);
    const partial = partialOf(o.folder, name);
    try {
      mkdirSync(o.folder, { recursive: true });
      removePartialBackups(o.folder);
      // Said before it starts: on a large database the copy takes minutes, and nothing else is shown meanwhile.
      o.log.info('taking a backup before upgrading the database', { from, to, megabytes: databaseMegabytes(db) });
      vacuumInto(db, partial);
      const check = checkDatabaseFile(partial, o.nativeBinding ? { nativeBinding: o.nativeBinding } : {});
      if (!check.ok) throw new Error(`the copy failed its check: ${check.detail}`);
      finishPartial(partial, join(o.folder, name), o.folder);
      const removed = rotateBackups(o.folder, o.keep);
      o.log.info('backup taken before upgrading the database', { file: join(o.folder, name), from, to, removed });
    } catch (err) {
      try {
        removePartialBackups(o.folder);
      } catch {
        // The folder itself is the problem (said below); there is nothing partial in it.
      }
      o.log.error('no backup could be taken before upgrading the database; not upgrading', { from, to, error: String(err) });
      const problem = storageProblemOf(err) ?? folderProblemOf(err) ?? 'unwritable';
      throw new StorageError(
        problem,
        o.folder,
        `Switchboard must upgrade its database (schema ${from} to ${to}) and takes a backup of it first, but could not (${err instanceof Error ? err.message : String(err)}). ` +
          `Nothing was changed. Free some space, or make ${o.folder} a folder Switchboard can write to, then start it again.`,
      );
    }
  };
}

/** The database's size in MB (pages × page size), for what a person waits on. */
function databaseMegabytes(db: Db): number {
  const pages = db.pragma('page_count', { simple: true }) as number;
  const size = db.pragma('page_size', { simple: true }) as number;
  return Math.round((pages * size) / 2 ** 20);
}
