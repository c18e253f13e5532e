/**
 * Several agents, one task (issue 19): `alsoRunOn` makes sibling sessions, each in its own
 * worktree on a branch named for its agent; the first prompt sent to any of them goes to each;
 * `workspace:compare` lists their changes, lines, turn time and cost side by side; `Merge` on the
 * one picked works as for any worktree session.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { demoAgent } from '../catalogue/demo-agent';
import { dataPaths } from '../datadir/paths';
import { linkedWorktrees, readText, startGitHost, type GitHost } from '../test-support/git-host';
import { tempDir } from '../test-support/temp-dir';

let g: GitHost;
let repo: string;
const demoData = tempDir();
beforeEach(async () => {
  const demo = demoAgent(dataPaths(demoData.path).demoAgent);
  g = await startGitHost({ agents: [{ ...demo, id: 'claude-ish', name: 'Claude-ish' }, { ...demo, id: 'gemini-ish', name: 'Gemini-ish' }] });
  repo = g.sb.repo('task', { 'README.md': 'task\n' });
});
afterEach(async () => {
  await g?.cleanup();
});
afterAll(() => demoData.cleanup());

describe('alsoRunOn', () => {
  it('starts three siblings in their own worktrees, sends the first prompt to each, and compares them', async () => {
    const first = await g.w.call('sessions:create', { cwd: repo, agentId: 'demo', worktree: { branch: 'fix' }, alsoRunOn: ['claude-ish', 'gemini-ish'] });
    expect(first.groupId).toBeDefined();
    const group = (await g.w.call('sessions:list', {})).filter((s) => s.groupId === first.groupId);
    expect(group.map((s) => [s.agentId, s.workspace?.branch]).sort()).toEqual([
      ['claude-ish', 'fix-claude-ish'],
      ['demo', 'fix-demo'],
      ['gemini-ish', 'fix-gemini-ish'],
    ]);
    expect(new Set(group.map((s) => s.cwd)).size).toBe(3);
    expect(linkedWorktrees(g.sb, repo).sort()).toEqual(group.map((s) => s.cwd).sort());
    for (const s of group) await g.w.call('sessions:switch', { sessionId: s.id });

    // One prompt, to the session the person is looking at; every sibling runs it in its own worktree.
    const prompt = randomUUID();
    await g.w.call('prompt:send', { sessionId: first.id, clientMessageId: prompt, text: '/write answer.txt forty-two' });
    await g.w.until(() => group.every((s) => g.h.stored(s.id).some((e) => e.kind === 'turn_ended')), 'every sibling to answer');
    for (const s of group) {
      expect(readText(s.cwd, 'answer.txt')).toBe('forty-two');
      expect(g.h.stored(s.id).filter((e) => e.kind === 'user_message').map((e) => e.kind === 'user_message' && e.payload.text)).toEqual(['/write answer.txt forty-two']);
    }
    // The second prompt goes only where it is sent.
    const sibling = group.find((s) => s.id !== first.id)!;
    await g.w.prompt(sibling.id, '/write answer.txt only here\nsecond line');
    expect(g.h.stored(first.id).filter((e) => e.kind === 'user_message')).toHaveLength(1);
    // A retried send of the first prompt runs nowhere twice.
    expect(await g.w.call('prompt:send', { sessionId: first.id, clientMessageId: prompt, text: '/write answer.txt forty-two' })).toEqual({ accepted: true, duplicate: true });

    const compared = await g.w.call('workspace:compare', { groupId: first.groupId! });
    expect(compared.sessions.map((e) => e.sessionId).sort()).toEqual(group.map((s) => s.id).sort());
    for (const e of compared.sessions) {
      const lines = e.sessionId === sibling.id ? 2 : 1;
      expect(e).toMatchObject({ filesChanged: 1, added: lines, removed: 0, ahead: 0, turns: e.sessionId === sibling.id ? 2 : 1, running: false, cost: [] });
      expect(e.files).toEqual([{ path: 'answer.txt', status: 'untracked', untracked: true, binary: false, added: lines, removed: 0 }]);
      expect(e.turnMs).toBeGreaterThan(0);
    }

    // Merge the one the person picks.
    await g.w.call('changes:commit', { sessionId: sibling.id, message: 'Answer' });
    await g.w.call('workspace:merge', { sessionId: sibling.id, squash: true });
    expect(readText(repo, 'answer.txt')).toBe('only here\nsecond line');
  });

  it('refuses alsoRunOn without a worktree, and an agent that does not exist, making nothing', async () => {
    await expect(g.w.call('sessions:create', { cwd: repo, alsoRunOn: ['claude-ish'] })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(g.w.call('sessions:create', { cwd: repo, worktree: { branch: 'x' }, alsoRunOn: ['nobody'] })).rejects.toMatchObject({ code: 'not_found' });
    expect(linkedWorktrees(g.sb, repo)).toEqual([]);
    expect(await g.w.call('sessions:list', {})).toEqual([]);
  });
});
