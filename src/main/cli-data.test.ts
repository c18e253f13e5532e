import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs } from './cli/parse-args';
import { checkDatabaseFile } from './store/db-check';
import { Store } from './store/store';
import { testCleanups } from './test-support/cleanups';
import { seedSessions } from './test-support/seed-store';
import { runCli, startServe } from './test-support/serve-process';

/** `switchboard backup FILE`, `restore FILE` and `doctor`, as a person runs them beside a running `serve`. */

const cleanups = testCleanups();

function seededFolder(sessions = 2): { dir: string; database: string; ids: string[] } {
  const dir = cleanups.dataDir();
  const database = join(dir, 'switchboard.db');
  const store = Store.open(database);
  const ids = seedSessions(store, Array.from({ length: sessions }, () => ({ events: 12 })));
  store.dispose();
  return { dir, database, ids };
}

const sessionIds = (file: string): string[] => {
  const store = Store.open(file);
  try {
    return store.sessions.list().map((s) => s.id).sort();
  } finally {
    store.dispose();
  }
};

describe('the data-folder commands: arguments', () => {
  it('take one FILE (backup, restore) or none (doctor), and --data-dir like serve', () => {
    expect(parseArgs(['backup', 'b.db', '--data-dir', '/d'], {})).toEqual({ command: 'backup', file: 'b.db', dataDir: '/d' });
    expect(parseArgs(['restore', '--data-dir=/d', 'b.db'], {})).toEqual({ command: 'restore', file: 'b.db', dataDir: '/d' });
    expect(parseArgs(['doctor'], { SWITCHBOARD_DATA_DIR: '/here' })).toEqual({ command: 'doctor', dataDir: '/here' });
  });

  it.each([
    [['backup'], 'backup needs exactly one FILE'],
    [['restore', 'a.db', 'b.db'], 'restore needs exactly one FILE'],
    [['doctor', 'extra'], 'unexpected argument "extra"'],
    [['backup', 'b.db', '--port', '1'], 'unknown option --port for backup'],
    [['restore', 'b.db', '--data-dir'], '--data-dir needs a value'],
  ])('%j is a usage error (exit 2): %s', async (argv, message) => {
    const run = await runCli(argv);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`switchboard: ${message}`);
  });
});

describe('backup and restore beside a running serve', () => {
  it('backs up while serve runs; restore is refused until it quits, then keeps the current database aside', async () => {
    const { dir, database, ids } = seededFolder(2);
    const serve = startServe(['serve', '--port', '0', '--data-dir', dir]);
    cleanups.add(async () => {
      if (serve.child.exitCode === null) serve.child.kill('SIGKILL');
      await serve.exited;
    });
    await serve.ready;

    const backup = join(cleanups.dataDir(), 'monday.db');
    const made = await runCli(['backup', backup, '--data-dir', dir]);
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(/^Backed up .*switchboard\.db to .*monday\.db \(schema \d+, \d+ pages, checked\)\.\n$/);
    expect(checkDatabaseFile(backup)).toMatchObject({ ok: true });
    expect(sessionIds(backup)).toEqual(ids.sort());

    const refused = await runCli(['restore', backup, '--data-dir', dir]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(new RegExp(`^switchboard: Another Switchboard \\(pid ${serve.pid}\\) is already using this data folder`));

    serve.child.kill('SIGTERM');
    expect((await serve.exited).code).toBe(0);
    // Work done after the backup, which the restore sets aside.
    const store = Store.open(database);
    const [later] = seedSessions(store, [{ events: 3 }]);
    store.dispose();

    const restored = await runCli(['restore', backup, '--data-dir', dir]);
    expect(restored.code).toBe(0);
    const aside = /kept as (\S+)\.\n$/.exec(restored.stdout)?.[1];
    expect(aside).toMatch(/switchboard\.db\.before-restore-\d{4}-\d{2}-\d{2}T[\d-]+Z$/);
    expect(sessionIds(database)).toEqual(ids.sort());
    expect(sessionIds(aside!)).toContain(later);
  });

  it('refuses to restore a damaged file, changing nothing', async () => {
    const { dir, database } = seededFolder(1);
    const before = readFileSync(database);
    const bad = join(dir, 'bad.db');
    writeFileSync(bad, 'SQLite format 3\0'.padEnd(4096 * 3, '?'));
    const run = await runCli(['restore', bad, '--data-dir', dir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^switchboard: Cannot restore: .*bad\.db is damaged .* Nothing was changed\.\n$/);
    expect(readFileSync(database).equals(before)).toBe(true);
    expect(readdirSync(dir).filter((f) => f.includes('before-restore'))).toEqual([]);
  });
});

describe('switchboard doctor', () => {
  it('exits 0 on a good folder and 1 on a damaged one, printing the fix', async () => {
    const { dir, database } = seededFolder(1);
    const good = await runCli(['doctor', '--data-dir', dir]);
    expect(good.stdout).toContain('ok       database');
    // The machine may lack git or Chromium; the data folder's checks are what this test is about.
    if (!/PROBLEM/.test(good.stdout)) expect(good.code).toBe(0);

    const bytes = readFileSync(database);
    bytes.fill(0xa5, 4096 * 2);
    writeFileSync(database, bytes);
    const bad = await runCli(['doctor', '--data-dir', dir]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/PROBLEM {2}database {5}.*switchboard\.db is damaged/);
    expect(bad.stdout).toMatch(/fix: Quit Switchboard and move .*switchboard\.db .* aside/);
    expect(bad.stdout).toMatch(/\d+ problems? found\.\n$/);
    expect(existsSync(join(dir, 'host.lock'))).toBe(false);
  });
});
