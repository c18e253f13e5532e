import Database from 'better-sqlite3';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { backupFileName } from '../datadir/backups';
import { DataDirLock } from '../datadir/data-dir-lock';
import { latestVersion, migrate } from '../store/migrations';
import { Store } from '../store/store';
import { testCleanups } from '../test-support/cleanups';
import { demoAgent } from '../test-support/demo-agent';
import { seedSessions } from '../test-support/seed-store';
import { formatDoctor, runDoctor, type DoctorCheck } from './doctor';

const cleanups = testCleanups();

/** A data folder in use for a while: sessions, a backup, and agents configured in Settings. */
function dataFolder(agents: { id: string; name: string; command: string; args: string[] }[] = []): { dir: string; database: string } {
  const dir = cleanups.dataDir();
  const database = join(dir, 'switchboard.db');
  const store = Store.open(database);
  seedSessions(store, [{ events: 10 }, { events: 4 }]);
  for (const a of agents) store.agents.upsert({ ...a, env: {}, secretNames: [], source: 'user' }, 1);
  store.dispose();
  mkdirSync(join(dir, 'backups'));
  const copy = new Database(database, { readonly: true });
  copy.prepare('VACUUM INTO ?').run(join(dir, 'backups', backupFileName('daily', Date.now() - 3_600_000, latestVersion)));
  copy.close();
  return { dir, database };
}

const problems = (checks: DoctorCheck[]): DoctorCheck[] => checks.filter((c) => c.status === 'problem');
const byArea = (checks: DoctorCheck[], area: string): DoctorCheck[] => checks.filter((c) => c.area === area);

/** A second demo agent, configured as a person would add an agent in Settings. */
function workingAgent(dir: string) {
  const demo = demoAgent(join(dir, 'second-demo'));
  return { id: 'second', name: 'Second agent', command: demo.command, args: demo.args };
}

describe('switchboard doctor', () => {
  it('finds nothing wrong in a healthy data folder, and says what it checked', async () => {
    const { dir } = dataFolder();
    const second = workingAgent(dir);
    const store = Store.open(join(dir, 'switchboard.db'));
    store.agents.upsert({ ...second, env: {}, secretNames: [], source: 'user' }, 1);
    store.dispose();
    const checks = await runDoctor({ dataDir: dir, env: { ...process.env, SWITCHBOARD_CHROMIUM: process.execPath } });
    expect(problems(checks)).toEqual([]);
    expect(byArea(checks, 'data folder')[0]).toMatchObject({ status: 'ok', detail: `${dir} exists and is writable` });
    expect(byArea(checks, 'database')[0]!.detail).toContain(`passes quick_check (schema ${latestVersion}, this build's)`);
    expect(byArea(checks, 'backups')[0]!.detail).toMatch(/^1 in .*; the newest is 1 h old \(daily/);
    expect(byArea(checks, 'agents').map((c) => c.detail)).toEqual([
      expect.stringMatching(/^Demo agent: answers initialize in \d+ ms \(Switchboard demo agent/),
      expect.stringMatching(/^Second agent: answers initialize/),
    ]);
    expect(byArea(checks, 'git')[0]!.detail).toMatch(/^git version \d/);
    expect(formatDoctor(dir, checks)).toMatch(/No problems found\.\n$/);
  });

  it('names every problem of a broken folder with its fix: damaged database, missing and dying agents, a sign-in, no git', async () => {
    const { dir, database } = dataFolder([
      { id: 'gone', name: 'Gone agent', command: 'switchboard-no-such-agent', args: [] },
      { id: 'dies', name: 'Dying agent', command: process.execPath, args: ['-e', 'process.stderr.write("no licence\\n"); process.exit(3)'] },
    ]);
    const store = Store.open(database);
    const [waiting] = seedSessions(store, [{ events: 2 }]);
    store.sessions.setAuthRequest(waiting!, { message: 'Sign in first', methods: [], during: 'start' }, 2);
    store.dispose();
    // The agents were read; now the pages of the transcripts go bad.
    const checksBefore = await runDoctor({ dataDir: dir, env: { PATH: '/nonexistent' }, agentTimeoutMs: 5_000 });
    expect(problems(checksBefore).map((c) => c.detail)).toEqual([
      'Gone agent: its command `switchboard-no-such-agent` is not found on PATH',
      expect.stringMatching(/^Dying agent: did not start \(.*\); its last words: no licence/),
      'Demo agent: 1 session waits for you to sign in',
      'git is not installed (not found on PATH)',
    ]);
    expect(problems(checksBefore).every((c) => c.fix)).toBe(true);
    expect(byArea(checksBefore, 'browser')[0]).toMatchObject({ status: expect.stringMatching(/ok|note/) as unknown });

    const bytes = readFileSync(database);
    bytes.fill(0xa5, 4096 * 2);
    writeFileSync(database, bytes);
    const checks = await runDoctor({ dataDir: dir, env: process.env, agentTimeoutMs: 5_000 });
    const db = byArea(checks, 'database')[0]!;
    expect(db.status).toBe('problem');
    expect(db.detail).toMatch(/switchboard\.db is damaged/);
    expect(db.fix).toMatch(new RegExp(`^Quit Switchboard, then restore the newest good backup: switchboard restore ".*backups/switchboard-.*-daily\\.db" --data-dir "${dir}"`));
    expect(formatDoctor(dir, checks)).toMatch(/PROBLEM {2}database {5}.*\n {21} fix: Quit Switchboard/);
  });

  it('reports a database of a newer Switchboard, an unwritable folder, and who holds the lock', async () => {
    const dir = cleanups.dataDir();
    const db = new Database(join(dir, 'switchboard.db'));
    migrate(db);
    db.pragma(`user_version = ${latestVersion + 2}`);
    db.close();
    const lock = DataDirLock.acquire(join(dir, 'host.lock'));
    cleanups.add(() => lock.dispose());
    chmodSync(dir, 0o500);
    cleanups.add(() => chmodSync(dir, 0o700));
    const checks = await runDoctor({ dataDir: dir, env: process.env });
    expect(byArea(checks, 'lock')[0]).toMatchObject({ status: 'note', detail: `a Switchboard (pid ${process.pid}) is using this folder now` });
    expect(byArea(checks, 'database')[0]).toMatchObject({ status: 'problem', detail: expect.stringContaining(`newer Switchboard (schema ${latestVersion + 2}`) as unknown });
    // Root writes anywhere: the folder's mode says nothing then.
    if (process.getuid?.() !== 0) expect(byArea(checks, 'data folder')[0]).toMatchObject({ status: 'problem' });
  });

  it('never creates a data folder it is asked about', async () => {
    const dir = join(cleanups.dataDir(), 'not-yet');
    const checks = await runDoctor({ dataDir: dir, env: process.env });
    expect(byArea(checks, 'data folder')[0]).toMatchObject({ status: 'note', detail: `${dir} does not exist yet; Switchboard creates it at its first start` });
    expect(() => readFileSync(join(dir, 'switchboard.db'))).toThrow(/ENOENT/);
  });
});
