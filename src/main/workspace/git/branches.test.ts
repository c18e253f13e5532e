import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitSandbox, type GitSandbox } from '../../test-support/git-repos';
import { branchExists, checkBranchName, commitsNotIn, deleteBranch, listBranches, slugify, suggestBranchName } from './branches';
import { Git } from './git';

let sb: GitSandbox;
let git: Git;
let repo: string;
beforeEach(() => {
  sb = gitSandbox();
  git = new Git({ env: sb.env });
  repo = sb.repo('r', { 'a.txt': 'a\n' });
});
afterEach(() => sb.cleanup());

describe('checkBranchName', () => {
  it('accepts a valid free name', async () => {
    expect(await checkBranchName(git, repo, 'feature/login-ü')).toEqual({ ok: true, name: 'feature/login-ü' });
  });

  it('refuses what git refuses as a branch name', async () => {
    for (const bad of ['', ' ', 'a b', 'a..b', 'x.lock', '-x', 'HEAD', 'x/', 'a~1', 'a:b', 'a\nb', '@{-1}']) {
      expect(await checkBranchName(git, repo, bad), JSON.stringify(bad)).toMatchObject({ ok: false, problem: 'invalid' });
    }
  });

  it('refuses "@{-1}" even where it names the previous branch', async () => {
    sb.sh(repo, 'checkout', '-q', '-b', 'other');
    sb.sh(repo, 'checkout', '-q', 'main');
    expect(await checkBranchName(git, repo, '@{-1}')).toMatchObject({ ok: false, problem: 'invalid' });
  });

  it('says a name is taken, also when it differs only in case or clashes as a folder', async () => {
    sb.sh(repo, 'branch', 'fix');
    sb.sh(repo, 'branch', 'team/one');
    expect(await checkBranchName(git, repo, 'fix')).toMatchObject({ ok: false, problem: 'taken' });
    expect(await checkBranchName(git, repo, 'FIX')).toMatchObject({ ok: false, problem: 'taken' });
    expect(await checkBranchName(git, repo, 'fix/more')).toMatchObject({ ok: false, problem: 'conflicts' });
    expect(await checkBranchName(git, repo, 'team')).toMatchObject({ ok: false, problem: 'conflicts' });
    expect(await checkBranchName(git, repo, 'team/two')).toEqual({ ok: true, name: 'team/two' });
  });
});

describe('suggestBranchName', () => {
  it('makes a slug of the title', async () => {
    expect(slugify('  Fix the Ümlaut bug!! (again) ')).toBe('fix-the-umlaut-bug-again');
    expect(slugify('日本語')).toBe('');
    expect(slugify('a'.repeat(50) + ' b')).toBe('a'.repeat(40));
    expect(await suggestBranchName(git, repo, { title: 'Fix login', shortId: 'k3x9' })).toBe('fix-login');
  });

  it('adds the short id when the slug is taken, then numbers', async () => {
    sb.sh(repo, 'branch', 'fix-login');
    expect(await suggestBranchName(git, repo, { title: 'Fix login', shortId: 'k3x9' })).toBe('fix-login-k3x9');
    sb.sh(repo, 'branch', 'fix-login-k3x9');
    expect(await suggestBranchName(git, repo, { title: 'Fix login', shortId: 'k3x9' })).toBe('fix-login-k3x9-2');
  });

  it('uses the short id when the title gives no slug, and keeps a prefix', async () => {
    expect(await suggestBranchName(git, repo, { title: '日本語', shortId: 'k3x9' })).toBe('session-k3x9');
    expect(await suggestBranchName(git, repo, { title: 'Fix login', shortId: 'k3x9', prefix: 'sb/' })).toBe('sb/fix-login');
  });

  it('steers clear of a branch that is a folder of the suggestion', async () => {
    sb.sh(repo, 'branch', 'sb');
    expect(await suggestBranchName(git, repo, { title: 'Fix login', shortId: 'k3x9', prefix: 'sb-' })).toBe('sb-fix-login');
    await expect(suggestBranchName(git, repo, { title: 'Fix login', shortId: 'k3x9', prefix: 'sb/' })).rejects.toMatchObject({ code: 'branch_taken' });
  });
});

describe('deleteBranch', () => {
  it('reports the commits the base lacks, then deletes', async () => {
    sb.sh(repo, 'checkout', '-q', '-b', 'work');
    sb.write(repo, { 'b.txt': 'b\n' });
    sb.sh(repo, 'add', '-A');
    sb.sh(repo, 'commit', '-qm', 'one');
    sb.write(repo, { 'c.txt': 'c\n' });
    sb.sh(repo, 'add', '-A');
    sb.sh(repo, 'commit', '-qm', 'two');
    sb.sh(repo, 'checkout', '-q', 'main');
    expect(await commitsNotIn(git, repo, 'work', 'main')).toBe(2);
    const tip = sb.sh(repo, 'rev-parse', 'work').trim();
    expect(await deleteBranch(git, repo, 'work', 'main')).toEqual({ commit: tip, notInBase: 2 });
    expect(await branchExists(git, repo, 'work')).toBe(false);
    expect(await listBranches(git, repo)).toEqual(['main']);
  });

  it('counts against a base commit when the base branch is gone', async () => {
    const base = sb.sh(repo, 'rev-parse', 'HEAD').trim();
    sb.sh(repo, 'checkout', '-q', '-b', 'work');
    sb.write(repo, { 'b.txt': 'b\n' });
    sb.sh(repo, 'add', '-A');
    sb.sh(repo, 'commit', '-qm', 'one');
    expect(await commitsNotIn(git, repo, 'work', base)).toBe(1);
  });

  it("refuses a branch that is checked out, in git's words, and a missing one", async () => {
    await expect(deleteBranch(git, repo, 'main')).rejects.toMatchObject({ code: 'failed', stderr: expect.stringContaining('main') });
    await expect(deleteBranch(git, repo, 'nope')).rejects.toMatchObject({ code: 'not_found' });
  });
});
