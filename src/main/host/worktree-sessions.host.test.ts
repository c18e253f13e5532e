/**
 * Issue 19 through the host, with real repositories in temp folders and the real demo agent
 * (its `/write PATH TEXT` writes through `fs/write_text_file`): a worktree per session, Changes,
 * commit, merge (squash, conflicts), rebase, revert and discard, the setup command, folders that
 * are not repositories, an unchecked box, and git missing.
 */
import { chmodSync, existsSync, realpathSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionViewT } from '../../shared/contract';
import { snapshotCheckout } from '../test-support/git-repos';
import { tempDir } from '../test-support/temp-dir';
import { agentWrites, linkedWorktrees, openSession, readText, startGitHost, type GitHost } from '../test-support/git-host';

let g: GitHost;
let repo: string;
beforeEach(async () => {
  g = await startGitHost();
  repo = g.sb.repo('shop', { 'README.md': 'shop\n', 'src/cart.ts': 'export const total = 0;\n' });
});
afterEach(async () => {
  await g?.cleanup();
});

/** What a person sees of a checkout: HEAD, status, stash, files, and the index's entries (its stat cache may be refreshed). */
function seen(dir: string) {
  const { head, status, stash, files } = snapshotCheckout(g.sb, dir);
  return { head, status, stash, files, staged: g.sb.sh(dir, 'ls-files', '-s') };
}

async function failure(p: Promise<unknown>): Promise<Error & { code: string }> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, 'expected the command to fail').toBeInstanceOf(Error);
  return err as Error & { code: string };
}

describe('a worktree per session', () => {
  it('two sessions in one repository write the same file differently, each keeps its own, and the main checkout is untouched until Merge', async () => {
    const before = snapshotCheckout(g.sb, repo);
    const a = await openSession(g.w, { cwd: repo, worktree: { branch: 'cart-bigint' } });
    const b = await openSession(g.w, { cwd: repo, worktree: { branch: 'cart-float' } });
    expect(a.workspace).toMatchObject({ kind: 'worktree', repository: repo, folder: repo, branch: 'cart-bigint', baseBranch: 'main' });
    expect(a.cwd).toBe(a.workspace?.path);
    expect(a.cwd).not.toBe(b.cwd);
    expect(a.cwd.startsWith(join(g.h.dataDir, 'worktrees'))).toBe(true);
    expect(linkedWorktrees(g.sb, repo).sort()).toEqual([a.cwd, b.cwd].sort());

    // Both at once: the same file, different content.
    await Promise.all([agentWrites(g.w, a.id, 'src/cart.ts', 'export const total = 0n;'), agentWrites(g.w, b.id, 'src/cart.ts', 'export const total = 0.0;')]);
    expect(readText(a.cwd, 'src/cart.ts')).toBe('export const total = 0n;');
    expect(readText(b.cwd, 'src/cart.ts')).toBe('export const total = 0.0;');
    expect(snapshotCheckout(g.sb, repo)).toEqual(before);

    const changes = await g.w.call('changes:list', { sessionId: a.id });
    expect(changes.files).toEqual([{ path: 'src/cart.ts', status: 'modified', untracked: false, binary: false, added: 1, removed: 1 }]);
    const diff = await g.w.call('changes:diff', { sessionId: a.id, path: 'src/cart.ts' });
    expect(diff.text).toContain('+export const total = 0n;');

    await g.w.call('changes:commit', { sessionId: a.id, message: 'Use bigint for the total' });
    expect(snapshotCheckout(g.sb, repo)).toEqual(before);
    const merged = await g.w.call('workspace:merge', { sessionId: a.id });
    expect(readText(repo, 'src/cart.ts')).toBe('export const total = 0n;');
    expect(g.sb.sh(repo, 'rev-parse', 'HEAD').trim()).toBe(merged.commit);
    expect(g.sb.sh(repo, 'log', '-1', '--format=%s').trim()).toBe("Merge branch 'cart-bigint'");
    expect(g.sb.sh(repo, 'status', '--porcelain')).toBe('');
    // The session's base moved to the merge: nothing is left to review.
    const view = (await g.w.call('sessions:list', {})).find((s) => s.id === a.id)!;
    expect(view.workspace?.baseCommit).toBe(merged.commit);
    expect((await g.w.call('changes:list', { sessionId: a.id })).files).toEqual([]);
    // The other session's worktree kept its own content throughout.
    expect(readText(b.cwd, 'src/cart.ts')).toBe('export const total = 0.0;');
  });

  it('does not offer Fork for a session in its own worktree, and refuses one asked for, making nothing', async () => {
    const a = await openSession(g.w, { cwd: repo, worktree: { branch: 'fork-me' } });
    await agentWrites(g.w, a.id, 'src/cart.ts', 'export const total = 1;');
    const view = (await g.w.call('sessions:list', {})).find((s) => s.id === a.id)!;
    expect(view.canFork).toBeUndefined();
    const before = (await g.w.call('sessions:list', {})).length;
    const err = await failure(g.w.call('sessions:fork', { sessionId: a.id }));
    expect(err.code).toBe('unsupported');
    expect(err.message).toMatch(/own worktree/);
    expect((await g.w.call('sessions:list', {})).length).toBe(before);
    expect(linkedWorktrees(g.sb, repo)).toEqual([a.cwd]);
  });

  it('a conflicting merge is reported as a conflict naming the file, and both checkouts are left exactly as they were', async () => {
    const a = await openSession(g.w, { cwd: repo, worktree: { branch: 'a' } });
    const b = await openSession(g.w, { cwd: repo, worktree: { branch: 'b' } });
    await agentWrites(g.w, a.id, 'src/cart.ts', 'A');
    await agentWrites(g.w, b.id, 'src/cart.ts', 'B');
    await g.w.call('changes:commit', { sessionId: a.id, message: 'A' });
    await g.w.call('changes:commit', { sessionId: b.id, message: 'B' });
    await g.w.call('workspace:merge', { sessionId: a.id });
    const main = seen(repo);
    const worktree = seen(b.cwd);
    const err = await failure(g.w.call('workspace:merge', { sessionId: b.id }));
    expect(err.code).toBe('invalid_state');
    expect(err.message).toMatch(/conflicts in "src\/cart\.ts"/);
    expect(seen(repo)).toEqual(main);
    expect(seen(b.cwd)).toEqual(worktree);
  });

  it('carries git\'s kind of failure and the files in the error details', async () => {
    const a = await openSession(g.w, { cwd: repo, worktree: { branch: 'a' } });
    const b = await openSession(g.w, { cwd: repo, worktree: { branch: 'b' } });
    await agentWrites(g.w, a.id, 'README.md', 'A');
    await agentWrites(g.w, b.id, 'README.md', 'B');
    await g.w.call('changes:commit', { sessionId: a.id, message: 'A' });
    await g.w.call('changes:commit', { sessionId: b.id, message: 'B' });
    await g.w.call('workspace:merge', { sessionId: a.id });
    const result = await g.h.host.dispatch(g.w.id, 'workspace:merge', { sessionId: b.id });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.details?.git).toEqual({ problem: 'conflict', files: ['README.md'] });
    expect(result.error.details?.stderrTail?.join('\n')).toMatch(/CONFLICT/);
  });

  it('a commit the repository\'s pre-commit hook refuses fails in the hook\'s words, committing nothing', async () => {
    const hook = join(repo, '.git', 'hooks', 'pre-commit');
    writeFileSync(hook, '#!/bin/sh\necho "lint: cart.ts has a TODO" >&2\nexit 1\n');
    chmodSync(hook, 0o755);
    const a = await openSession(g.w, { cwd: repo, worktree: { branch: 'hooked' } });
    await agentWrites(g.w, a.id, 'src/cart.ts', 'TODO');
    const head = g.sb.sh(a.cwd, 'rev-parse', 'HEAD');
    const err = await failure(g.w.call('changes:commit', { sessionId: a.id, message: 'cart' }));
    expect(err.message).toMatch(/lint: cart\.ts has a TODO/);
    expect(g.sb.sh(a.cwd, 'rev-parse', 'HEAD')).toBe(head);
    expect(readText(a.cwd, 'src/cart.ts')).toBe('TODO');
  });

  it('squashes the branch into one commit on the base', async () => {
    const a = await openSession(g.w, { cwd: repo, worktree: { branch: 'squashy' } });
    await agentWrites(g.w, a.id, 'one.txt', 'one');
    await g.w.call('changes:commit', { sessionId: a.id, message: 'one' });
    await agentWrites(g.w, a.id, 'two.txt', 'two');
    await g.w.call('changes:commit', { sessionId: a.id, message: 'two' });
    const head = g.sb.sh(repo, 'rev-parse', 'HEAD').trim();
    const merged = await g.w.call('workspace:merge', { sessionId: a.id, squash: true, message: 'Both files' });
    expect(g.sb.sh(repo, 'rev-list', '--parents', '-1', 'HEAD').trim()).toBe(`${merged.commit} ${head}`);
    expect(g.sb.sh(repo, 'log', '-1', '--format=%s').trim()).toBe('Both files');
    expect(readText(repo, 'two.txt')).toBe('two');
  });

  it('refuses a merge while the main checkout has uncommitted changes, changing nothing', async () => {
    const a = await openSession(g.w, { cwd: repo, worktree: { branch: 'x' } });
    await agentWrites(g.w, a.id, 'x.txt', 'x');
    await g.w.call('changes:commit', { sessionId: a.id, message: 'x' });
    writeFileSync(join(repo, 'README.md'), 'edited by the person\n');
    const before = snapshotCheckout(g.sb, repo);
    const err = await failure(g.w.call('workspace:merge', { sessionId: a.id }));
    expect(err.message).toMatch(/uncommitted changes/);
    expect(snapshotCheckout(g.sb, repo)).toEqual(before);
  });

  it('rebases the branch on the base tip and moves the session\'s base', async () => {
    const a = await openSession(g.w, { cwd: repo, worktree: { branch: 'feature' } });
    await agentWrites(g.w, a.id, 'feature.txt', 'f');
    await g.w.call('changes:commit', { sessionId: a.id, message: 'feature' });
    g.sb.write(repo, { 'upstream.txt': 'u\n' });
    g.sb.sh(repo, 'add', '-A');
    g.sb.sh(repo, 'commit', '-q', '-m', 'upstream');
    const tip = g.sb.sh(repo, 'rev-parse', 'HEAD').trim();
    expect(await g.w.call('workspace:status', { sessionId: a.id })).toMatchObject({ ahead: 1, behind: 1, dirty: false, branch: 'feature', baseBranch: 'main' });
    const rebased = await g.w.call('workspace:rebase', { sessionId: a.id });
    expect(rebased).toMatchObject({ baseCommit: tip, moved: true });
    expect(readText(a.cwd, 'upstream.txt')).toBe('u\n');
    expect(await g.w.call('workspace:status', { sessionId: a.id })).toMatchObject({ ahead: 1, behind: 0 });
    expect((await g.w.call('changes:list', { sessionId: a.id })).files.map((f) => f.path)).toEqual(['feature.txt']);
  });

  it('reverts one file and discards all, each undoable', async () => {
    const a = await openSession(g.w, { cwd: repo, worktree: { branch: 'undo' } });
    await agentWrites(g.w, a.id, 'README.md', 'changed');
    await agentWrites(g.w, a.id, 'new.txt', 'new');
    const reverted = await g.w.call('changes:revert', { sessionId: a.id, paths: ['README.md'] });
    expect(reverted.written).toEqual(['README.md']);
    expect(readText(a.cwd, 'README.md')).toBe('shop\n');
    expect(readText(a.cwd, 'new.txt')).toBe('new');
    const discarded = await g.w.call('changes:discard', { sessionId: a.id });
    expect(discarded.removed).toEqual(['new.txt']);
    expect(existsSync(join(a.cwd, 'new.txt'))).toBe(false);
    // Undo the discard: new.txt is back.
    await g.w.call('checkpoints:restore', { sessionId: a.id, checkpointId: discarded.undo });
    expect(readText(a.cwd, 'new.txt')).toBe('new');
    // Each was recorded in the transcript with its undo.
    const recorded = g.h.stored(a.id).filter((e) => e.kind === 'files_restored').map((e) => (e.kind === 'files_restored' ? [e.payload.action, e.payload.undo] : []));
    expect(recorded).toEqual([
      ['revert', reverted.undo],
      ['discard', discarded.undo],
      ['restore', expect.stringMatching(/^undo-/)],
    ]);
  });

  it('pushes the header status to the window watching as the agent writes', async () => {
    const a = await openSession(g.w, { cwd: repo, worktree: { branch: 'status' } });
    const mark = g.w.mark();
    await agentWrites(g.w, a.id, 'x.txt', 'x');
    const status = await g.w.waitFor('workspace:status', (s) => s.sessionId === a.id && s.dirty, 15_000, mark);
    expect(status).toMatchObject({ branch: 'status', baseBranch: 'main', ahead: 0, behind: 0, uncommitted: 1 });
    await g.w.waitFor('workspace:changed', (c) => c.sessionId === a.id, 15_000, mark);
  });
});

describe('the New session dialog', () => {
  it('makes the worktree under the worktree folder setting when one is set', async () => {
    const root = tempDir('switchboard-worktree-root-');
    try {
      await g.w.call('settings:update', { worktreeRoot: root.path });
      const a = await openSession(g.w, { cwd: repo, worktree: { branch: 'elsewhere' } });
      expect(a.cwd.startsWith(realpathSync(root.path) + sep)).toBe(true);
      expect(linkedWorktrees(g.sb, repo)).toEqual([a.cwd]);
      await g.w.call('sessions:delete', { sessionId: a.id });
      expect(linkedWorktrees(g.sb, repo)).toEqual([]);
    } finally {
      root.cleanup();
    }
  });

  it('probes a folder: repository, branch, a free suggested branch, the remembered box, the setup command', async () => {
    const id = '0f1e2d3c-0000-4000-8000-000000000000';
    expect(await g.w.call('workspace:probe', { path: join(repo, 'src'), sessionId: id })).toEqual({
      kind: 'repository',
      topLevel: repo,
      branch: 'main',
      head: g.sb.sh(repo, 'rev-parse', 'HEAD').trim(),
      worktree: { ok: true },
      suggestedBranch: 'session-0f1e2d3c',
      worktreeDefault: true,
      preparing: false,
    });
    expect(await g.w.call('workspace:probe', { path: repo, title: 'Fix the Ümlaut bug!' })).toMatchObject({ suggestedBranch: 'fix-the-umlaut-bug' });
    expect(await g.w.call('workspace:probe', { path: g.sb.root })).toEqual({ kind: 'not_repository' });
    expect(await g.w.call('workspace:probe', { path: '/no/such/folder' })).toEqual({ kind: 'not_repository' });
    // The box's last choice is remembered per repository, and so is the setup command.
    await openSession(g.w, { cwd: repo });
    await g.w.call('repositories:save', { path: repo, setupCommand: 'npm ci' });
    expect(await g.w.call('workspace:probe', { path: repo })).toMatchObject({ worktreeDefault: false, setupCommand: 'npm ci' });
    expect(await g.w.call('repositories:list', {})).toEqual([{ repository: repo, worktreeDefault: false, setupCommand: 'npm ci' }]);
  });

  it('says why no worktree can be made from a detached HEAD', async () => {
    g.sb.sh(repo, 'checkout', '-q', '--detach');
    expect(await g.w.call('workspace:probe', { path: repo })).toMatchObject({ kind: 'repository', worktree: { ok: false, problem: 'detached_head', message: expect.stringMatching(/detached/) } });
  });

  it('checks a branch name as typed', async () => {
    g.sb.sh(repo, 'branch', 'taken');
    expect(await g.w.call('branches:check', { path: repo, name: 'fine/name' })).toEqual({ ok: true, name: 'fine/name' });
    expect(await g.w.call('branches:check', { path: repo, name: 'bad..name' })).toMatchObject({ ok: false, problem: 'invalid' });
    expect(await g.w.call('branches:check', { path: repo, name: 'taken' })).toMatchObject({ ok: false, problem: 'taken' });
    await expect(g.w.call('sessions:create', { cwd: repo, worktree: { branch: 'taken' } })).rejects.toMatchObject({ code: 'already_exists' });
  });

  it('claims the worktree prepared while the dialog was open, even after HEAD moved', async () => {
    expect(await g.w.call('workspace:probe', { path: repo, prepare: true })).toMatchObject({ preparing: true });
    g.sb.write(repo, { 'later.txt': 'later\n' });
    g.sb.sh(repo, 'add', '-A');
    g.sb.sh(repo, 'commit', '-q', '-m', 'later');
    const s = await openSession(g.w, { cwd: repo, worktree: { branch: 'claimed' } });
    expect(linkedWorktrees(g.sb, repo)).toEqual([s.cwd]);
    expect(s.workspace?.baseCommit).toBe(g.sb.sh(repo, 'rev-parse', 'HEAD').trim());
    expect(readText(s.cwd, 'later.txt')).toBe('later\n');
    expect(g.sb.sh(s.cwd, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('claimed');
  });

  it('works in the same sub-folder of the worktree as the folder chosen, and remembers the chosen folder as recent', async () => {
    const s = await openSession(g.w, { cwd: join(repo, 'src'), worktree: { branch: 'sub' } });
    expect(s.cwd).toBe(join(s.workspace!.path!, 'src'));
    expect(s.workspace?.folder).toBe(join(repo, 'src'));
    expect((await g.w.call('folders:recent', {})).folders[0]).toBe(join(repo, 'src'));
  });
});

describe('folders as today', () => {
  it('a folder outside any repository works as before: its own cwd, no workspace, no checkpoints', async () => {
    const plain = join(g.sb.root, 'plain');
    g.sb.write(plain, { 'a.txt': 'a' });
    const s = await openSession(g.w, { cwd: plain });
    expect(s.cwd).toBe(plain);
    expect(s.workspace).toBeUndefined();
    await agentWrites(g.w, s.id, 'a.txt', 'b');
    expect(readText(plain, 'a.txt')).toBe('b');
    expect(g.h.stored(s.id).some((e) => e.kind === 'checkpoint')).toBe(false);
    const err = await failure(g.w.call('changes:list', { sessionId: s.id }));
    expect(err.code).toBe('invalid_state');
  });

  it('an unchecked box works in the repository folder itself (shared), checkpointed, with no worktree made', async () => {
    const s = await openSession(g.w, { cwd: repo });
    expect(s.cwd).toBe(repo);
    expect(s.workspace).toMatchObject({ kind: 'shared', repository: repo, baseBranch: 'main' });
    expect(s.workspace?.path).toBeUndefined();
    await agentWrites(g.w, s.id, 'README.md', 'shared');
    expect(readText(repo, 'README.md')).toBe('shared');
    expect(linkedWorktrees(g.sb, repo)).toEqual([]);
    expect(g.h.stored(s.id).some((e) => e.kind === 'checkpoint')).toBe(true);
    // The person's index and branch were not touched by the checkpoint.
    expect(g.sb.sh(repo, 'status', '--porcelain')).toBe(' M README.md\n');
    expect((await g.w.call('changes:list', { sessionId: s.id })).files.map((f) => f.path)).toEqual(['README.md']);
  });

  it('refuses a worktree for a folder outside any repository, storing nothing', async () => {
    const plain = join(g.sb.root, 'plain2');
    g.sb.write(plain, { 'a.txt': 'a' });
    const err = await failure(g.w.call('sessions:create', { cwd: plain, worktree: { branch: 'x' } }));
    expect(err.code).toBe('invalid_request');
    expect(await g.w.call('sessions:list', {})).toEqual([]);
  });
});

describe('the setup command', () => {
  async function withSetup(command: string): Promise<SessionViewT> {
    await g.w.call('repositories:save', { path: repo, setupCommand: command });
    return openSession(g.w, { cwd: repo, worktree: { branch: `setup-${Math.random().toString(36).slice(2, 8)}` } });
  }

  it('runs in the new worktree before the first prompt, its output live and in the transcript', async () => {
    const s = await withSetup('printf "installing\\n"; printf done > setup-ran.txt');
    const end = await g.w.prompt(s.id, 'hello');
    expect(end.kind).toBe('turn_ended');
    expect(readText(s.cwd, 'setup-ran.txt')).toBe('done');
    const stored = g.h.stored(s.id);
    const setupAt = stored.findIndex((e) => e.kind === 'setup_command');
    const turnAt = stored.findIndex((e) => e.kind === 'turn_started');
    expect(setupAt).toBeGreaterThanOrEqual(0);
    expect(setupAt).toBeLessThan(turnAt);
    const setup = stored[setupAt]!;
    expect(setup.kind === 'setup_command' && setup.payload).toMatchObject({ command: expect.stringContaining('installing'), output: 'installing\n', failed: false, exit: { exitCode: 0 } });
    await g.w.waitFor('setup:output', (o) => o.sessionId === s.id && o.text.includes('installing'));
    const view = (await g.w.call('sessions:list', {})).find((v) => v.id === s.id)!;
    expect(view.workspace?.setup).toMatchObject({ state: 'succeeded', exitCode: 0 });
  });

  it('a failing setup command is shown, and the session stays usable', async () => {
    const s = await withSetup('echo "npm ERR! missing lockfile" >&2; exit 3');
    const end = await g.w.prompt(s.id, 'hello');
    expect(end.kind === 'turn_ended' && end.payload.stopReason).toBe('end_turn');
    const setup = g.h.stored(s.id).find((e) => e.kind === 'setup_command');
    expect(setup?.kind === 'setup_command' && setup.payload).toMatchObject({ failed: true, exit: { exitCode: 3 }, output: 'npm ERR! missing lockfile\n' });
    const view = (await g.w.call('sessions:list', {})).find((v) => v.id === s.id)!;
    expect(view.workspace?.setup).toMatchObject({ state: 'failed', exitCode: 3 });
    await agentWrites(g.w, s.id, 'still.txt', 'works');
  });
});

describe('without git', () => {
  it('says git is missing in the dialog, refuses a worktree in those words, and still runs a session in the folder', async () => {
    await g.cleanup();
    g = await startGitHost({ gitEnv: { PATH: '/nonexistent', HOME: '/nonexistent' } });
    repo = g.sb.repo('shop', { 'README.md': 'shop\n' });
    expect(await g.w.call('workspace:probe', { path: repo })).toEqual({ kind: 'no_git', message: expect.stringMatching(/git is not installed/) });
    const err = await failure(g.w.call('sessions:create', { cwd: repo, worktree: { branch: 'x' } }));
    expect(err.message).toMatch(/git is not installed/);
    const s = await openSession(g.w, { cwd: repo });
    expect(s.workspace).toBeUndefined();
    await agentWrites(g.w, s.id, 'README.md', 'still works');
    expect(readText(repo, 'README.md')).toBe('still works');
  });
});
