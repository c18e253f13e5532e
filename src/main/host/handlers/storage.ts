import type { Handlers } from '../dispatch';
import type { HostParts } from '../host-parts';

const ok = { ok: true as const };

/** Settings → Storage: the database's report, its backups, clean-up and compaction; restarting; crash logs. */
export function storageHandlers(h: HostParts) {
  return {
    'storage:report': () => h.storage.report(),
    'storage:backups': () => h.storage.list(),
    'storage:backup': () => h.storage.backUpNow(),
    'storage:preview': (p) => h.storage.cleanUpPreview(p.olderThanDays),
    'storage:clean': (p) => h.storage.cleanUp(p.cutoff),
    'storage:compact': () => h.storage.requestCompaction(),
    'host:restart': () => (h.restart(), ok),
    'crashes:read': (p) => h.crashReport(p.report),
  } satisfies Partial<Handlers>;
}
