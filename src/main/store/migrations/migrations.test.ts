import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { latestVersion, migrate, migrations } from './index';
import { m0013 } from './0013-mcp-servers';
import { m0014 } from './0014-questions-forks';
import { tempDir } from '../../test-support/temp-dir';

const dirs: { cleanup(): void }[] = [];
function freshDb(): Database.Database {
  const dir = tempDir();
  dirs.push(dir);
  return new Database(join(dir.path, 'test.db'));
}
afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));

const tables = (db: Database.Database): string[] =>
  (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as { name: string }[]).map(
    (r) => r.name,
  );

describe('migrations', () => {
  it('are numbered 1, 2, 3… with no gap: a skipped number would never run on a database past it', () => {
    const versions = migrations.map((m) => m.version);
    expect(versions).toEqual(versions.map((_, i) => i + 1));
    expect(latestVersion).toBe(versions.length);
  });

  it('0001 creates sessions, events and prompts', () => {
    const db = freshDb();
    expect(migrate(db, 1)).toBe(1);
    expect(tables(db)).toEqual(['events', 'prompts', 'sessions']);
  });

  it('0002 adds brokers and broker_owners on top of 0001', () => {
    const db = freshDb();
    migrate(db, 1);
    expect(migrate(db, 2)).toBe(2);
    expect(tables(db)).toContain('brokers');
    expect(tables(db)).toContain('broker_owners');
  });

  it('0003 adds permissions and permission_rules and keeps existing rows', () => {
    const db = freshDb();
    migrate(db, 2);
    db.prepare(
      `INSERT INTO sessions (id, agent_id, cwd, state, created_at, updated_at, last_activity_at) VALUES ('s', 'demo', '/', 'ENDED', 1, 1, 1)`,
    ).run();
    expect(migrate(db, 3)).toBe(3);
    expect(tables(db)).toEqual(expect.arrayContaining(['permissions', 'permission_rules']));
    expect(db.prepare(`SELECT COUNT(*) AS n FROM sessions`).get()).toEqual({ n: 1 });
  });

  it('0004 adds settings', () => {
    const db = freshDb();
    migrate(db, 3);
    expect(migrate(db, 4)).toBe(4);
    expect(tables(db)).toContain('settings');
  });

  it('0005 adds agents and keeps existing sessions and settings', () => {
    const db = freshDb();
    migrate(db, 4);
    db.prepare(`INSERT INTO settings (key, value) VALUES ('defaultAgentId', '"demo"')`).run();
    expect(migrate(db, 5)).toBe(5);
    expect(tables(db)).toContain('agents');
    db.prepare(
      `INSERT INTO agents (id, name, command, source, created_at, updated_at) VALUES ('gemini', 'Gemini CLI', 'gemini', 'user', 1, 1)`,
    ).run();
    expect(db.prepare(`SELECT args, env, secret_names FROM agents`).get()).toEqual({ args: '[]', env: '{}', secret_names: '[]' });
    expect(() =>
      db.prepare(`INSERT INTO agents (id, name, command, source, created_at, updated_at) VALUES ('x', 'X', 'x', 'elsewhere', 1, 1)`).run(),
    ).toThrow(/CHECK/);
    expect(db.prepare(`SELECT COUNT(*) AS n FROM settings`).get()).toEqual({ n: 1 });
  });

  it('0006 adds archived_at and auth_request to sessions (existing rows not archived)', () => {
    const db = freshDb();
    migrate(db, 5);
    db.prepare(
      `INSERT INTO sessions (id, agent_id, cwd, state, created_at, updated_at, last_activity_at) VALUES ('s', 'demo', '/', 'ENDED', 1, 1, 1)`,
    ).run();
    expect(migrate(db, 6)).toBe(6);
    expect(db.prepare(`SELECT archived_at, auth_request FROM sessions WHERE id = 's'`).get()).toEqual({ archived_at: null, auth_request: null });
  });

  it('0009 adds controls to sessions (existing rows have none)', () => {
    const db = freshDb();
    migrate(db, 6);
    db.prepare(
      `INSERT INTO sessions (id, agent_id, cwd, state, created_at, updated_at, last_activity_at) VALUES ('s', 'demo', '/', 'ENDED', 1, 1, 1)`,
    ).run();
    expect(migrate(db, 9)).toBe(9);
    expect(db.prepare(`SELECT controls FROM sessions WHERE id = 's'`).get()).toEqual({ controls: null });
  });

  it('0010 adds additional_dirs (NULL for existing sessions) and recent_folders', () => {
    const db = freshDb();
    migrate(db, 6);
    db.prepare(
      `INSERT INTO sessions (id, agent_id, cwd, state, created_at, updated_at, last_activity_at) VALUES ('s', 'demo', '/', 'ENDED', 1, 1, 1)`,
    ).run();
    expect(migrate(db, 10)).toBe(10);
    expect(db.prepare(`SELECT additional_dirs FROM sessions WHERE id = 's'`).get()).toEqual({ additional_dirs: null });
    db.prepare(`INSERT INTO recent_folders (path, used_at) VALUES ('/a', 1)`).run();
    expect(() => db.prepare(`INSERT INTO recent_folders (path, used_at) VALUES ('/a', 2)`).run()).toThrow(/UNIQUE/);
  });

  it('0007 adds the search tables and records what the backfill must index (sessions with events only)', () => {
    const db = freshDb();
    migrate(db, 6);
    const insert = db.prepare(
      `INSERT INTO sessions (id, agent_id, cwd, state, last_seq, created_at, updated_at, last_activity_at) VALUES (?, 'demo', '/', 'ENDED', ?, 1, 1, ?)`,
    );
    insert.run('with', 12, 5);
    insert.run('empty', 0, 6);
    expect(migrate(db, 7)).toBe(7);
    expect(tables(db)).toEqual(expect.arrayContaining(['search_docs', 'search_index', 'search_backfill']));
    expect(db.prepare(`SELECT session_id, upto_seq, last_activity_at FROM search_backfill`).all()).toEqual([
      { session_id: 'with', upto_seq: 12, last_activity_at: 5 },
    ]);
  });

  it('0008 adds the person\'s name, viewed_at (existing sessions count as seen) and drafts that go with their session', () => {
    const db = freshDb();
    migrate(db, 6);
    db.prepare(
      `INSERT INTO sessions (id, agent_id, cwd, state, created_at, updated_at, last_activity_at) VALUES ('s', 'demo', '/', 'ENDED', 1, 1, 7)`,
    ).run();
    expect(migrate(db, 8)).toBe(8);
    expect(db.prepare(`SELECT custom_title, viewed_at FROM sessions WHERE id = 's'`).get()).toEqual({ custom_title: null, viewed_at: 7 });
    db.pragma('foreign_keys = ON');
    db.prepare(`INSERT INTO drafts (session_id, text, updated_at) VALUES ('s', 'half a thought', 2)`).run();
    expect(() => db.prepare(`INSERT INTO drafts (session_id, text, updated_at) VALUES ('nope', 'x', 2)`).run()).toThrow(/FOREIGN KEY/);
    db.prepare(`DELETE FROM sessions WHERE id = 's'`).run();
    expect(db.prepare(`SELECT COUNT(*) AS n FROM drafts`).get()).toEqual({ n: 0 });
  });

  it('0011 indexes only the command-list rows of the transcript', () => {
    const db = freshDb();
    expect(migrate(db, 11)).toBe(11);
    const index = db.prepare(`SELECT sql FROM sqlite_master WHERE type = 'index' AND name = 'events_available_commands'`).get() as { sql: string } | undefined;
    expect(index?.sql).toContain("WHERE kind = 'available_commands'");
  });

  it('0013 adds mcp_servers (names unique in any case, stdio has a command, the others a URL) and which agents get each', () => {
    const db = freshDb();
    migrate(db, 11);
    m0013.up(db);
    db.pragma('foreign_keys = ON');
    expect(tables(db)).toEqual(expect.arrayContaining(['mcp_servers', 'mcp_server_agents']));
    const add = db.prepare(`INSERT INTO mcp_servers (id, name, type, command, url, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 1, 1)`);
    add.run('a', 'GitHub', 'stdio', 'npx', null);
    add.run('b', 'docs', 'http', null, 'https://example.com/mcp');
    expect(() => add.run('c', 'github', 'sse', null, 'https://example.com/sse')).toThrow(/UNIQUE/);
    expect(() => add.run('d', 'x', 'stdio', null, null)).toThrow(/CHECK/);
    expect(() => add.run('e', 'y', 'http', 'npx', 'https://example.com')).toThrow(/CHECK/);
    expect(() => add.run('f', 'z', 'ws', null, 'wss://example.com')).toThrow(/CHECK/);
    expect(db.prepare(`SELECT args, vars FROM mcp_servers WHERE id = 'a'`).get()).toEqual({ args: '[]', vars: '[]' });
    db.prepare(`INSERT INTO mcp_server_agents (server_id, agent_id) VALUES ('a', 'gemini'), ('a', 'demo')`).run();
    db.prepare(`DELETE FROM mcp_servers WHERE id = 'a'`).run();
    expect(db.prepare(`SELECT COUNT(*) AS n FROM mcp_server_agents`).get()).toEqual({ n: 0 });
  });

  it('0014 adds questions (pending or answered, gone with their session) and where sessions came from, on existing rows too', () => {
    const db = freshDb();
    migrate(db, 13);
    db.prepare(`INSERT INTO sessions (id, agent_id, cwd, state, created_at, updated_at, last_activity_at) VALUES ('s1', 'demo', '/w', 'ENDED', 1, 1, 1)`).run();
    m0014.up(db);
    db.pragma('foreign_keys = ON');
    expect(db.prepare(`SELECT forked_from, read_only, can_fork FROM sessions WHERE id = 's1'`).get()).toEqual({ forked_from: null, read_only: 0, can_fork: 0 });
    const ask = db.prepare(`INSERT INTO questions (request_id, session_id, question, status, action, created_at) VALUES (?, 's1', '{}', ?, ?, 1)`);
    ask.run('q1', 'pending', null);
    expect(() => ask.run('q2', 'waiting', null)).toThrow(/CHECK/);
    expect(() => ask.run('q3', 'answered', 'maybe')).toThrow(/CHECK/);
    db.prepare(`DELETE FROM sessions WHERE id = 's1'`).run();
    expect(db.prepare(`SELECT COUNT(*) AS n FROM questions`).get()).toEqual({ n: 0 });
  });

  it('is idempotent: running again changes nothing', () => {
    const db = freshDb();
    migrate(db);
    const before = tables(db);
    expect(migrate(db)).toBe(latestVersion);
    expect(tables(db)).toEqual(before);
  });

  it('refuses a database from a newer Switchboard', () => {
    const db = freshDb();
    db.pragma(`user_version = ${latestVersion + 1}`);
    expect(() => migrate(db)).toThrow(/newer than this Switchboard/);
  });

  it('rolls a failing migration back whole', () => {
    const db = freshDb();
    migrate(db, 1);
    db.exec(`CREATE TABLE brokers (x INTEGER)`); // makes 0002 fail half-way
    expect(() => migrate(db, 2)).toThrow();
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    expect(tables(db)).not.toContain('broker_owners');
  });
});
