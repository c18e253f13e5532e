import { existsSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitSandbox, readTree, snapshotCheckout, type GitSandbox } from '../../test-support/git-repos';
import { Git } from './git';
import { claimWorktree, discardPreparedWorktree, prepareWorktree, sweepPreparedWorktrees } from './prepared-worktrees';
import { defaultWorktreePath, listWorktrees } from './worktrees';

let sb: GitSandbox;
let git: Git;
let repo: string;
let root: string;
beforeEach(() => {
  sb = gitSandbox();
  git = new Git({ env: sb.env });
  repo = sb.repo('r', { 'a.txt': 'a\n' });
  root = join(sb.root, 'data', 'worktrees');
});
afterEach(() => sb.cleanup());

const worktreePaths = async (): Promise<string[]> => (await listWorktrees(git, repo)).filter((w) => !w.main).map((w) => w.path);

describe('prepared worktrees', () => {
  it('prepares a hidden detached worktree and claims it as a session’s: branch at HEAD, folder moved', async () => {
    const before = snapshotCheckout(sb, repo);
    const prepared = await prepareWorktree(git, { repoDir: repo, root });
    expect(basename(prepared.path)).toMatch(/^\.prepared-[0-9a-f]{8}$/);
    const path = defaultWorktreePath(root, repo, 'fix');
    expect(dirname(prepared.path)).toBe(dirname(path));
    const wt = await claimWorktree(git, { prepared, repoDir: repo, branch: 'fix', path });
    expect(wt).toEqual({ path, branch: 'fix', baseBranch: 'main', baseCommit: prepared.commit, repo, commonDir: join(repo, '.git') });
    expect(readTree(path)).toEqual({ 'a.txt': 'a\n' });
    expect(sb.sh(path, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('fix');
    expect(existsSync(prepared.path)).toBe(false);
    expect(await worktreePaths()).toEqual([path]);
    expect(snapshotCheckout(sb, repo)).toEqual(before);
  });

  it('catches up with a HEAD that moved after preparing', async () => {
    const prepared = await prepareWorktree(git, { repoDir: repo, root });
    sb.write(repo, { 'b.txt': 'b\n' });
    sb.sh(repo, 'add', '-A');
    sb.sh(repo, 'commit', '-qm', 'moved on');
    const head = sb.sh(repo, 'rev-parse', 'HEAD').trim();
    const wt = await claimWorktree(git, { prepared, repoDir: repo, branch: 'fix', path: join(root, 'fix') });
    expect(wt.baseCommit).toBe(head);
    expect(sb.sh(wt.path, 'rev-parse', 'HEAD').trim()).toBe(head);
    expect(readTree(wt.path)).toEqual({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
  });

  it('refuses a taken branch leaving the prepared worktree for another try', async () => {
    const prepared = await prepareWorktree(git, { repoDir: repo, root });
    await expect(claimWorktree(git, { prepared, repoDir: repo, branch: 'main', path: join(root, 'x') })).rejects.toMatchObject({ code: 'branch_taken' });
    expect(await worktreePaths()).toEqual([prepared.path]);
    const wt = await claimWorktree(git, { prepared, repoDir: repo, branch: 'x', path: join(root, 'x') });
    expect(wt.branch).toBe('x');
  });

  it('makes a worktree the slow way when the prepared one was touched', async () => {
    const prepared = await prepareWorktree(git, { repoDir: repo, root });
    writeFileSync(join(prepared.path, 'stray.txt'), 'someone was here');
    const wt = await claimWorktree(git, { prepared, repoDir: repo, branch: 'fix', path: join(root, 'fix') });
    expect(readTree(wt.path)).toEqual({ 'a.txt': 'a\n' });
    expect(await worktreePaths()).toEqual([wt.path]);
  });

  it('discards an unused one, and sweeps ones a crash left behind', async () => {
    const unused = await prepareWorktree(git, { repoDir: repo, root });
    await discardPreparedWorktree(git, unused);
    expect(existsSync(unused.path)).toBe(false);
    expect(await worktreePaths()).toEqual([]);
    const left = await prepareWorktree(git, { repoDir: repo, root });
    const kept = await claimWorktree(git, { prepared: await prepareWorktree(git, { repoDir: repo, root }), repoDir: repo, branch: 'kept', path: join(root, 'kept') });
    expect(await sweepPreparedWorktrees(git, repo)).toEqual([left.path]);
    expect(await worktreePaths()).toEqual([kept.path]);
  });

  it('refuses to prepare on a detached HEAD', async () => {
    sb.sh(repo, 'checkout', '-q', '--detach');
    await expect(prepareWorktree(git, { repoDir: repo, root })).rejects.toMatchObject({ code: 'detached_head' });
  });
});
