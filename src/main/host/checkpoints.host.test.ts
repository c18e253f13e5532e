/**
 * Checkpoints through the host (issue 19, ADR 0023): each turn's files are recorded before the
 * agent's first write of that turn, even though the prompt goes out while the checkpoint is
 * still being taken; `Restore to before this turn` and its undo; a shared folder is restored only
 * while no other live session works in it; nothing is restored under a running turn.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionEventT } from '../../shared/contract';
import { agentWrites, checkpointed, openSession, readText, startGitHost, type GitHost } from '../test-support/git-host';

let g: GitHost;
let repo: string;
beforeEach(async () => {
  g = await startGitHost();
  // Big enough that a checkpoint takes longer than the demo agent takes to write: without the
  // hold on its writes, a turn's checkpoint would catch that turn's own write.
  const files: Record<string, string> = { 'notes.txt': 'original\n' };
  for (let i = 0; i < 3_000; i++) files[`src/m${i % 30}/f${i}.ts`] = `export const v${i} = ${i};\n`;
  repo = g.sb.repo('big', files);
});
afterEach(async () => {
  await g?.cleanup();
});

const checkpoints = (events: SessionEventT[]) => events.filter((e): e is Extract<SessionEventT, { kind: 'checkpoint' }> => e.kind === 'checkpoint');

describe('a checkpoint before each turn', () => {
  it('holds the files as they were before the turn, not the turn\'s own first write, and restores them undoably', async () => {
    const s = await openSession(g.w, { cwd: repo, worktree: { branch: 'cp' } });
    const first = randomUUID();
    const second = randomUUID();
    await g.w.call('prompt:send', { sessionId: s.id, clientMessageId: first, text: '/write notes.txt turn one' });
    await g.w.waitAnswered(s.id, first);
    await g.w.call('prompt:send', { sessionId: s.id, clientMessageId: second, text: '/write notes.txt turn two' });
    await g.w.waitAnswered(s.id, second);
    await checkpointed(g.w, s.id, second);
    expect(readText(s.cwd, 'notes.txt')).toBe('turn two');

    const taken = checkpoints(g.h.stored(s.id));
    expect(taken.map((e) => [e.payload.clientMessageId, e.payload.reason])).toEqual([
      [first, 'turn'],
      [second, 'turn'],
    ]);
    // The files of each checkpoint are those before its turn.
    expect(g.sb.sh(repo, 'show', `${taken[0]!.payload.commit}:notes.txt`)).toBe('original\n');
    expect(g.sb.sh(repo, 'show', `${taken[1]!.payload.commit}:notes.txt`)).toBe('turn one');
    expect(g.sb.sh(repo, 'show-ref', '--verify', `refs/switchboard/${s.id}/${second}`).trim()).toMatch(new RegExp(`^${taken[1]!.payload.commit} `));

    // Restore to before the second turn, then undo that restore.
    const restored = await g.w.call('checkpoints:restore', { sessionId: s.id, checkpointId: second });
    expect(restored.written).toEqual(['notes.txt']);
    expect(readText(s.cwd, 'notes.txt')).toBe('turn one');
    const notice = g.h.stored(s.id).find((e) => e.kind === 'files_restored');
    expect(notice?.kind === 'files_restored' && notice.payload).toMatchObject({ action: 'restore', checkpointId: second, undo: restored.undo, paths: ['notes.txt'] });
    await g.w.call('checkpoints:restore', { sessionId: s.id, checkpointId: restored.undo });
    expect(readText(s.cwd, 'notes.txt')).toBe('turn two');
    // The person's checkout never moved.
    expect(readText(repo, 'notes.txt')).toBe('original\n');
    expect(g.sb.sh(repo, 'status', '--porcelain')).toBe('');
  });

  it('refuses to restore while a turn runs in the session, and an unknown checkpoint', async () => {
    const s = await openSession(g.w, { cwd: repo, worktree: { branch: 'busy' } });
    const first = randomUUID();
    await g.w.call('prompt:send', { sessionId: s.id, clientMessageId: first, text: 'hello' });
    await g.w.waitAnswered(s.id, first);
    await checkpointed(g.w, s.id, first);
    const hanging = randomUUID();
    await g.w.call('prompt:send', { sessionId: s.id, clientMessageId: hanging, text: '/hang' });
    await g.w.waitForRunning(s.id, true);
    await expect(g.w.call('checkpoints:restore', { sessionId: s.id, checkpointId: first })).rejects.toMatchObject({ code: 'invalid_state', message: expect.stringMatching(/stop the turn first/) });
    await g.w.call('prompt:cancel', { sessionId: s.id });
    await g.w.waitAnswered(s.id, hanging);
    await expect(g.w.call('checkpoints:restore', { sessionId: s.id, checkpointId: 'nope' })).rejects.toMatchObject({ code: 'not_found' });
    await g.w.call('checkpoints:restore', { sessionId: s.id, checkpointId: first });
  });
});

describe('a shared folder', () => {
  it('is restored only while no other live session works in it', async () => {
    const a = await openSession(g.w, { cwd: repo });
    const b = await openSession(g.w, { cwd: join(repo, 'src') });
    expect(a.workspace?.kind).toBe('shared');
    expect(b.workspace).toMatchObject({ kind: 'shared', repository: repo });
    const turn = randomUUID();
    await g.w.call('prompt:send', { sessionId: a.id, clientMessageId: turn, text: '/write notes.txt by a' });
    await g.w.waitAnswered(a.id, turn);
    await checkpointed(g.w, a.id, turn);
    expect(readText(repo, 'notes.txt')).toBe('by a');
    await expect(g.w.call('checkpoints:restore', { sessionId: a.id, checkpointId: turn })).rejects.toMatchObject({
      code: 'invalid_state',
      message: expect.stringMatching(/1 other live session works in/),
    });
    expect(readText(repo, 'notes.txt')).toBe('by a');
    await g.w.call('sessions:close', { sessionId: b.id });
    await g.w.call('checkpoints:restore', { sessionId: a.id, checkpointId: turn });
    expect(readText(repo, 'notes.txt')).toBe('original\n');
    // The person's index was never written: only the file changed back.
    expect(g.sb.sh(repo, 'status', '--porcelain')).toBe('');
  });
});

describe('the person\'s own git state', () => {
  it('is untouched by a turn\'s checkpoint in a shared folder: index, stash, branch and HEAD stay, and the checkpoint holds the uncommitted files', async () => {
    const sh = (...args: string[]): string => g.sb.sh(repo, ...args);
    g.sb.write(repo, { 'staged.txt': 'staged\n', 'notes.txt': 'to stash\n' });
    sh('add', 'staged.txt');
    sh('stash', 'push', '-q', '-m', 'mine', '--', 'notes.txt');
    g.sb.write(repo, { 'src/m0/f0.ts': 'edited, not staged\n', 'loose.txt': 'untracked\n' });
    const seen = () => ({
      head: sh('rev-parse', 'HEAD'),
      branch: sh('symbolic-ref', 'HEAD'),
      stash: sh('stash', 'list'),
      staged: sh('diff', '--cached', '--name-status'),
      unstaged: sh('diff', '--name-status'),
    });
    const before = seen();
    const s = await openSession(g.w, { cwd: repo });
    const turn = randomUUID();
    await g.w.call('prompt:send', { sessionId: s.id, clientMessageId: turn, text: '/write other.txt by the agent' });
    await g.w.waitAnswered(s.id, turn);
    await checkpointed(g.w, s.id, turn);
    expect(seen()).toEqual(before);
    const commit = checkpoints(g.h.stored(s.id))[0]!.payload.commit;
    expect(sh('show', `${commit}:staged.txt`)).toBe('staged\n');
    expect(sh('show', `${commit}:src/m0/f0.ts`)).toBe('edited, not staged\n');
    expect(sh('show', `${commit}:loose.txt`)).toBe('untracked\n');
    expect(() => sh('show', `${commit}:other.txt`)).toThrow();
  });
});

describe('a folder outside any repository', () => {
  it('takes no checkpoints and its turns run as before', async () => {
    const plain = join(g.sb.root, 'plain');
    g.sb.write(plain, { 'a.txt': 'a' });
    const s = await openSession(g.w, { cwd: plain });
    await agentWrites(g.w, s.id, 'a.txt', 'b');
    expect(checkpoints(g.h.stored(s.id))).toEqual([]);
    await expect(g.w.call('checkpoints:restore', { sessionId: s.id, checkpointId: 'x' })).rejects.toMatchObject({ code: 'invalid_state', message: expect.stringMatching(/not in a git repository/) });
  });
});
