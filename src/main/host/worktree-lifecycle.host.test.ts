/**
 * A worktree across its session's life (issue 19): archive and restore, delete with and
 * without the branch, start-up pruning and reconciliation, quit — and after every path, no
 * worktree of Switchboard's is left behind (git's own list is counted).
 */
import { chmodSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentWrites, linkedWorktrees, openSession, readText, startGitHost, type GitHost } from '../test-support/git-host';

let g: GitHost;
let repo: string;
beforeEach(async () => {
  g = await startGitHost();
  repo = g.sb.repo('app', { 'README.md': 'app\n', 'src/main.ts': 'main\n' });
});
afterEach(async () => {
  await g?.cleanup();
});

const branches = (): string[] =>
  g.sb
    .sh(repo, 'branch', '--format=%(refname:short)')
    .split('\n')
    .filter(Boolean)
    .sort();
const view = async (id: string) => (await g.w.call('sessions:list', {})).find((s) => s.id === id)!;

describe('archive and restore', () => {
  it('checkpoints uncommitted files, removes the folder and keeps the branch; restore makes it again with those files', async () => {
    const s = await openSession(g.w, { cwd: repo, worktree: { branch: 'wip' } });
    await agentWrites(g.w, s.id, 'src/main.ts', 'committed change');
    await g.w.call('changes:commit', { sessionId: s.id, message: 'c' });
    await agentWrites(g.w, s.id, 'draft.txt', 'not committed');
    const archived = await g.w.call('sessions:archive', { sessionId: s.id });
    expect(archived.workspace).toMatchObject({ removed: true, branch: 'wip' });
    expect(existsSync(s.cwd)).toBe(false);
    expect(linkedWorktrees(g.sb, repo)).toEqual([]);
    expect(branches()).toEqual(['main', 'wip']);
    expect(g.h.stored(s.id).some((e) => e.kind === 'checkpoint' && e.payload.reason === 'archive')).toBe(true);

    const restored = await g.w.call('sessions:restore', { sessionId: s.id });
    expect(restored.archivedAt).toBeUndefined();
    expect(restored.workspace?.removed).toBeUndefined();
    expect(linkedWorktrees(g.sb, repo)).toEqual([s.cwd]);
    expect(readText(s.cwd, 'src/main.ts')).toBe('committed change');
    expect(readText(s.cwd, 'draft.txt')).toBe('not committed');
    // And the session works there again.
    await agentWrites(g.w, s.id, 'after.txt', 'back');
    expect(readText(s.cwd, 'after.txt')).toBe('back');
  });

  it('keeps the folder when asked to', async () => {
    const s = await openSession(g.w, { cwd: repo, worktree: { branch: 'kept' } });
    const archived = await g.w.call('sessions:archive', { sessionId: s.id, keepWorktree: true });
    expect(archived.workspace?.removed).toBeUndefined();
    expect(linkedWorktrees(g.sb, repo)).toEqual([s.cwd]);
  });

  it('stays archived, saying why, when the branch is gone', async () => {
    const s = await openSession(g.w, { cwd: repo, worktree: { branch: 'doomed' } });
    await g.w.call('sessions:archive', { sessionId: s.id });
    g.sb.sh(repo, 'branch', '-D', 'doomed');
    await expect(g.w.call('sessions:restore', { sessionId: s.id })).rejects.toMatchObject({ code: 'not_found', message: expect.stringMatching(/no longer exists/) });
    expect((await view(s.id)).archivedAt).toBeDefined();
  });
});

describe('delete', () => {
  it('removes the worktree and keeps the branch unless asked', async () => {
    const s = await openSession(g.w, { cwd: repo, worktree: { branch: 'keepme' } });
    await agentWrites(g.w, s.id, 'x.txt', 'x');
    await g.w.call('sessions:delete', { sessionId: s.id });
    expect(linkedWorktrees(g.sb, repo)).toEqual([]);
    expect(existsSync(s.cwd)).toBe(false);
    expect(branches()).toEqual(['keepme', 'main']);
    // Its uncommitted file is kept on the last checkpoint ref, the turns' refs gone.
    const refs = g.sb.sh(repo, 'for-each-ref', '--format=%(refname)', `refs/switchboard/${s.id}/`).trim().split('\n');
    expect(refs).toHaveLength(1);
    expect(g.sb.sh(repo, 'show', `${refs[0]}:x.txt`)).toBe('x');
    expect(await g.w.call('sessions:list', {})).toEqual([]);
  });

  it('refuses to delete a branch with work not in its base until confirmed twice, saying how much', async () => {
    const s = await openSession(g.w, { cwd: repo, worktree: { branch: 'unmerged' } });
    await agentWrites(g.w, s.id, 'a.txt', 'a');
    await g.w.call('changes:commit', { sessionId: s.id, message: 'a' });
    await agentWrites(g.w, s.id, 'b.txt', 'b');
    const result = await g.h.host.dispatch(g.w.id, 'sessions:delete', { sessionId: s.id, deleteBranch: true });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('invalid_state');
      expect(result.error.message).toMatch(/1 commit not in main and uncommitted files/);
      expect(result.error.details?.git).toEqual({ problem: 'unmerged', unmergedCommits: 1, uncommittedFiles: 1 });
    }
    // Nothing happened: the session, its worktree and branch are all there.
    expect((await view(s.id)).workspace?.branch).toBe('unmerged');
    expect(linkedWorktrees(g.sb, repo)).toEqual([s.cwd]);
    await g.w.call('sessions:delete', { sessionId: s.id, deleteBranch: true, confirmUnmerged: true });
    expect(branches()).toEqual(['main']);
    expect(linkedWorktrees(g.sb, repo)).toEqual([]);
    expect(g.sb.sh(repo, 'for-each-ref', `refs/switchboard/${s.id}/`)).toBe('');
  });

  it('deletes a branch with nothing of its own without a second confirmation', async () => {
    const s = await openSession(g.w, { cwd: repo, worktree: { branch: 'empty' } });
    await g.w.call('sessions:delete', { sessionId: s.id, deleteBranch: true });
    expect(branches()).toEqual(['main']);
  });
});

describe('start-up', () => {
  it('prunes a worktree whose folder vanished, marks its session, and can make it again from the branch', async () => {
    const s = await openSession(g.w, { cwd: repo, worktree: { branch: 'vanishing' } });
    await agentWrites(g.w, s.id, 'kept.txt', 'committed');
    await g.w.call('changes:commit', { sessionId: s.id, message: 'kept' });
    await g.h.restart({}, () => rmSync(s.cwd, { recursive: true, force: true }));
    await g.h.host.reconciled;
    g.w = g.h.window();
    expect((await view(s.id)).workspace).toMatchObject({ missing: true, branch: 'vanishing' });
    expect(linkedWorktrees(g.sb, repo)).toEqual([]);
    expect(g.h.stored(s.id).some((e) => e.kind === 'notice' && e.payload.kind === 'worktree_missing')).toBe(true);
    // Nothing is read from a folder that is gone: it says so.
    await expect(g.w.call('changes:list', { sessionId: s.id })).rejects.toMatchObject({ code: 'invalid_state', message: expect.stringMatching(/is gone/) });

    const again = await g.w.call('workspace:recreate', { sessionId: s.id });
    expect(again.workspace?.missing).toBeUndefined();
    expect(readText(s.cwd, 'kept.txt')).toBe('committed');
    await g.w.call('sessions:switch', { sessionId: s.id });
    await agentWrites(g.w, s.id, 'more.txt', 'more');
  });

  it("removes a clean worktree under the worktree folder that no session owns (a crash between making and recording it)", async () => {
    const orphan = join(g.h.dataDir, 'worktrees', 'app-orphan', 'left');
    g.sb.sh(repo, 'worktree', 'add', '-q', '-b', 'left', orphan);
    const mine = join(g.sb.root, 'mine');
    g.sb.sh(repo, 'worktree', 'add', '-q', '-b', 'mine', mine);
    // The repository is known to Switchboard (a session was started in it).
    await openSession(g.w, { cwd: repo });
    await g.h.restart();
    await g.h.host.reconciled;
    expect(linkedWorktrees(g.sb, repo)).toEqual([mine]);
  });
});

describe('no worktree is left behind', () => {
  it('after a create that fails half-way, a delete, an archive and a quit', async () => {
    // Half-way: the second of two worktrees fails in its checkout hook; the first is taken back.
    const hook = join(repo, '.git', 'hooks', 'post-checkout');
    writeFileSync(hook, `#!/bin/sh\nif [ -e "${join(g.sb.root, 'once')}" ]; then echo "hook refuses" >&2; exit 1; fi\ntouch "${join(g.sb.root, 'once')}"\n`);
    chmodSync(hook, 0o755);
    await expect(g.w.call('sessions:create', { cwd: repo, worktree: { branch: 'pair' }, alsoRunOn: ['demo'] })).rejects.toMatchObject({ message: expect.stringMatching(/hook refuses/) });
    expect(linkedWorktrees(g.sb, repo)).toEqual([]);
    expect(branches()).toEqual(['main']);
    expect(await g.w.call('sessions:list', {})).toEqual([]);
    rmSync(hook);

    const a = await openSession(g.w, { cwd: repo, worktree: { branch: 'a' } });
    const b = await openSession(g.w, { cwd: repo, worktree: { branch: 'b' } });
    const c = await openSession(g.w, { cwd: repo, worktree: { branch: 'c' } });
    expect(linkedWorktrees(g.sb, repo)).toHaveLength(3);
    await g.w.call('sessions:delete', { sessionId: a.id });
    await g.w.call('sessions:archive', { sessionId: b.id });
    expect(linkedWorktrees(g.sb, repo)).toEqual([c.cwd]);

    // A worktree prepared for a dialog that never started a session goes at quit.
    const probe = await g.w.call('workspace:probe', { path: repo, prepare: true });
    expect(probe).toMatchObject({ kind: 'repository', preparing: true });
    await g.h.host.shutdown();
    expect(linkedWorktrees(g.sb, repo)).toEqual([c.cwd]);
  });
});
