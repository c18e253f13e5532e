import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitSandbox, type GitSandbox } from '../../test-support/git-repos';
import { Git } from './git';
import type { GitError } from './git-error';
import { probeFolder, repositoryFacts, requireState } from './repository';

let sb: GitSandbox;
let git: Git;
beforeEach(() => {
  sb = gitSandbox();
  git = new Git({ env: sb.env });
});
afterEach(() => sb.cleanup());

describe('probeFolder / repositoryFacts', () => {
  it('reads a main checkout from a subfolder: top level, git folders, HEAD and branch', async () => {
    const repo = sb.repo('my repo ü', { 'src/a.txt': 'a\n' });
    const facts = await repositoryFacts(git, join(repo, 'src'));
    expect(facts).toEqual({
      topLevel: repo,
      gitDir: join(repo, '.git'),
      commonDir: join(repo, '.git'),
      linkedWorktree: false,
      indexFile: join(repo, '.git', 'index'),
      head: sb.sh(repo, 'rev-parse', 'HEAD').trim(),
      branch: 'main',
      hasSubmodules: false,
      operation: undefined,
    });
  });

  it('knows a linked worktree and its own index', async () => {
    const repo = sb.repo('r', { 'a.txt': 'a\n' });
    const wt = join(sb.root, 'wt');
    sb.sh(repo, 'worktree', 'add', '-q', '-b', 'side', wt);
    const facts = await repositoryFacts(git, wt);
    expect(facts).toMatchObject({ topLevel: wt, commonDir: join(repo, '.git'), gitDir: join(repo, '.git', 'worktrees', 'wt'), linkedWorktree: true, branch: 'side' });
    expect(facts.indexFile).toBe(join(repo, '.git', 'worktrees', 'wt', 'index'));
  });

  it('says a plain folder is not a repository, and a bare one has no work tree', async () => {
    expect(await probeFolder(git, sb.root)).toEqual({ kind: 'not_repository' });
    const bare = join(sb.root, 'bare.git');
    sb.sh(sb.root, 'init', '-q', '--bare', bare);
    expect(await probeFolder(git, bare)).toEqual({ kind: 'no_work_tree', gitDir: bare, bare: true });
    await expect(repositoryFacts(git, bare)).rejects.toMatchObject({ code: 'bare_repository' });
    await expect(repositoryFacts(git, sb.root)).rejects.toMatchObject({ code: 'not_a_repository' });
  });

  it('reads an unborn branch and a detached HEAD', async () => {
    const unborn = sb.repo('unborn');
    expect(await repositoryFacts(git, unborn)).toMatchObject({ head: undefined, branch: 'main' });
    const repo = sb.repo('r', { 'a.txt': 'a\n' });
    sb.sh(repo, 'checkout', '-q', '--detach');
    expect(await repositoryFacts(git, repo)).toMatchObject({ head: sb.sh(repo, 'rev-parse', 'HEAD').trim(), branch: undefined });
  });

  it('sees submodules and a merge under way', async () => {
    const repo = sb.repo('r', { 'a.txt': 'base\n' });
    writeFileSync(join(repo, '.gitmodules'), '[submodule "lib"]\n\tpath = lib\n\turl = ../lib\n');
    expect((await repositoryFacts(git, repo)).hasSubmodules).toBe(true);
    sb.sh(repo, 'checkout', '-q', '-b', 'other');
    sb.write(repo, { 'a.txt': 'other\n' });
    sb.sh(repo, 'commit', '-qam', 'other');
    sb.sh(repo, 'checkout', '-q', 'main');
    sb.write(repo, { 'a.txt': 'main\n' });
    sb.sh(repo, 'commit', '-qam', 'main');
    expect(() => sb.sh(repo, 'merge', 'other')).toThrow();
    expect((await repositoryFacts(git, repo)).operation).toBe('merge');
  });

  it('refuses a folder name holding a line break rather than misreading it', async () => {
    const repo = sb.repo('line\nbreak', { 'a.txt': 'a\n' });
    await expect(repositoryFacts(git, repo)).rejects.toMatchObject({ code: 'unsupported_path' });
  });
});

describe('requireState', () => {
  const base = { topLevel: '/r', gitDir: '/r/.git', commonDir: '/r/.git', linkedWorktree: false, indexFile: '/r/.git/index', head: 'abc', branch: 'main', hasSubmodules: false, operation: undefined };
  const code = (f: () => void): string | undefined => {
    try {
      f();
      return undefined;
    } catch (err) {
      return (err as GitError).code;
    }
  };

  it('names the state that stops an operation, before anything is done', () => {
    expect(code(() => requireState(base, 'x', { branch: true, commit: true, noSubmodules: true }))).toBeUndefined();
    expect(code(() => requireState({ ...base, operation: 'rebase' }, 'x'))).toBe('operation_in_progress');
    expect(code(() => requireState({ ...base, head: undefined }, 'x', { commit: true }))).toBe('unborn_head');
    expect(code(() => requireState({ ...base, head: undefined }, 'x', { branch: true }))).toBeUndefined();
    expect(code(() => requireState({ ...base, branch: undefined }, 'x', { branch: true }))).toBe('detached_head');
    expect(code(() => requireState({ ...base, hasSubmodules: true }, 'x', { noSubmodules: true }))).toBe('submodules');
  });
});

it('keeps a folder made inside a repository, but outside its checkout, apart', async () => {
  const repo = sb.repo('r', { 'a.txt': 'a\n' });
  mkdirSync(join(repo, '.git', 'scratch'));
  expect((await probeFolder(git, join(repo, '.git', 'scratch'))).kind).toBe('no_work_tree');
});
