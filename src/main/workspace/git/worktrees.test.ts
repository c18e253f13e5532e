import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitSandbox, readTree, snapshotCheckout, type GitSandbox } from '../../test-support/git-repos';
import { branchExists } from './branches';
import { listCheckpoints } from './checkpoints';
import { Git } from './git';
import { GitError } from './git-error';
import { restoreCheckpoint } from './restore';
import { checkpointAndRemoveWorktree, createWorktree, defaultWorktreePath, listWorktrees, pruneWorktrees, recreateWorktree, removeWorktree } from './worktrees';

let sb: GitSandbox;
let git: Git;
let repo: string;
beforeEach(() => {
  sb = gitSandbox();
  git = new Git({ env: sb.env });
  repo = sb.repo('my repo', { 'a.txt': 'a\n', 'src/b.txt': 'b\n' });
});
afterEach(() => sb.cleanup());

const root = (): string => join(sb.root, 'data', 'worktrees');

async function refused(p: Promise<unknown>, code: string): Promise<GitError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GitError);
  expect((err as GitError).code).toBe(code);
  return err as GitError;
}

/** Nothing was made: no new branch, worktree, or folder under the worktree root. */
function expectNothingMade(before: { branches: string; worktrees: string }): void {
  expect(sb.sh(repo, 'branch', '--list')).toBe(before.branches);
  expect(sb.sh(repo, 'worktree', 'list', '--porcelain')).toBe(before.worktrees);
  expect(existsSync(join(root(), 'x'))).toBe(false);
}
const state = () => ({ branches: sb.sh(repo, 'branch', '--list'), worktrees: sb.sh(repo, 'worktree', 'list', '--porcelain') });

describe('createWorktree', () => {
  it("makes a branch from the checkout's HEAD in a new folder, recording base branch and commit", async () => {
    const head = sb.sh(repo, 'rev-parse', 'HEAD').trim();
    const path = defaultWorktreePath(root(), repo, 'feature/Login');
    expect(path).toMatch(new RegExp(`/data/worktrees/my-repo-[0-9a-f]{8}/feature-login$`));
    const before = snapshotCheckout(sb, repo);
    const wt = await createWorktree(git, { repoDir: join(repo, 'src'), branch: 'feature/Login', path });
    expect(wt).toEqual({ path, branch: 'feature/Login', baseBranch: 'main', baseCommit: head, repo, commonDir: join(repo, '.git') });
    expect(readTree(path)).toEqual({ 'a.txt': 'a\n', 'src/b.txt': 'b\n' });
    expect(sb.sh(path, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('feature/Login');
    expect(snapshotCheckout(sb, repo)).toEqual(before);
    expect((await listWorktrees(git, repo)).map((w) => [w.path, w.branch, w.main])).toEqual([
      [repo, 'main', true],
      [path, 'feature/Login', false],
    ]);
  });

  it('keeps two repositories of one name apart', () => {
    const other = sb.repo('elsewhere/my repo', { 'a.txt': 'a\n' });
    expect(defaultWorktreePath(root(), repo, 'x')).not.toBe(defaultWorktreePath(root(), other, 'x'));
  });

  it('refuses a detached HEAD, an unborn branch, submodules and a merge under way, making nothing', async () => {
    const path = join(root(), 'x');
    sb.sh(repo, 'checkout', '-q', '--detach');
    let before = state();
    await refused(createWorktree(git, { repoDir: repo, branch: 'x', path }), 'detached_head');
    expectNothingMade(before);
    sb.sh(repo, 'checkout', '-q', 'main');

    const unborn = sb.repo('unborn');
    await refused(createWorktree(git, { repoDir: unborn, branch: 'x', path }), 'unborn_head');

    writeFileSync(join(repo, '.gitmodules'), '[submodule "lib"]\n\tpath = lib\n\turl = ../lib\n');
    before = state();
    const err = await refused(createWorktree(git, { repoDir: repo, branch: 'x', path }), 'submodules');
    expect(err.message).toMatch(/submodules/);
    expectNothingMade(before);
    const allowed = await createWorktree(git, { repoDir: repo, branch: 'x', path, allowSubmodules: true });
    expect(existsSync(join(allowed.path, 'a.txt'))).toBe(true);
    rmSync(join(repo, '.gitmodules'));

    writeFileSync(join(repo, '.git', 'MERGE_HEAD'), sb.sh(repo, 'rev-parse', 'HEAD'));
    await refused(createWorktree(git, { repoDir: repo, branch: 'y', path: join(root(), 'y') }), 'operation_in_progress');
  });

  it('refuses a bad or taken branch name and an occupied folder, making nothing', async () => {
    const path = join(root(), 'x');
    const before = state();
    await refused(createWorktree(git, { repoDir: repo, branch: 'bad name', path }), 'invalid_branch');
    await refused(createWorktree(git, { repoDir: repo, branch: 'main', path }), 'branch_taken');
    expectNothingMade(before);
    mkdirSync(path, { recursive: true });
    writeFileSync(join(path, 'mine.txt'), 'keep me');
    await refused(createWorktree(git, { repoDir: repo, branch: 'x', path }), 'already_exists');
    expect(readFileSync(join(path, 'mine.txt'), 'utf8')).toBe('keep me');
    expect(sb.sh(repo, 'branch', '--list')).toBe(before.branches);
  });

  it("takes everything back when git fails half-way (a failing post-checkout hook), keeping the hook's words", async () => {
    const hook = join(repo, '.git', 'hooks', 'post-checkout');
    writeFileSync(hook, '#!/bin/sh\necho "setup exploded" >&2\nexit 3\n');
    chmodSync(hook, 0o755);
    const before = state();
    const path = join(root(), 'x');
    const err = await refused(createWorktree(git, { repoDir: repo, branch: 'x', path }), 'failed');
    expect(err.message).toContain('setup exploded');
    expectNothingMade(before);
    expect(existsSync(join(root()))).toBe(false);
  });
});

describe('an older git (2.31–2.35)', () => {
  it('lists worktrees from the line-based output', async () => {
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8', env: sb.env }).trim();
    const bin = join(sb.root, 'old-git');
    mkdirSync(bin);
    const log = join(sb.root, 'old-git.log');
    writeFileSync(join(bin, 'git'), `#!/bin/sh\necho "$*" >> '${log}'\nif [ "$3" = version ]; then echo "git version 2.35.1"; exit 0; fi\nexec '${realGit}' "$@"\n`);
    chmodSync(join(bin, 'git'), 0o755);
    const old = new Git({ env: { ...sb.env, PATH: `${bin}:${sb.env.PATH ?? ''}` } });
    const wt = await createWorktree(old, { repoDir: repo, branch: 'x', path: join(root(), 'x') });
    expect((await listWorktrees(old, repo)).map((w) => [w.path, w.branch])).toEqual([
      [repo, 'main'],
      [wt.path, 'x'],
    ]);
    expect(readFileSync(log, 'utf8')).toContain('worktree list --porcelain\n');
    expect(readFileSync(log, 'utf8')).not.toContain('worktree list --porcelain -z');
  });
});

describe('removing, archiving and re-creating', () => {
  async function made(branch = 'work'): Promise<string> {
    return (await createWorktree(git, { repoDir: repo, branch, path: join(root(), branch) })).path;
  }

  it('removes a clean worktree (ignored files and all) and keeps its branch', async () => {
    const path = await made();
    // Ignored files (build output, dependencies) do not count as work and go with the folder.
    sb.write(repo, { '.git/info/exclude': '*.log\n' });
    writeFileSync(join(path, 'ignored.log'), 'x');
    await removeWorktree(git, { repoDir: repo, path });
    expect(existsSync(path)).toBe(false);
    expect(await branchExists(git, repo, 'work')).toBe(true);
    expect(await listWorktrees(git, repo)).toHaveLength(1);
  });

  it('refuses to remove a worktree with uncommitted work, untracked files included', async () => {
    const path = await made();
    writeFileSync(join(path, 'new.txt'), 'precious');
    const err = await refused(removeWorktree(git, { repoDir: repo, path }), 'dirty');
    expect(err.files).toEqual(['new.txt']);
    expect(readFileSync(join(path, 'new.txt'), 'utf8')).toBe('precious');
    await refused(removeWorktree(git, { repoDir: repo, path: repo }), 'invalid_argument');
  });

  it('archive checkpoints uncommitted work first; restore re-creates the worktree and the checkpoint brings the work back', async () => {
    const path = await made();
    sb.write(path, { 'a.txt': 'edited\n', 'new file.txt': 'precious\n' });
    const indexFile = join(sb.root, 'data', 'index-s1');
    const cp = await checkpointAndRemoveWorktree(git, { repoDir: repo, dir: path, indexFile, session: 's1', turn: 'archive' });
    expect(cp).toBeDefined();
    expect(existsSync(path)).toBe(false);
    expect((await listCheckpoints(git, repo, 's1')).map((c) => c.turn)).toEqual(['archive']);

    const back = await recreateWorktree(git, { repoDir: repo, branch: 'work', path });
    expect(back.path).toBe(path);
    expect(readTree(path)).toEqual({ 'a.txt': 'a\n', 'src/b.txt': 'b\n' });
    await restoreCheckpoint(git, { dir: path, indexFile, session: 's1', turn: 'unarchive', target: cp!.commit });
    expect(readTree(path)).toEqual({ 'a.txt': 'edited\n', 'new file.txt': 'precious\n', 'src/b.txt': 'b\n' });
  });

  it('archives a clean worktree without a checkpoint', async () => {
    const path = await made();
    expect(await checkpointAndRemoveWorktree(git, { repoDir: repo, dir: path, indexFile: join(sb.root, 'idx'), session: 's1', turn: 't1' })).toBeUndefined();
    expect(existsSync(path)).toBe(false);
  });

  it('refuses to re-create for a missing branch or one checked out elsewhere', async () => {
    await refused(recreateWorktree(git, { repoDir: repo, branch: 'nope', path: join(root(), 'nope') }), 'not_found');
    await made('busy');
    await refused(recreateWorktree(git, { repoDir: repo, branch: 'busy', path: join(root(), 'busy2') }), 'already_exists');
  });

  it('forgets worktrees whose folder vanished, and re-creates at the same path', async () => {
    const path = await made();
    rmSync(path, { recursive: true, force: true });
    expect((await listWorktrees(git, repo)).find((w) => w.path === path)?.missing).toBe(true);
    expect(await pruneWorktrees(git, repo, ['/some/other/path'])).toEqual({ pruned: [], alsoPruned: [] });
    expect(await pruneWorktrees(git, repo, [path])).toEqual({ pruned: [path], alsoPruned: [] });
    expect(await listWorktrees(git, repo)).toHaveLength(1);
    await recreateWorktree(git, { repoDir: repo, branch: 'work', path });
    expect(readTree(path)['a.txt']).toBe('a\n');
  });

  it('re-creates over a vanished registration without a prune first', async () => {
    const path = await made();
    rmSync(path, { recursive: true, force: true });
    await recreateWorktree(git, { repoDir: repo, branch: 'work', path });
    expect((await listWorktrees(git, repo)).filter((w) => !w.main).map((w) => [w.path, w.missing])).toEqual([[path, false]]);
  });
});
