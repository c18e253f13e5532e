import type { Db } from './db';

/** Key/value settings stored as JSON. */
export class SettingsRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      all: db.prepare(`SELECT key, value FROM settings`),
      get: db.prepare(`SELECT value FROM settings WHERE key = ?`),
      set: db.prepare(`INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`),
    };
  }

  all(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const row of this.stmts.all.all() as { key: string; value: string }[]) out[row.key] = JSON.parse(row.value);
    return out;
  }

  get(key: string): unknown {
    const row = this.stmts.get.get(key) as { value: string } | undefined;
    return row === undefined ? undefined : JSON.parse(row.value);
  }

  set(key: string, value: unknown): void {
    this.stmts.set.run(key, JSON.stringify(value));
  }
}
