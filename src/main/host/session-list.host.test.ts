import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../test-support/host-harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

describe('sessions:list', () => {
  it('answers the newest created first, all of them or only the newest `limit`, and refuses a limit out of range', async () => {
    h = await startHarness();
    const w = h.window();
    // Stored rows, as an older run left them: the list reads them without starting any agent.
    for (const [id, at] of [['s-old', 1_000], ['s-mid', 2_000], ['s-new', 3_000]] as const) {
      h.host.store.sessions.insert({ id, agent_id: 'demo', cwd: h.dataDir, state: 'ENDED' }, at);
    }
    expect((await w.call('sessions:list', {})).map((v) => v.id)).toEqual(['s-new', 's-mid', 's-old']);
    expect((await w.call('sessions:list', { limit: 2 })).map((v) => v.id)).toEqual(['s-new', 's-mid']);
    await expect(w.call('sessions:list', { limit: 0 })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(w.call('sessions:list', { limit: 10_001 })).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('carries each session workspace, read for the whole list at once, as a single view does', async () => {
    h = await startHarness();
    const w = h.window();
    for (const [id, at] of [['s-plain', 1_000], ['s-tree', 2_000]] as const) {
      h.host.store.sessions.insert({ id, agent_id: 'demo', cwd: h.dataDir, state: 'ENDED' }, at);
    }
    h.host.store.workspaces.insert(
      { session_id: 's-tree', kind: 'worktree', folder: h.dataDir, repo_top: h.dataDir, common_dir: `${h.dataDir}/.git`, worktree_path: `${h.dataDir}/wt`, branch: 'switchboard/s-tree', base_branch: 'main', base_commit: 'a'.repeat(40), group_id: null },
      3_000,
    );
    const listed = await w.call('sessions:list', {});
    const tree = listed.find((v) => v.id === 's-tree');
    expect(tree).toMatchObject({ workspace: { kind: 'worktree', branch: 'switchboard/s-tree' } });
    expect(listed.find((v) => v.id === 's-plain')).not.toHaveProperty('workspace');
    for (const view of listed) expect(view).toEqual(h.host.service.view(h.host.store.sessions.get(view.id)!));
  });
});
