/**
 * Compaction needs the database to itself (`store/compact.ts`), so it is asked for while the
 * host runs and done at the next start, before the store opens: Settings → Storage writes the
 * request (`requestCompaction`) and the app restarts, or it happens the next time anyway.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { compactDatabase, removeCompactionLeftover, type CompactionResult } from '../store/compact';
import type { Logger } from '../util/log';
import { writeFileAtomicSync } from '../util/atomic-file';

/** The request: a file in the data folder, holding when it was asked for. */
export const compactionRequestOf = (dataDir: string): string => join(dataDir, 'compact-requested');

export function requestCompaction(dataDir: string, now: number): void {
  writeFileAtomicSync(compactionRequestOf(dataDir), `${new Date(now).toISOString()}\n`);
}

export function isCompactionRequested(dataDir: string): boolean {
  return existsSync(compactionRequestOf(dataDir));
}

export interface CompactAtStartOptions {
  dataDir: string;
  database: string;
  log: Logger;
  nativeBinding?: string;
}

/**
 * At start, under the data folder's lock, before the store opens: removes what a compaction
 * interrupted by a crash left, then compacts if asked to. The request is withdrawn whatever
 * happens (a compaction that fails would otherwise fail at every start); a failure is logged
 * and the database is left as it was. Returns the result when it compacted.
 */
export function compactAtStart(o: CompactAtStartOptions): CompactionResult | undefined {
  if (removeCompactionLeftover(o.database)) o.log.warn('removed the copy an interrupted compaction left; the database is as it was');
  if (!isCompactionRequested(o.dataDir) || !existsSync(o.database)) {
    rmSync(compactionRequestOf(o.dataDir), { force: true });
    return undefined;
  }
  try {
    const result = compactDatabase(o.database, o.nativeBinding ? { nativeBinding: o.nativeBinding } : {});
    o.log.info('database compacted', { ...result });
    return result;
  } catch (err) {
    o.log.error('the database could not be compacted; it is as it was', { error: String(err) });
    return undefined;
  } finally {
    rmSync(compactionRequestOf(o.dataDir), { force: true });
  }
}
