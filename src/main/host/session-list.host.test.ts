import { afterEach, describe, expect, it } from 'vitest';
import { LIST_AFTER_SQL } from '../store/sessions.repo';
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

  it('pages from a listed session: ties on the time go by id, and a session made or deleted meanwhile moves no page', async () => {
    h = await startHarness();
    const w = h.window();
    const at: [string, number][] = [['a', 5_000], ['c', 4_000], ['b', 4_000], ['d', 4_000], ['e', 3_000], ['f', 2_000], ['g', 1_000]];
    for (const [id, t] of at) h.host.store.sessions.insert({ id, agent_id: 'demo', cwd: h.dataDir, state: 'ENDED' }, t);
    const whole = (await w.call('sessions:list', {})).map((v) => v.id);
    expect(whole).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    const first = await w.call('sessions:list', { limit: 2 });
    expect(first.map((v) => v.id)).toEqual(['a', 'b']);
    // Between two pages: a new session (it goes on top) and a deleted one (already listed).
    h.host.store.sessions.insert({ id: 'new', agent_id: 'demo', cwd: h.dataDir, state: 'ENDED' }, 6_000);
    h.host.store.sessions.remove('a');
    const cursor = (v: { createdAt: number; id: string }) => ({ createdAt: v.createdAt, id: v.id });
    const second = await w.call('sessions:list', { limit: 3, after: cursor(first.at(-1)!) });
    expect(second.map((v) => v.id)).toEqual(['c', 'd', 'e']);
    const rest = await w.call('sessions:list', { limit: 3, after: cursor(second.at(-1)!) });
    expect(rest.map((v) => v.id)).toEqual(['f', 'g']);
    expect(await w.call('sessions:list', { after: cursor(rest.at(-1)!) })).toEqual([]);
    // The page is a range of the index in its order: no sort of every session.
    const plan = (h.host.store.db.prepare(`EXPLAIN QUERY PLAN ${LIST_AFTER_SQL}`).all({ createdAt: 1, id: 'x', limit: 10 }) as { detail: string }[]).map((r) => r.detail).join('\n');
    expect(plan).toContain('sessions_by_created');
    expect(plan).not.toContain('TEMP B-TREE');
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
