import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/temp-dir';
import { openDatabase } from './db';
import { latestVersion, migrate } from './migrations';

const dirs: { cleanup(): void }[] = [];
const fileIn = (): string => {
  const d = tempDir();
  dirs.push(d);
  return join(d.path, 'switchboard.db');
};
afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));

function atVersion(file: string, version: number): void {
  const db = new Database(file);
  migrate(db, version);
  db.prepare(`INSERT INTO sessions (id, agent_id, cwd, state, created_at, updated_at, last_activity_at) VALUES ('s', 'demo', '/', 'ENDED', 1, 1, 1)`).run();
  db.close();
}

describe('openDatabase: the hook before migrations', () => {
  it('runs once before an existing database is upgraded, seeing it still at its old version', () => {
    const file = fileIn();
    atVersion(file, 6);
    const calls: { from: number; to: number; seen: number; sessions: number }[] = [];
    const db = openDatabase(file, {
      beforeMigrate: (d, from, to) =>
        calls.push({ from, to, seen: d.pragma('user_version', { simple: true }) as number, sessions: (d.prepare('SELECT COUNT(*) AS n FROM sessions').get() as { n: number }).n }),
    });
    expect(calls).toEqual([{ from: 6, to: latestVersion, seen: 6, sessions: 1 }]);
    expect(db.pragma('user_version', { simple: true })).toBe(latestVersion);
    db.close();
  });

  it('does not run for a new database or one already up to date', () => {
    const file = fileIn();
    let calls = 0;
    openDatabase(file, { beforeMigrate: () => calls++ }).close();
    openDatabase(file, { beforeMigrate: () => calls++ }).close();
    expect(calls).toBe(0);
  });

  it('refuses the upgrade when the hook throws: the database stays at its version, with its rows', () => {
    const file = fileIn();
    atVersion(file, 4);
    expect(() =>
      openDatabase(file, {
        beforeMigrate: () => {
          throw new Error('no room for a backup');
        },
      }),
    ).toThrow('no room for a backup');
    const db = new Database(file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(4);
    expect(db.prepare('SELECT COUNT(*) AS n FROM sessions').get()).toEqual({ n: 1 });
    db.close();
  });
});
