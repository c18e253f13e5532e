import type { Db } from './db';

/** The composer's unsent text, one row per session; an empty draft is no row. */
export class DraftsRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      get: db.prepare(`SELECT text FROM drafts WHERE session_id = ?`),
      upsert: db.prepare(
        `INSERT INTO drafts (session_id, text, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (session_id) DO UPDATE SET text = excluded.text, updated_at = excluded.updated_at`,
      ),
      remove: db.prepare(`DELETE FROM drafts WHERE session_id = ?`),
    };
  }

  get(sessionId: string): string {
    return (this.stmts.get.get(sessionId) as { text: string } | undefined)?.text ?? '';
  }

  /** Stores `text` as the session's draft; '' removes it. */
  save(sessionId: string, text: string, now: number): void {
    if (text === '') this.stmts.remove.run(sessionId);
    else this.stmts.upsert.run(sessionId, text, now);
  }
}
