import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/temp-dir';
import { Store } from './store';
import type { WorkspaceChange, WorkspacesRepo } from './workspaces.repo';

const NOW = 1_000;
let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

function open(): { store: Store; repo: WorkspacesRepo; heard: WorkspaceChange[] } {
  const dir = tempDir();
  const store = Store.open(join(dir.path, 'switchboard.db'));
  cleanup = () => {
    store.dispose();
    dir.cleanup();
  };
  for (const id of ['s1', 's2']) store.sessions.insert({ id, agent_id: 'demo', cwd: '/wt', state: 'CREATED' }, NOW);
  store.workspaces.addGroup('g', NOW);
  const worktree = (id: string) => ({
    session_id: id,
    kind: 'worktree' as const,
    folder: '/repo',
    repo_top: '/repo',
    common_dir: '/repo/.git',
    worktree_path: `/wt/${id}`,
    branch: `b-${id}`,
    base_branch: 'main',
    base_commit: 'abc',
    group_id: 'g',
  });
  store.workspaces.insert(worktree('s1'), NOW);
  store.workspaces.insert(worktree('s2'), NOW);
  const heard: WorkspaceChange[] = [];
  store.workspaces.onDidChange((c) => heard.push(c));
  return { store, repo: store.workspaces, heard };
}

describe('WorkspacesRepo', () => {
  it('announces every change a session view shows, and only real changes', () => {
    const { repo, heard } = open();
    repo.setBaseCommit('s1', 'def', NOW + 1);
    repo.setBranch('s1', 'b-s1', NOW + 1); // unchanged: no announcement
    repo.setBranch('s1', 'renamed', NOW + 1);
    repo.setMissing('s1', NOW + 2, NOW + 2);
    repo.setMissing('s1', NOW + 2, NOW + 2); // already missing
    repo.setRemoved('s1', NOW + 3, NOW + 3);
    repo.setPath('s1', '/wt/again', NOW + 4);
    repo.setSetup('s1', 'npm ci', 'running', null, NOW + 5);
    expect(heard.map((c) => c.what)).toEqual(['base', 'branch', 'missing', 'removed', 'path', 'setup']);
    expect(repo.get('s1')).toMatchObject({ base_commit: 'def', branch: 'renamed', worktree_path: '/wt/again', missing_at: null, removed_at: null, setup_state: 'running' });
  });

  it('fails setup commands a previous run left running, announcing each', () => {
    const { repo, heard } = open();
    repo.setSetup('s2', 'npm ci', 'running', null, NOW);
    heard.length = 0;
    expect(repo.interruptSetups(NOW + 1)).toEqual(['s2']);
    expect(repo.get('s2')?.setup_state).toBe('failed');
    expect(heard).toEqual([{ sessionId: 's2', what: 'setup' }]);
  });

  it('lets exactly one caller claim a group\'s first prompt', () => {
    const { repo } = open();
    expect(repo.claimFirstPrompt('g', NOW)).toBe(true);
    expect(repo.claimFirstPrompt('g', NOW)).toBe(false);
    expect(repo.ofGroup('g').map((r) => r.session_id)).toEqual(['s1', 's2']);
  });

  it('goes with its session, and a group with its last session', () => {
    const { store, repo } = open();
    repo.addCheckpoint({ session_id: 's1', checkpoint_id: 'c1', reason: 'turn', client_message_id: 'c1', ref: 'refs/switchboard/s1/c1', commit_id: 'abc', at: NOW });
    store.sessions.remove('s1');
    expect(repo.get('s1')).toBeUndefined();
    expect(repo.checkpoints('s1')).toEqual([]);
    expect(repo.ofGroup('g')).toHaveLength(1);
    store.sessions.remove('s2');
    expect(store.db.prepare(`SELECT COUNT(*) AS n FROM session_groups`).get()).toEqual({ n: 0 });
  });
});
