import type { Migration } from './index';

/**
 * The sidebar's list (`SessionsRepo.list`: newest created first) read every session and sorted
 * them: on a folder of 50,000 sessions that was ~130 ms of every `sessions:list`, the window's
 * first paint waiting on it. With this index the newest are read in order and the scan stops at
 * the limit.
 */
export const m0017: Migration = {
  version: 17,
  name: 'sessions by creation',
  up(db) {
    db.exec(`CREATE INDEX sessions_by_created ON sessions (created_at DESC, id);`);
  },
};
