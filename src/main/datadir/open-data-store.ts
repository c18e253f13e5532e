/**
 * How a host opens its data folder's database, under the folder's lock, before anything else
 * uses it: a compaction asked for is done; a recovery the person accepted while the last host
 * ran is done; the store opens, with a checked backup taken before any migration changes the
 * file; and a database too damaged to open is offered its newest good backup, which replaces
 * it only if the person says so (`recover`), the damaged file kept aside.
 *
 * The full `quick_check` of a file that opens is not here: it reads every page (seconds on a
 * large database), so the host runs it in a worker once it has started (`checkAtStartInWorker`).
 */
import type { CompactionResult } from '../store/compact';
import type { Db } from '../store/db';
import { describeCheck } from '../store/db-check';
import { StorageError } from '../store/storage-errors';
import { Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { Logger } from '../util/log';
import {
  checkAtStart,
  describeRecoveryOffer,
  isRecoveryRequested,
  recoverFromBackup,
  recoveryOffer,
  withdrawRecoveryRequest,
  type RecoveryOffer,
  type RecoveryResult,
} from './backup-recovery';
import { backupBeforeMigration, backupsFolder } from './backups';
import { compactAtStart } from './compaction';
import { DEFAULT_BACKUPS_KEPT } from './settings';

/** A database too damaged to open, refused, with the offer the person did not take (or was not asked). */
export class DamagedDatabaseError extends StorageError {
  constructor(
    file: string,
    message: string,
    readonly offer: RecoveryOffer,
  ) {
    super('corrupt', file, message);
  }
}

export interface OpenDataStoreOptions {
  dataDir: string;
  database: string;
  clock: Clock;
  log: Logger;
  nativeBinding?: string;
  /**
   * The person's answer to the offer for a database that cannot be opened: true replaces it by
   * the offered backup. Absent: the start is refused, the message naming the offer.
   */
  recover?(offer: RecoveryOffer): Promise<boolean>;
  /**
   * Check the whole file before opening it and put the newest good backup in place if it is
   * damaged (`serve --recover`): the damage a running host found may be past the pages that
   * opening reads. A recovery accepted in the desktop app's dialog asks for the same (a file).
   */
  recoverIfDamaged?: boolean;
}

export interface OpenedDataStore {
  store: Store;
  /** Set when this start put a backup in place of a damaged database. */
  recovered?: RecoveryResult;
  compacted?: CompactionResult;
}

/** The `backupsKept` setting as stored, read through the connection a migration is about to change. */
function storedBackupsKept(db: Db): number {
  try {
    const row = db.prepare(`SELECT value FROM settings WHERE key = 'backupsKept'`).get() as { value: string } | undefined;
    const n: unknown = row && JSON.parse(row.value);
    return typeof n === 'number' && Number.isInteger(n) && n >= 1 ? n : DEFAULT_BACKUPS_KEPT;
  } catch {
    // No settings table yet (a schema older than 0004), or a value that is not JSON.
    return DEFAULT_BACKUPS_KEPT;
  }
}

export async function openDataStore(o: OpenDataStoreOptions): Promise<OpenedDataStore> {
  const binding = o.nativeBinding ? { nativeBinding: o.nativeBinding } : {};
  const folder = backupsFolder(o.dataDir);
  const compacted = compactAtStart({ dataDir: o.dataDir, database: o.database, log: o.log, ...binding });
  let recovered = o.recoverIfDamaged || isRecoveryRequested(o.dataDir) ? recoverIfDamaged(o, folder) : undefined;
  const open = (): Store =>
    Store.open(o.database, {
      ...binding,
      beforeMigrate: (db, from, to) => backupBeforeMigration({ folder, clock: o.clock, log: o.log, keep: storedBackupsKept(db), ...binding })(db, from, to),
    });
  try {
    return { store: open(), ...(recovered ? { recovered } : {}), ...(compacted ? { compacted } : {}) };
  } catch (err) {
    if (!(err instanceof StorageError) || err.problem !== 'corrupt') throw err;
    recovered = await offerRecovery(o, err.message);
    return { store: open(), recovered, ...(compacted ? { compacted } : {}) };
  }
}

/**
 * A database too damaged to use at start (it would not open, or failed its first reads): the
 * newest good backup is offered (`recover`); taken, it is put in place, the damaged file kept
 * aside. Declined, or with no backup to offer, this throws a `DamagedDatabaseError` naming the
 * offer. The caller holds the lock and has the database closed.
 */
export async function offerRecovery(o: OpenDataStoreOptions, message: string): Promise<RecoveryResult> {
  const offer = recoveryOffer(o.database, message, backupsFolder(o.dataDir), o.nativeBinding);
  o.log.error('the database cannot be used: it is damaged', { detail: message, backup: offer.backup?.file, lost: offer.lost });
  const { backup } = offer;
  if (!backup || !(await o.recover?.(offer))) throw new DamagedDatabaseError(o.database, `${message}\n\n${describeRecoveryOffer(offer)}`, offer);
  return recover(o, { ...offer, backup });
}

function recover(o: OpenDataStoreOptions, offer: RecoveryOffer & { backup: NonNullable<RecoveryOffer['backup']> }): RecoveryResult {
  const result = recoverFromBackup(o.database, offer.backup, o.clock.now(), o.nativeBinding);
  o.log.warn('the damaged database was replaced by its newest good backup', {
    backup: offer.backup.file,
    takenAt: offer.backup.takenAt,
    damagedKeptAt: result.damagedKeptAt,
    lost: offer.lost,
  });
  return result;
}

/**
 * A recovery asked for (`--recover`, or accepted while the last host ran and found the damage
 * in its background check): done now if the database is damaged. A request is withdrawn
 * whatever happens, so a recovery that cannot be done is not tried at every start.
 */
function recoverIfDamaged(o: OpenDataStoreOptions, folder: string): RecoveryResult | undefined {
  try {
    const check = checkAtStart(o.database, o.nativeBinding ? { nativeBinding: o.nativeBinding } : {});
    if (check.ok || check.problem !== 'corrupt') {
      o.log.info('a recovery was asked for, but the database is not damaged; it is kept', { check: check.ok ? 'ok' : check.problem });
      return undefined;
    }
    const offer = recoveryOffer(o.database, describeCheck(o.database, check), folder, o.nativeBinding);
    if (!offer.backup) {
      o.log.error('a recovery was asked for, but no backup passes its check now', { folder });
      return undefined;
    }
    return recover(o, { ...offer, backup: offer.backup });
  } finally {
    withdrawRecoveryRequest(o.dataDir);
  }
}
