import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors';
import { SessionHost } from '../host/session-host';
import { latestVersion } from '../store/migrations';
import { tempDir } from '../test-support/temp-dir';
import { startFailureDialog } from './start-failure';

/** What the desktop app's start-up error dialog says, for the failures the host really throws. */

const dirs: { cleanup(): void }[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup();
});

async function startError(prepare: (dir: string) => void): Promise<unknown> {
  const dir = tempDir();
  dirs.push(dir);
  prepare(dir.path);
  try {
    const host = await SessionHost.start({ dataDir: dir.path, headless: false });
    await host.shutdown();
    return undefined;
  } catch (err) {
    return err;
  }
}

describe('the start-up error dialog', () => {
  it('a damaged database: titled as such, the message names the file and says to move it aside or restore a backup', async () => {
    const err = await startError((dir) => writeFileSync(join(dir, 'switchboard.db'), 'garbage '.repeat(1000)));
    const dialog = startFailureDialog(err);
    expect(dialog.title).toBe('Switchboard’s database is damaged');
    expect(dialog.message).toMatch(/switchboard\.db is damaged .*move it aside .*restore it from a backup/);
  });

  it('a newer database: titled as such, the message says it was not changed', async () => {
    const err = await startError((dir) => {
      const db = new Database(join(dir, 'switchboard.db'));
      db.pragma(`user_version = ${latestVersion + 1}`);
      db.close();
    });
    const dialog = startFailureDialog(err);
    expect(dialog.title).toBe('Switchboard’s database is from a newer version');
    expect(dialog.message).toMatch(/written by a newer version of Switchboard .*has not been changed/);
  });

  it('another host holds the data folder, or anything else: the titles it had', () => {
    expect(startFailureDialog(new AppError('already_exists', 'held by pid 42')).title).toBe('Switchboard is already running');
    expect(startFailureDialog(new Error('boom'))).toEqual({ title: 'Switchboard could not start', message: 'boom' });
  });
});
