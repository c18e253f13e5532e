import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WsClient } from '../src/main/test-support/serve-process';
import { openApp, running, send, sidebar, transcript } from '../e2e/support/fixtures';
import { currentEntry, expect, pinned, QWEN_TURN, test } from './support/interop';

/**
 * Issue 19 with a real agent: Qwen Code's turn in a session with a git worktree of its own. The
 * file it writes is in the session's Changes and in its worktree, and not in the main checkout.
 */
test('a real Qwen Code turn in a worktree session: the file it writes shows in Changes and not in the main checkout', async ({ page, interop }) => {
  const repo = join(interop.home, 'project');
  mkdirSync(repo);
  const git = (...args: string[]): string =>
    execFileSync('git', ['-c', 'user.name=Interop', '-c', 'user.email=interop@example.com', ...args], { cwd: repo, env: { ...process.env, HOME: interop.home }, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'README.md'), '# project\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'first');

  // The window's New session dialog sends this when `Separate worktree` is checked.
  const client = await WsClient.connect(new URL(interop.serve.url));
  try {
    const view = await client.call('sessions:create', { agentId: pinned('qwen').id, cwd: repo, title: 'Qwen in a worktree', worktree: { branch: 'qwen-notes' } });
    expect(view.workspace).toMatchObject({ kind: 'worktree', branch: 'qwen-notes', baseBranch: 'main' });
    const worktree = view.cwd;
    expect(worktree).not.toBe(repo);
    interop.script.folder = worktree;

    await openApp(page, interop.serve.url);
    await sidebar(page).getByRole('link', { name: /Qwen in a worktree/ }).click();
    await expect(currentEntry(page)).toContainText('Idle');
    await send(page, `${QWEN_TURN.trigger} with a short note, please.`);
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(QWEN_TURN.file);
    await dialog.getByRole('button', { name: 'Allow', exact: true }).click();
    await expect(transcript(page)).toContainText(QWEN_TURN.finalText);
    await expect(running(page)).toHaveCount(0);

    expect(readFileSync(join(worktree, QWEN_TURN.file), 'utf8')).toBe(QWEN_TURN.content);
    expect(existsSync(join(repo, QWEN_TURN.file)), 'the main checkout is untouched').toBe(false);
    expect(git('status', '--porcelain')).toBe('');
    const changes = await client.call('changes:list', { sessionId: view.id });
    expect(changes.files.map((f) => ({ path: f.path, status: f.status }))).toEqual([{ path: QWEN_TURN.file, status: 'untracked' }]);
    await client.call('sessions:delete', { sessionId: view.id, deleteBranch: true, confirmUnmerged: true });
    expect(git('worktree', 'list', '--porcelain').match(/^worktree /gm), 'no worktree left behind').toHaveLength(1);
  } finally {
    client.close();
  }
});
