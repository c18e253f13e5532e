import type { Db } from './db';

/** How many recent folders are kept (and offered). */
export const RECENT_FOLDERS_CAP = 10;

/** Folders sessions were started in, for New session's recent list; statements prepared once. */
export class FoldersRepo {
  private readonly stmts;

  constructor(db: Db) {
    const forget = db.prepare(`DELETE FROM recent_folders WHERE path = ?`);
    const insert = db.prepare(`INSERT INTO recent_folders (path, used_at) VALUES (?, ?)`);
    this.stmts = {
      // Deleted and inserted again, not updated: the row gets a new rowid, which breaks ties
      // between uses in one millisecond in favour of the later one.
      use: db.transaction((path: string, now: number) => {
        forget.run(path);
        insert.run(path, now);
      }),
      recent: db.prepare(`SELECT path FROM recent_folders ORDER BY used_at DESC, rowid DESC LIMIT ?`),
      prune: db.prepare(
        `DELETE FROM recent_folders WHERE path NOT IN (SELECT path FROM recent_folders ORDER BY used_at DESC, rowid DESC LIMIT ?)`,
      ),
    };
  }

  /** `path` was used now: it becomes the most recent; the oldest beyond the cap are forgotten. */
  use(path: string, now: number): void {
    this.stmts.use(path, now);
    this.stmts.prune.run(RECENT_FOLDERS_CAP);
  }

  /** Most recent first. */
  recent(limit = RECENT_FOLDERS_CAP): string[] {
    return (this.stmts.recent.all(limit) as { path: string }[]).map((r) => r.path);
  }
}
