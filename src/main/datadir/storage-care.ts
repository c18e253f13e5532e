/**
 * What the host does for its database while it runs (issue 23, ADR 0021): the start-up
 * `quick_check` in a worker beside the start, daily backups on the host's one timer (never on
 * a turn's path: the copy runs in a worker), and Settings → Storage's report, backups, clean-up
 * and compaction request.
 *
 * A damaged database found while the host runs: windows are told (the storage banner, which no
 * later write clears), with the newest good backup and what going back to it would lose; the
 * shell is told (`onDamaged`: the desktop app offers to restart and restore); backups stop (a
 * copy of a damaged file fails its check, and must never push a good backup out). The host
 * goes on: reads and writes that do not touch the damaged pages still work, and quitting
 * cleanly loses nothing more.
 */
import { existsSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { BackupListT, BackupViewT, CleanUpPreviewT, CompactionRequestedT, StorageReportViewT } from '../../shared/contract';
import { AppError } from '../../shared/errors';
import { cleanUp, previewCleanUp } from '../store/clean-up';
import { describeCheck, type DatabaseCheck } from '../store/db-check';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import { Emitter, type Event } from '../util/event';
import type { Disposable } from '../util/lifecycle';
import type { Logger } from '../util/log';
import type { TimerQueue } from '../util/timer-queue';
import { checkAtStartInWorker, describeRecoveryOffer, recoveryOfferInWorker, type RecoveryOffer } from './backup-recovery';
import { Backups, backupsFolder, type BackupInfo, type TakenBackup } from './backups';
import { isCompactionRequested, requestCompaction } from './compaction';
import { runDbTask, type CopyResult } from './db-tasks';
import type { StorageHealth } from './storage-health';

/** How often the host looks whether a daily backup is due (a day since the last). */
export const BACKUP_CHECK_INTERVAL_MS = 60 * 60_000;
/**
 * How long after the start the check begins: the start itself (agents resumed, windows loading
 * their transcripts, the search backfill) has the disk and the CPU first. A database too
 * damaged to open never gets this far: it is refused, or recovered, before the host starts.
 */
export const START_CHECK_DELAY_MS = 15_000;
const TIMER_KEY = 'backups:daily';
const CHECK_KEY = 'database:check';
const DAY_MS = 86_400_000;

export interface StorageCareOptions {
  dataDir: string;
  database: string;
  store: Store;
  timers: TimerQueue;
  clock: Clock;
  log: Logger;
  health: StorageHealth;
  /** The `backupsKept` setting, read at each backup. */
  keep(): number;
  nativeBinding?: string;
  /** The shell hears of a damaged database found while the host runs (the desktop app's dialog). */
  onDamaged?(offer: RecoveryOffer): void;
  /** The host can restart itself now (the desktop app): a compaction can happen at once. */
  canRestart: boolean;
  /** A session clean-up deleted (the repository announced it to the windows). */
  onDeleted(sessionId: string): void;
  /**
   * Between two slices of a clean-up: the host's other writers get their turn, and the clean-up
   * waits like them while a WAL checkpoint holds the writes (ADR 0031). Default: `setImmediate`.
   */
  betweenWrites?(): Promise<void>;
  /** How a backup's copy is made (tests); default: in a worker thread. */
  copy?(source: string, dest: string): Promise<CopyResult>;
}

export class StorageCare implements Disposable {
  readonly backups: Backups;
  private readonly didChangeBackups = new Emitter<BackupListT>();
  /** A backup was taken, failed, or old ones were rotated away. */
  readonly onDidChangeBackups: Event<BackupListT> = this.didChangeBackups.event;
  private running: Promise<unknown> | undefined;
  /** Ends a start-up check still reading the file when the host stops (it can take minutes on a large one). */
  private readonly stopCheck = new AbortController();
  private lastFailure: { at: number; message: string } | undefined;
  private damaged: RecoveryOffer | undefined;
  private checked: Promise<DatabaseCheck> | undefined;
  private disposed = false;

  constructor(private readonly o: StorageCareOptions) {
    this.backups = new Backups({
      database: o.database,
      folder: backupsFolder(o.dataDir),
      clock: o.clock,
      log: o.log,
      keep: o.keep,
      hostDb: o.store.db,
      ...(o.nativeBinding ? { nativeBinding: o.nativeBinding } : {}),
      ...(o.copy ? { copy: o.copy } : {}),
    });
  }

  /** Schedules the check `START_CHECK_DELAY_MS` from now on the host's timer (`check` runs it at once). */
  start(delayMs = START_CHECK_DELAY_MS): void {
    this.o.timers.at(CHECK_KEY, this.o.clock.now() + delayMs, () => void this.check());
  }

  /**
   * The check in a worker, then (a healthy database only) the first daily backup and the
   * hourly look at whether one is due. Runs once; resolves with the check; never rejects.
   */
  check(): Promise<DatabaseCheck> {
    this.o.timers.cancel(CHECK_KEY);
    this.checked ??= this.checkInBackground();
    return this.checked;
  }

  /** The database was found damaged while the host ran, with the offer made. */
  get damage(): RecoveryOffer | undefined {
    return this.damaged;
  }

  private async checkInBackground(): Promise<DatabaseCheck> {
    const binding = this.o.nativeBinding ? { nativeBinding: this.o.nativeBinding } : {};
    let check: DatabaseCheck;
    try {
      check = await checkAtStartInWorker(this.o.database, binding, this.stopCheck.signal);
    } catch (err) {
      // Stopped with the host: not a failure of the check.
      if (this.disposed) return { ok: true, schemaVersion: 0 };
      // The worker itself failed (not the database): say so, and take backups as usual.
      this.o.log.error('the start-up check of the database could not run', { error: String(err) });
      check = { ok: true, schemaVersion: 0 };
    }
    if (this.disposed) return check;
    if (!check.ok && check.problem === 'corrupt') {
      await this.foundDamage(describeCheck(this.o.database, check));
      return check;
    }
    this.o.log.info('the database passes its start-up check', { file: this.o.database });
    this.scheduleDaily(0);
    return check;
  }

  private async foundDamage(detail: string): Promise<void> {
    let offer: RecoveryOffer;
    try {
      offer = await recoveryOfferInWorker(this.o.database, detail, backupsFolder(this.o.dataDir), this.o.nativeBinding);
    } catch (err) {
      this.o.log.error('looking for a backup of the damaged database failed', { error: String(err) });
      offer = { damaged: this.o.database, detail, backup: undefined, lost: undefined };
    }
    if (this.disposed) return;
    this.damaged = offer;
    const restore = offer.backup
      ? ` To go back to it: quit Switchboard, then run switchboard restore "${offer.backup.file}" --data-dir "${this.o.dataDir}" (or start it again and accept the offer).`
      : '';
    const message = `The database ${this.o.database} is damaged (${detail}). Switchboard goes on, but what sits in the damaged part cannot be read or saved, and no more backups are taken. ${describeRecoveryOffer(offer)}${restore}`;
    this.o.log.error('the database is damaged; no backups are taken until it is restored', { detail, backup: offer.backup?.file, lost: offer.lost });
    this.o.health.damaged(message);
    this.o.onDamaged?.(offer);
  }

  /** Looks at `delay` ms from now whether a daily backup is due, then every hour. */
  private scheduleDaily(delay: number): void {
    if (this.disposed || this.damaged) return;
    this.o.timers.at(TIMER_KEY, this.o.clock.now() + delay, () => {
      void this.takeDailyIfDue().finally(() => this.scheduleDaily(BACKUP_CHECK_INTERVAL_MS));
    });
  }

  /** The daily backup if one is due; a failure is logged and listed, never thrown. */
  async takeDailyIfDue(): Promise<TakenBackup | undefined> {
    if (this.disposed || this.damaged) return undefined;
    return this.track(this.backups.takeDailyIfDue()).catch(() => undefined);
  }

  /** `Back up now`: a daily backup out of turn (it counts as the day's). */
  async backUpNow(): Promise<BackupViewT> {
    if (this.damaged) {
      throw new AppError('invalid_state', 'The database is damaged: a copy of it would fail its check. Restore a backup first.');
    }
    return backupView(await this.track(this.backups.take('daily')));
  }

  private track<T>(backup: Promise<T>): Promise<T> {
    const run = backup.then(
      (taken) => {
        if (taken) this.lastFailure = undefined;
        return taken;
      },
      (err: unknown) => {
        this.lastFailure = { at: this.o.clock.now(), message: err instanceof Error ? err.message : String(err) };
        throw err;
      },
    );
    this.running = run.finally(() => {
      this.running = undefined;
      this.changed();
    });
    // Whoever awaits `run` gets its failure; `running` is only waited on to settle.
    this.running.catch(() => {});
    this.changed();
    return run;
  }

  private changed(): void {
    if (!this.disposed) this.didChangeBackups.fire(this.list());
  }

  list(): BackupListT {
    return {
      folder: backupsFolder(this.o.dataDir),
      backups: this.backups.list().map(backupView),
      running: this.running !== undefined,
      ...(this.lastFailure ? { lastFailure: this.lastFailure } : {}),
    };
  }

  /** The report, walked in a worker on a connection of its own. */
  async report(): Promise<StorageReportViewT> {
    const report = await runDbTask({ kind: 'report', file: this.o.database, largest: 10, ...(this.o.nativeBinding ? { nativeBinding: this.o.nativeBinding } : {}) });
    const wal = `${this.o.database}-wal`;
    return {
      ...report,
      walBytes: existsSync(wal) ? statSync(wal).size : 0,
      searchIndex: {
        ...(report.searchIndex.bytes === undefined ? {} : { bytes: report.searchIndex.bytes }),
        ...(report.searchIndex.share === undefined ? {} : { share: report.searchIndex.share }),
      },
      compactionRequested: isCompactionRequested(this.o.dataDir),
    };
  }

  cleanUpPreview(olderThanDays: number): CleanUpPreviewT {
    return previewCleanUp(this.o.store.db, this.o.clock.now() - olderThanDays * DAY_MS);
  }

  async cleanUp(cutoff: number): Promise<{ deleted: number }> {
    const deleted = await cleanUp(this.o.store, cutoff, { onDeleted: (id) => this.o.onDeleted(id), ...(this.o.betweenWrites ? { yieldNow: this.o.betweenWrites } : {}) });
    this.o.log.info('archived sessions cleaned up', { cutoff, deleted });
    return { deleted };
  }

  requestCompaction(): CompactionRequestedT {
    const now = this.o.clock.now();
    requestCompaction(this.o.dataDir, now);
    this.o.log.info('compaction requested; it runs at the next start');
    return { requestedAt: now, canRestart: this.o.canRestart };
  }

  /** Quit: no backup starts after this; resolves once one in flight has settled. */
  async settle(): Promise<void> {
    this.dispose();
    await this.running?.catch(() => undefined);
    // A check cut short ends with its thread: the folder is not touched after the host stops.
    await this.checked;
  }

  dispose(): void {
    this.disposed = true;
    this.stopCheck.abort();
    this.o.timers.cancel(TIMER_KEY);
    this.o.timers.cancel(CHECK_KEY);
    this.didChangeBackups.dispose();
  }
}

function backupView(b: BackupInfo): BackupViewT {
  return { name: basename(b.file), kind: b.kind, takenAt: b.takenAt, schemaVersion: b.schemaVersion, bytes: b.bytes };
}
