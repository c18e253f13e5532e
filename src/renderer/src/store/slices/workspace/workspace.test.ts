import { describe, expect, it } from 'vitest';
import type { ChangedFileT, ChangesListT, CommandResponse, Result, SessionViewT, WorkspaceViewT } from '../../../../../shared/contract';
import { deferred, ev, flush, SID, SID2, view } from '../../../test-support/fake-api';
import { boundStore, ok, showSession, type BoundStore } from '../../../test-support/store-fixtures';
import { workspaceSelectors } from './selectors';

const worktree: WorkspaceViewT = { kind: 'worktree', repository: '/repo', folder: '/repo', path: '/wt/a', branch: 'alpha', baseBranch: 'main', baseCommit: 'b'.repeat(40) };
const file = (path: string, over: Partial<ChangedFileT> = {}): ChangedFileT => ({ path, status: 'modified', untracked: false, binary: false, added: 1, removed: 0, ...over });
const list = (files: ChangedFileT[]): ChangesListT => ({ sessionId: SID, base: 'b'.repeat(40), files, truncated: false, total: files.length, at: 1 });

async function worktreeSession(over: Partial<SessionViewT> = {}): Promise<BoundStore> {
  const ctx = boundStore();
  await showSession(ctx);
  ctx.store.getState().upsertSession(view({ workspace: worktree, updatedAt: 2, ...over }));
  return ctx;
}

describe('Changes', () => {
  it('lists the files on opening, prefills the commit message from the last prompt, and lists again when the host says the files changed', async () => {
    const ctx = await worktreeSession();
    ctx.store.getState().receiveEvent(ev(1, 'user_message', { text: 'Fix the login form\nand its tests' }));
    let files = [file('a.ts')];
    ctx.fake.handle('changes:list', () => ok(list(files)));
    ctx.store.getState().openChanges(SID);
    expect(ctx.store.getState().changes).toMatchObject({ sessionId: SID, commitMessage: 'Fix the login form', loading: true });
    await flush();
    expect(ctx.store.getState().changes?.list?.files.map((f) => f.path)).toEqual(['a.ts']);
    files = [file('a.ts'), file('b.ts', { status: 'untracked', untracked: true })];
    ctx.fake.emit('workspace:changed', { sessionId: SID, at: 2 });
    await flush();
    expect(ctx.store.getState().changes?.list?.files.map((f) => f.path)).toEqual(['a.ts', 'b.ts']);
    // Another session's changes do not list this one again.
    ctx.fake.emit('workspace:changed', { sessionId: SID2, at: 3 });
    await flush();
    expect(ctx.fake.callsOf('changes:list')).toHaveLength(2);
  });

  it('prefills the commit message once a prompt is known, but never over what the person typed', async () => {
    const ctx = await worktreeSession();
    ctx.fake.handle('changes:list', () => ok(list([file('a.ts')])));
    ctx.store.getState().openChanges(SID);
    await flush();
    expect(ctx.store.getState().changes?.commitMessage).toBe('');
    ctx.store.getState().receiveEvent(ev(1, 'user_message', { text: 'Add a' }));
    ctx.fake.emit('workspace:changed', { sessionId: SID, at: 2 });
    await flush();
    expect(ctx.store.getState().changes?.commitMessage).toBe('Add a');
    ctx.store.getState().setCommitMessage('');
    ctx.fake.emit('workspace:changed', { sessionId: SID, at: 3 });
    await flush();
    expect(ctx.store.getState().changes?.commitMessage).toBe('');
  });

  it('runs one list at a time, and once more after it when the files changed meanwhile', async () => {
    const ctx = await worktreeSession();
    const first = deferred<Result<ChangesListT>>();
    const answers = [first.promise, Promise.resolve(ok(list([file('late.ts')])))];
    ctx.fake.handle('changes:list', () => answers.shift()!);
    ctx.store.getState().openChanges(SID);
    ctx.fake.emit('workspace:changed', { sessionId: SID, at: 2 });
    ctx.fake.emit('workspace:changed', { sessionId: SID, at: 3 });
    expect(ctx.fake.callsOf('changes:list')).toHaveLength(1);
    first.resolve(ok(list([file('early.ts')])));
    await flush();
    expect(ctx.fake.callsOf('changes:list')).toHaveLength(2);
    expect(ctx.store.getState().changes?.list?.files.map((f) => f.path)).toEqual(['late.ts']);
    expect(ctx.store.getState().changes?.loading).toBe(false);
  });

  it("shows the chosen file's diff, and only the answer for the file chosen last", async () => {
    const ctx = await worktreeSession();
    ctx.fake.handle('changes:list', () => ok(list([file('a.ts'), file('b.ts')])));
    const slow = deferred<Result<CommandResponse<'changes:diff'>>>();
    ctx.fake.handle('changes:diff', (req) => (req.path === 'a.ts' ? slow.promise : ok({ path: 'b.ts', binary: false, text: '+b', truncated: false })));
    ctx.store.getState().openChanges(SID);
    await flush();
    void ctx.store.getState().selectChange(file('a.ts'));
    expect(ctx.store.getState().changes?.diff).toEqual({ state: 'loading' });
    await ctx.store.getState().selectChange(file('b.ts'));
    slow.resolve(ok({ path: 'a.ts', binary: false, text: '+a', truncated: false }));
    await flush();
    expect(ctx.store.getState().changes?.diff).toEqual({ state: 'done', diff: { path: 'b.ts', binary: false, text: '+b', truncated: false } });
  });

  it('reverts a file only once confirmed, then lists again and drops the diff of that file', async () => {
    const ctx = await worktreeSession();
    let files = [file('a.ts')];
    ctx.fake
      .handle('changes:list', () => ok(list(files)))
      .handle('changes:diff', () => ok({ path: 'a.ts', binary: false, text: '+a', truncated: false }))
      .handle('changes:revert', () => {
        files = [];
        return ok({ undo: 'u1', removed: [], written: ['a.ts'], skipped: [] });
      });
    ctx.store.getState().openChanges(SID);
    await flush();
    await ctx.store.getState().selectChange(file('a.ts'));
    ctx.store.getState().askRevert('a.ts');
    expect(ctx.store.getState().confirm?.title).toBe('Revert a.ts?');
    ctx.store.getState().cancelConfirm();
    expect(ctx.fake.callsOf('changes:revert')).toEqual([]);
    ctx.store.getState().askRevert('a.ts');
    ctx.store.getState().acceptConfirm();
    await flush();
    expect(ctx.fake.callsOf('changes:revert')).toEqual([{ sessionId: SID, paths: ['a.ts'] }]);
    expect(ctx.store.getState().changes).toMatchObject({ done: 'Reverted 1 file.', selected: undefined, diff: undefined });
    expect(ctx.store.getState().changes?.list?.files).toEqual([]);
  });

  it('discards everything once confirmed', async () => {
    const ctx = await worktreeSession();
    ctx.fake
      .handle('changes:list', () => ok(list([file('a.ts'), file('b.ts')])))
      .handle('changes:discard', () => ok({ undo: 'u2', removed: ['b.ts'], written: ['a.ts'], skipped: [] }));
    ctx.store.getState().openChanges(SID);
    await flush();
    ctx.store.getState().askDiscardAll();
    expect(ctx.store.getState().confirm).toMatchObject({ title: 'Discard all changes?', confirmLabel: 'Discard all' });
    ctx.store.getState().acceptConfirm();
    await flush();
    expect(ctx.fake.callsOf('changes:discard')).toEqual([{ sessionId: SID }]);
    expect(ctx.store.getState().changes?.done).toBe('Discarded 2 files.');
  });

  it('commits with the message, then reads the status again', async () => {
    const ctx = await worktreeSession();
    ctx.fake
      .handle('changes:list', () => ok(list([file('a.ts')])))
      .handle('changes:commit', () => ok({ commit: 'c0ffee1234' }))
      .handle('workspace:status', () => ok({ sessionId: SID, branch: 'alpha', baseBranch: 'main', ahead: 1, behind: 0, dirty: false, uncommitted: 0, at: 5 }));
    ctx.store.getState().openChanges(SID);
    await flush();
    ctx.store.getState().setCommitMessage('Add a');
    expect(await ctx.store.getState().commitChanges()).toBe(true);
    await flush();
    expect(ctx.fake.callsOf('changes:commit')).toEqual([{ sessionId: SID, message: 'Add a' }]);
    expect(ctx.store.getState().changes?.done).toBe('Committed c0ffee1.');
    expect(workspaceSelectors.statusOf(ctx.store.getState(), SID)).toMatchObject({ ahead: 1, dirty: false });
  });

  it("reports a merge conflict naming the files, with git's own words", async () => {
    const ctx = await worktreeSession();
    ctx.fake.handle('changes:list', () => ok(list([]))).handle('workspace:merge', () => ({
      ok: false,
      error: {
        code: 'invalid_state',
        message: 'Merging alpha into main conflicts in 1 file; the merge was aborted and both checkouts are as they were.',
        details: { git: { problem: 'conflict', files: ['notes.txt'] }, stderrTail: ['CONFLICT (add/add): Merge conflict in notes.txt'] },
      },
    }));
    ctx.store.getState().openChanges(SID);
    ctx.store.getState().setMergeSquash(true);
    expect(await ctx.store.getState().mergeBranch(SID, true)).toBe(false);
    expect(ctx.fake.callsOf('workspace:merge')).toEqual([{ sessionId: SID, squash: true }]);
    expect(ctx.store.getState().changes?.failure).toEqual({
      op: 'merge',
      message: 'Merging alpha into main conflicts in 1 file; the merge was aborted and both checkouts are as they were.',
      problem: 'conflict',
      files: ['notes.txt'],
      words: ['CONFLICT (add/add): Merge conflict in notes.txt'],
    });
    expect(ctx.store.getState().changes?.busy).toBeUndefined();
  });

  it('rebases on the base and says whether the branch moved', async () => {
    const ctx = await worktreeSession();
    ctx.fake.handle('changes:list', () => ok(list([]))).handle('workspace:rebase', () => ok({ head: 'h', baseCommit: 'abcdef123', moved: false }));
    ctx.store.getState().openChanges(SID);
    expect(await ctx.store.getState().rebaseOnBase()).toBe(true);
    expect(ctx.store.getState().changes?.done).toBe('Already on the tip of the base.');
  });
});

describe('status, restore, compare, repositories, setup output', () => {
  it('keeps the newest status per session, pushed or read', async () => {
    const ctx = await worktreeSession();
    const st = { sessionId: SID, branch: 'alpha', baseBranch: 'main', ahead: 2, behind: 1, dirty: true, uncommitted: 3, at: 10 };
    ctx.fake.emit('workspace:status', st);
    ctx.fake.emit('workspace:status', { ...st, ahead: 0, at: 5 });
    expect(workspaceSelectors.statusOf(ctx.store.getState(), SID)).toEqual(st);
    expect(workspaceSelectors.aheadBehindText(st)).toBe('2 ahead, 1 behind');
  });

  it('restores a checkpoint only once confirmed, and says how many files came back', async () => {
    const ctx = await worktreeSession();
    ctx.fake.handle('checkpoints:restore', () => ok({ undo: 'u3', removed: ['new.txt'], written: ['a.ts'], skipped: [] }));
    ctx.store.getState().askRestoreCheckpoint(SID, 'cp-1');
    expect(ctx.store.getState().confirm?.title).toBe('Restore to before this turn?');
    expect(ctx.fake.callsOf('checkpoints:restore')).toEqual([]);
    ctx.store.getState().acceptConfirm();
    await flush();
    expect(ctx.fake.callsOf('checkpoints:restore')).toEqual([{ sessionId: SID, checkpointId: 'cp-1' }]);
    expect(ctx.store.getState().notices.map((n) => n.text)).toContain('Restored 2 files to before this turn.');
  });

  it('offers restore in a shared folder only while no other live session works there', async () => {
    const ctx = await worktreeSession({ workspace: { kind: 'shared', repository: '/repo', folder: '/repo' } });
    expect(workspaceSelectors.canRestore(ctx.store.getState(), SID)).toBe(true);
    ctx.store.getState().upsertSession(view({ id: SID2, state: 'ACTIVE', workspace: { kind: 'shared', repository: '/repo', folder: '/repo' } }));
    expect(workspaceSelectors.canRestore(ctx.store.getState(), SID)).toBe(false);
    ctx.store.getState().upsertSession(view({ id: SID2, state: 'ENDED', updatedAt: 9, workspace: { kind: 'shared', repository: '/repo', folder: '/repo' } }));
    expect(workspaceSelectors.canRestore(ctx.store.getState(), SID)).toBe(true);
  });

  it('compares a group, merges the sibling picked there, and compares again', async () => {
    const ctx = await worktreeSession({ groupId: 'g1' });
    const entry = (sessionId: string) => ({ sessionId, agentId: 'demo', title: 't', branch: `b-${sessionId.slice(0, 2)}`, files: [], truncated: false, filesChanged: 1, added: 1, removed: 0, ahead: 1, turnMs: 1200, turns: 1, running: false, cost: [] });
    ctx.fake
      .handle('workspace:compare', () => ok({ groupId: 'g1', sessions: [entry(SID), entry(SID2)] }))
      .handle('workspace:merge', () => ok({ commit: 'deadbeef99', baseCommit: 'deadbeef99' }))
      .handle('workspace:status', () => ({ ok: false, error: { code: 'internal', message: 'n/a' } }));
    ctx.store.getState().openCompare('g1');
    await flush();
    expect(ctx.store.getState().compare?.result?.sessions).toHaveLength(2);
    expect(await ctx.store.getState().mergeBranch(SID2, false)).toBe(true);
    await flush();
    expect(ctx.store.getState().compare?.done).toMatch(/^Merged .* into its base \(deadbee\)\.$/);
    expect(ctx.fake.callsOf('workspace:compare')).toHaveLength(2);
  });

  it('saves a repository setup command and keeps the list in step', async () => {
    const ctx = boundStore();
    ctx.fake
      .handle('repositories:list', () => ok([{ repository: '/repo', worktreeDefault: true }]))
      .handle('repositories:save', () => ok({ repository: '/repo', worktreeDefault: true, setupCommand: 'npm ci' }));
    await ctx.store.getState().loadRepositories();
    expect(await ctx.store.getState().saveRepository({ path: '/repo', setupCommand: 'npm ci' })).toBeUndefined();
    expect(ctx.store.getState().repositories.list).toEqual([{ repository: '/repo', worktreeDefault: true, setupCommand: 'npm ci' }]);
  });

  it('places setup output pieces by position, drops repeats, and reads the snapshot again after a gap', async () => {
    const ctx = boundStore();
    ctx.fake.handle('setup:read', () => ok({ command: 'npm ci', text: 'abcdefgh', end: 8, truncated: false, running: true }));
    ctx.fake.emit('setup:output', { sessionId: SID, start: 0, text: 'abc' });
    ctx.fake.emit('setup:output', { sessionId: SID, start: 0, text: 'abc' });
    ctx.fake.emit('setup:output', { sessionId: SID, start: 2, text: 'cde' });
    expect(ctx.store.getState().setupOutput.get(SID)?.text).toBe('abcde');
    ctx.fake.emit('setup:output', { sessionId: SID, start: 7, text: 'h' });
    await flush();
    expect(ctx.store.getState().setupOutput.get(SID)).toMatchObject({ text: 'abcdefgh', end: 8, command: 'npm ci' });
  });
});

describe('archive and delete of a worktree session', () => {
  it('archives only after confirming, keeping the worktree folder when asked', async () => {
    const ctx = await worktreeSession();
    ctx.fake.handle('sessions:archive', () => ok(view({ archivedAt: 10, updatedAt: 99, workspace: worktree })));
    await ctx.store.getState().archiveSession(SID);
    expect(ctx.fake.callsOf('sessions:archive')).toEqual([]);
    expect(ctx.store.getState().confirm?.options).toEqual([{ id: 'keepWorktree', label: 'Keep the worktree folder', checked: false }]);
    ctx.store.getState().setConfirmOption('keepWorktree', true);
    ctx.store.getState().acceptConfirm();
    await flush();
    expect(ctx.fake.callsOf('sessions:archive')).toEqual([{ sessionId: SID, keepWorktree: true }]);
  });

  it('asks a second time before deleting a branch with unmerged work, naming what would be lost', async () => {
    const ctx = await worktreeSession();
    ctx.fake.handle('sessions:delete', (req) =>
      req.confirmUnmerged
        ? ok({ ok: true as const })
        : { ok: false, error: { code: 'invalid_state', message: 'unmerged', details: { git: { problem: 'unmerged', unmergedCommits: 2, uncommittedFiles: 1 } } } },
    );
    await ctx.store.getState().deleteSession(SID, { deleteBranch: true });
    expect(ctx.store.getState().sessionsById.has(SID)).toBe(true);
    expect(ctx.store.getState().confirm?.text).toBe('alpha has 2 commits not in its base and 1 uncommitted file. Deleting the branch loses it for good.');
    ctx.store.getState().acceptConfirm();
    await flush();
    expect(ctx.fake.callsOf('sessions:delete')).toEqual([
      { sessionId: SID, deleteBranch: true },
      { sessionId: SID, deleteBranch: true, confirmUnmerged: true },
    ]);
    expect(ctx.store.getState().sessionsById.has(SID)).toBe(false);
  });
});
