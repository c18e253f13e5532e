import type { Db } from './db';

/** Key/value settings stored as JSON. */
export class SettingsRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      all: db.prepare(`SELECT key, value FROM settings`),
      set: db.prepare(`INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`),
    };
  }

  all(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const row of this.stmts.all.all() as { key: string; value: string }[]) out[row.key] = JSON.parse(row.value);
    return out;
  }

  set(key: string, value: unknown): void {
    this.stmts.set.run(key, JSON.stringify(value));
  }
}
