import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitSandbox, readTree, snapshotCheckout, type GitSandbox } from '../../test-support/git-repos';
import { Git } from './git';
import { commitAll, mergeBranch, rebaseOnBase } from './integrate';
import { createWorktree } from './worktrees';

let sb: GitSandbox;
let git: Git;
let repo: string;
let wt: string;
beforeEach(async () => {
  sb = gitSandbox();
  git = new Git({ env: sb.env });
  repo = sb.repo('r', { 'a.txt': 'a\n', 'shared.txt': 'base\n', '.gitignore': '*.log\n' });
  wt = (await createWorktree(git, { repoDir: repo, branch: 'work', path: join(sb.root, 'wt') })).path;
});
afterEach(() => sb.cleanup());

function hook(name: string, body: string): void {
  const path = join(repo, '.git', 'hooks', name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
}

function commitIn(dir: string, files: Record<string, string>, message: string): void {
  sb.write(dir, files);
  sb.sh(dir, 'add', '-A');
  sb.sh(dir, 'commit', '-qm', message);
}

/** What a person sees of a checkout (the index's stat cache may be refreshed by git's own abort). */
function seen(dir: string) {
  const { head, status, stash, files } = snapshotCheckout(sb, dir);
  return { head, status, stash, files };
}

function noLeftovers(dir: string): void {
  const gitDir = sb.sh(dir, 'rev-parse', '--path-format=absolute', '--git-dir').trim();
  for (const f of ['MERGE_HEAD', 'MERGE_MSG', 'SQUASH_MSG', 'rebase-merge', 'rebase-apply', 'ORIG_HEAD.lock', 'index.lock']) {
    expect(existsSync(join(gitDir, f)), f).toBe(false);
  }
}

describe('commitAll', () => {
  it('commits every change, untracked files included, running the hooks', async () => {
    hook('pre-commit', 'echo ran > "$(git rev-parse --show-toplevel)/hook-ran.log"');
    sb.write(wt, { 'a.txt': 'changed\n', 'new file.txt': 'new\n', 'debug.log': 'ignored\n' });
    const message = '-starts with a dash\n\nand has a body';
    const { commit } = await commitAll(git, { dir: wt, message });
    expect(commit).toBe(sb.sh(wt, 'rev-parse', 'HEAD').trim());
    expect(sb.sh(wt, 'log', '-1', '--format=%B').trim()).toBe(message);
    expect(sb.sh(wt, 'show', '--name-only', '--format=', 'HEAD').trim().split('\n').sort()).toEqual(['a.txt', 'new file.txt']);
    expect(readFileSync(join(wt, 'hook-ran.log'), 'utf8')).toBe('ran\n');
    expect(sb.sh(wt, 'status', '--porcelain')).toBe('');
  });

  it('says there is nothing to commit, leaving the index as it was', async () => {
    sb.write(wt, { 'debug.log': 'only ignored\n' });
    const before = snapshotCheckout(sb, wt);
    await expect(commitAll(git, { dir: wt, message: 'x' })).rejects.toMatchObject({ code: 'nothing_to_commit' });
    expect(snapshotCheckout(sb, wt)).toEqual(before);
  });

  it('reports a failing hook in its own words and puts the index back', async () => {
    hook('pre-commit', 'echo "lint: 3 problems in a.txt" >&2\nexit 1');
    sb.write(wt, { 'a.txt': 'changed\n', 'new.txt': 'n\n' });
    sb.sh(wt, 'add', 'a.txt');
    const before = snapshotCheckout(sb, wt);
    const err = await commitAll(git, { dir: wt, message: 'x' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'failed' });
    expect((err as Error).message).toContain('lint: 3 problems in a.txt');
    expect(snapshotCheckout(sb, wt)).toEqual(before);
  });

  it('refuses an empty message and a detached HEAD', async () => {
    await expect(commitAll(git, { dir: wt, message: '  ' })).rejects.toMatchObject({ code: 'invalid_argument' });
    sb.sh(wt, 'checkout', '-q', '--detach');
    sb.write(wt, { 'a.txt': 'x\n' });
    await expect(commitAll(git, { dir: wt, message: 'x' })).rejects.toMatchObject({ code: 'detached_head' });
  });
});

describe('mergeBranch', () => {
  beforeEach(() => {
    commitIn(wt, { 'feature.txt': 'f\n' }, 'feature one');
    commitIn(wt, { 'a.txt': 'a from work\n' }, 'feature two');
  });

  it('merges with a merge commit into the clean base checkout', async () => {
    const before = sb.sh(repo, 'rev-parse', 'HEAD').trim();
    const { commit } = await mergeBranch(git, { repoDir: repo, branch: 'work', baseBranch: 'main', message: 'Merge work' });
    expect(sb.sh(repo, 'rev-parse', 'HEAD').trim()).toBe(commit);
    expect(sb.sh(repo, 'log', '-1', '--format=%P %s').trim()).toBe(`${before} ${sb.sh(wt, 'rev-parse', 'HEAD').trim()} Merge work`);
    expect(readTree(repo)).toMatchObject({ 'feature.txt': 'f\n', 'a.txt': 'a from work\n' });
    expect(sb.sh(repo, 'status', '--porcelain')).toBe('');
  });

  it('squashes into one commit, whatever merge.ff says', async () => {
    sb.sh(repo, 'config', 'merge.ff', 'false');
    const before = sb.sh(repo, 'rev-parse', 'HEAD').trim();
    await mergeBranch(git, { repoDir: repo, branch: 'work', baseBranch: 'main', message: 'Work, squashed', squash: true });
    expect(sb.sh(repo, 'log', '-1', '--format=%P %s').trim()).toBe(`${before} Work, squashed`);
    expect(readTree(repo)).toMatchObject({ 'feature.txt': 'f\n', 'a.txt': 'a from work\n' });
    noLeftovers(repo);
  });

  it('merges with untracked files in the base checkout, which stay', async () => {
    sb.write(repo, { 'notes.txt': 'mine\n' });
    await mergeBranch(git, { repoDir: repo, branch: 'work', baseBranch: 'main', message: 'm' });
    expect(readTree(repo)['notes.txt']).toBe('mine\n');
  });

  it('refuses a base checkout with tracked changes, on another branch, mid-operation, or with nothing to merge — changing nothing', async () => {
    sb.write(repo, { 'shared.txt': 'edited by the person\n' });
    let before = snapshotCheckout(sb, repo);
    await expect(mergeBranch(git, { repoDir: repo, branch: 'work', baseBranch: 'main', message: 'm' })).rejects.toMatchObject({ code: 'dirty', files: ['shared.txt'] });
    expect(snapshotCheckout(sb, repo)).toEqual(before);
    sb.sh(repo, 'checkout', '-q', '--', 'shared.txt');

    sb.sh(repo, 'checkout', '-q', '-b', 'elsewhere');
    await expect(mergeBranch(git, { repoDir: repo, branch: 'work', baseBranch: 'main', message: 'm' })).rejects.toMatchObject({ code: 'wrong_branch' });
    sb.sh(repo, 'checkout', '-q', 'main');

    sb.sh(repo, 'checkout', '-q', '--detach');
    await expect(mergeBranch(git, { repoDir: repo, branch: 'work', baseBranch: 'main', message: 'm' })).rejects.toMatchObject({ code: 'detached_head' });
    sb.sh(repo, 'checkout', '-q', 'main');

    writeFileSync(join(repo, '.git', 'MERGE_HEAD'), sb.sh(repo, 'rev-parse', 'HEAD'));
    await expect(mergeBranch(git, { repoDir: repo, branch: 'work', baseBranch: 'main', message: 'm' })).rejects.toMatchObject({ code: 'operation_in_progress' });
    rmSync(join(repo, '.git', 'MERGE_HEAD'));

    sb.sh(repo, 'branch', 'empty');
    before = snapshotCheckout(sb, repo);
    await expect(mergeBranch(git, { repoDir: repo, branch: 'empty', baseBranch: 'main', message: 'm' })).rejects.toMatchObject({ code: 'nothing_to_merge' });
    await expect(mergeBranch(git, { repoDir: repo, branch: 'nope', baseBranch: 'main', message: 'm' })).rejects.toMatchObject({ code: 'not_found' });
    expect(snapshotCheckout(sb, repo)).toEqual(before);
  });

  for (const squash of [false, true]) {
    it(`aborts a conflicting ${squash ? 'squash ' : ''}merge, names the files, and leaves both checkouts as they were`, async () => {
      commitIn(wt, { 'shared.txt': 'from work\n', 'other.txt': 'o\n' }, 'work side');
      commitIn(repo, { 'shared.txt': 'from main\n' }, 'main side');
      sb.write(repo, { 'untracked.txt': 'mine\n', 'debug.log': 'ignored\n' });
      sb.write(wt, { 'wip.txt': 'uncommitted in the worktree\n' });
      const [main, side] = [seen(repo), seen(wt)];
      const err = await mergeBranch(git, { repoDir: repo, branch: 'work', baseBranch: 'main', message: 'm', squash }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'conflict', files: ['shared.txt'] });
      expect((err as Error).message).toContain('shared.txt');
      expect(seen(repo)).toEqual(main);
      expect(seen(wt)).toEqual(side);
      noLeftovers(repo);
    });
  }

  it("aborts when a merge hook fails, in the hook's words", async () => {
    hook('pre-merge-commit', 'echo "tests failed on the merge" >&2\nexit 1');
    const before = seen(repo);
    const err = await mergeBranch(git, { repoDir: repo, branch: 'work', baseBranch: 'main', message: 'm' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'failed' });
    expect((err as Error).message).toContain('tests failed on the merge');
    expect(seen(repo)).toEqual(before);
    noLeftovers(repo);
  });

  it("aborts a squash when the commit's hook fails", async () => {
    hook('pre-commit', 'echo "no squashes today" >&2\nexit 1');
    const before = seen(repo);
    const err = await mergeBranch(git, { repoDir: repo, branch: 'work', baseBranch: 'main', message: 'm', squash: true }).catch((e: unknown) => e);
    expect((err as Error).message).toContain('no squashes today');
    expect(seen(repo)).toEqual(before);
    noLeftovers(repo);
  });

  it("refuses in git's words when the merge would overwrite an untracked file, touching nothing", async () => {
    sb.write(repo, { 'feature.txt': 'the person’s own\n' });
    const before = snapshotCheckout(sb, repo);
    const err = await mergeBranch(git, { repoDir: repo, branch: 'work', baseBranch: 'main', message: 'm' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'failed' });
    expect((err as Error).message).toMatch(/untracked working tree files would be overwritten/);
    expect(snapshotCheckout(sb, repo)).toEqual(before);
  });
});

describe('rebaseOnBase', () => {
  it("replays the worktree's commits on the base branch's tip", async () => {
    commitIn(wt, { 'feature.txt': 'f\n' }, 'feature');
    commitIn(repo, { 'main.txt': 'm\n' }, 'main moved on');
    const r = await rebaseOnBase(git, { dir: wt, baseBranch: 'main' });
    expect(r.moved).toBe(true);
    expect(r.baseCommit).toBe(sb.sh(repo, 'rev-parse', 'HEAD').trim());
    expect(sb.sh(wt, 'rev-parse', 'HEAD~1').trim()).toBe(r.baseCommit);
    expect(readTree(wt)).toMatchObject({ 'feature.txt': 'f\n', 'main.txt': 'm\n' });
    expect((await rebaseOnBase(git, { dir: wt, baseBranch: 'main' })).moved).toBe(false);
  });

  it('refuses uncommitted changes, untracked files included', async () => {
    commitIn(repo, { 'main.txt': 'm\n' }, 'main moved on');
    sb.write(wt, { 'new.txt': 'n\n' });
    const before = snapshotCheckout(sb, wt);
    await expect(rebaseOnBase(git, { dir: wt, baseBranch: 'main' })).rejects.toMatchObject({ code: 'dirty', files: ['new.txt'] });
    expect(snapshotCheckout(sb, wt)).toEqual(before);
  });

  it('aborts a conflicting rebase, names the files, and leaves the worktree as it was', async () => {
    commitIn(wt, { 'shared.txt': 'from work\n', 'x.txt': 'x\n' }, 'work one');
    commitIn(wt, { 'y.txt': 'y\n' }, 'work two');
    commitIn(repo, { 'shared.txt': 'from main\n' }, 'main side');
    const [side, main] = [seen(wt), seen(repo)];
    const err = await rebaseOnBase(git, { dir: wt, baseBranch: 'main' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'conflict', files: ['shared.txt'] });
    expect(seen(wt)).toEqual(side);
    expect(seen(repo)).toEqual(main);
    noLeftovers(wt);
  });
});
