import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { latestVersion } from './store/migrations';
import { testCleanups } from './test-support/cleanups';
import { Store } from './store/store';
import { runCli, startServe } from './test-support/serve-process';
import { seedSessions } from './test-support/seed-store';
import { backupFileName } from './datadir/backups';

/**
 * Issue 13: `serve` on a database it must not use refuses to start, says which file and what
 * to do, exits 3, and leaves the file exactly as it was: never migrated down, never replaced.
 */

const cleanups = testCleanups();
const dataDir = (): string => cleanups.dataDir();

describe('serve refuses a database it must not use', () => {
  it('written by a newer Switchboard: refused with the versions, never migrated down', async () => {
    const dir = dataDir();
    const file = join(dir, 'switchboard.db');
    const db = new Database(file);
    db.exec('CREATE TABLE from_the_future (x)');
    db.pragma(`user_version = ${latestVersion + 3}`);
    db.close();
    const bytes = readFileSync(file);

    const run = await runCli(['serve', '--port', '0', '--data-dir', dir]);
    expect(run.code).toBe(3);
    expect(run.stdout).not.toContain('Switchboard ready');
    expect(run.stderr).toContain(
      `switchboard: The database ${file} was written by a newer version of Switchboard (schema ${latestVersion + 3}; this version knows up to ${latestVersion}). It has not been changed`,
    );
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });

  it('damaged: reported with the path and what to do (move it aside or restore a backup), never replaced', async () => {
    const dir = dataDir();
    const file = join(dir, 'switchboard.db');
    const garbage = Buffer.from('this is not a SQLite database, whatever its name says\n'.repeat(200));
    writeFileSync(file, garbage);

    const run = await runCli(['serve', '--port', '0', '--data-dir', dir]);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(new RegExp(`^switchboard: The database ${file.replaceAll('/', '\\/')} is damaged \\(file is not a database\\)\\. Switchboard has not changed or replaced it\\.`, 'm'));
    expect(run.stderr).toMatch(/move it aside .* or restore it from a backup/);
    expect(readFileSync(file).equals(garbage)).toBe(true);
  });

  it('a database whose pages are damaged past its header is refused the same way', async () => {
    const dir = dataDir();
    const file = join(dir, 'switchboard.db');
    // A real store (closed, so all of it is in the main file), then every page after the
    // first overwritten: the header and schema still say SQLite, the tables are garbage.
    Store.open(file).dispose();
    const bytes = readFileSync(file);
    expect(bytes.length).toBeGreaterThan(4 * 4096);
    bytes.fill(0xa5, 4096);
    writeFileSync(file, bytes);

    const run = await runCli(['serve', '--port', '0', '--data-dir', dir]);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/^switchboard: The database .*switchboard\.db is damaged \(.*malformed.*\)\. Switchboard has not changed or replaced it\./m);
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });

  it('a damaged database with a good backup: the offer is printed with how to take it, and --recover takes it', async () => {
    const dir = dataDir();
    const file = join(dir, 'switchboard.db');
    const store = Store.open(file);
    seedSessions(store, [{ events: 6 }]);
    store.dispose();
    mkdirSync(join(dir, 'backups'));
    const backup = join(dir, 'backups', backupFileName('daily', Date.parse('2026-11-26T13:04:05.123Z'), latestVersion));
    const copy = new Database(file, { readonly: true });
    copy.prepare('VACUUM INTO ?').run(backup);
    copy.close();
    const later = Store.open(file);
    seedSessions(later, [{ events: 4 }]);
    later.dispose();
    const bytes = readFileSync(file);
    bytes.fill(0xa5, 0, 100);
    writeFileSync(file, bytes);

    const refused = await runCli(['serve', '--port', '0', '--data-dir', dir]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain(`The newest good backup was taken 2026-11-26 13:04 UTC (${basename(backup)}).`);
    expect(refused.stderr).toContain('What was stored since cannot be read from the damaged file');
    expect(refused.stderr).toContain(`switchboard serve --recover --data-dir "${dir}"`);
    expect(refused.stderr).toContain(`switchboard restore "${backup}" --data-dir "${dir}"`);
    expect(readFileSync(file).equals(bytes)).toBe(true);

    const p = startServe(['serve', '--port', '0', '--data-dir', dir, '--recover']);
    cleanups.add(async () => {
      p.child.kill('SIGTERM');
      await p.exited;
    });
    await p.ready;
    expect(p.stderr()).toContain('"msg":"the damaged database was replaced by its newest good backup"');
    const aside = readdirSync(dir).filter((n) => n.startsWith('switchboard.db.damaged-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dir, aside[0]!)).equals(bytes)).toBe(true);
  });

  it('a data folder that cannot be created or written: named, with exit 3', async () => {
    const dir = dataDir();
    const blocker = join(dir, 'a-file');
    writeFileSync(blocker, 'not a folder');
    const run = await runCli(['serve', '--port', '0', '--data-dir', join(blocker, 'data')]);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(new RegExp(`^switchboard: Switchboard cannot write to ${join(blocker, 'data').replaceAll('/', '\\/')} \\(.*ENOTDIR`));
  });
});
