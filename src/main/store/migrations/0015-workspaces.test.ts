import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp-dir';
import { migrate } from './index';

const dirs: { cleanup(): void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));

function db(): Database.Database {
  const dir = tempDir();
  dirs.push(dir);
  const d = new Database(join(dir.path, 'test.db'));
  d.pragma('foreign_keys = ON');
  return d;
}

const session = (d: Database.Database, id: string): void => {
  d.prepare(`INSERT INTO sessions (id, agent_id, cwd, state, created_at, updated_at, last_activity_at) VALUES (?, 'demo', '/w', 'ENDED', 1, 1, 1)`).run(id);
};

describe('migration 0015 (workspaces)', () => {
  it('adds workspaces, checkpoints, repositories and session groups, keeping existing sessions as plain folders', () => {
    const d = db();
    migrate(d, 14);
    session(d, 's1');
    expect(migrate(d, 15)).toBe(15);
    const tables = (d.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('workspaces', 'checkpoints', 'repositories', 'session_groups') ORDER BY name`).all() as { name: string }[]).map((r) => r.name);
    expect(tables).toEqual(['checkpoints', 'repositories', 'session_groups', 'workspaces']);
    expect(d.prepare(`SELECT COUNT(*) AS n FROM workspaces`).get()).toEqual({ n: 0 });
    expect(d.prepare(`SELECT COUNT(*) AS n FROM sessions`).get()).toEqual({ n: 1 });
  });

  it('refuses a worktree row without its path, branch, base branch and commit, and a kind or reason it does not know', () => {
    const d = db();
    migrate(d, 15);
    session(d, 's1');
    const insert = d.prepare(
      `INSERT INTO workspaces (session_id, kind, folder, repo_top, common_dir, worktree_path, branch, base_branch, base_commit, created_at, updated_at) VALUES ('s1', ?, '/r', '/r', '/r/.git', ?, ?, 'main', 'abc', 1, 1)`,
    );
    expect(() => insert.run('worktree', null, 'b')).toThrow(/CHECK/);
    expect(() => insert.run('elsewhere', null, null)).toThrow(/CHECK/);
    insert.run('worktree', '/wt/b', 'b');
    expect(() => d.prepare(`INSERT INTO checkpoints (session_id, checkpoint_id, reason, ref, commit_id, at) VALUES ('s1', 'c', 'whim', 'r', 'c', 1)`).run()).toThrow(/CHECK/);
    expect(() => d.prepare(`INSERT INTO workspaces (session_id, kind, folder, repo_top, common_dir, created_at, updated_at) VALUES ('ghost', 'shared', '/r', '/r', '/r/.git', 1, 1)`).run()).toThrow(/FOREIGN KEY/);
  });

  it('takes a session\'s workspace and checkpoints with it, and a group forgets a session that goes', () => {
    const d = db();
    migrate(d, 15);
    session(d, 's1');
    d.prepare(`INSERT INTO session_groups (id, created_at) VALUES ('g', 1)`).run();
    d.prepare(`INSERT INTO workspaces (session_id, kind, folder, repo_top, common_dir, group_id, created_at, updated_at) VALUES ('s1', 'shared', '/r', '/r', '/r/.git', 'g', 1, 1)`).run();
    d.prepare(`INSERT INTO checkpoints (session_id, checkpoint_id, reason, ref, commit_id, at) VALUES ('s1', 'c1', 'turn', 'refs/switchboard/s1/c1', 'abc', 1)`).run();
    d.prepare(`DELETE FROM sessions WHERE id = 's1'`).run();
    expect(d.prepare(`SELECT (SELECT COUNT(*) FROM workspaces) + (SELECT COUNT(*) FROM checkpoints) AS n`).get()).toEqual({ n: 0 });
  });
});
