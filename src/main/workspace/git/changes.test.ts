import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AWKWARD_NAMES, gitSandbox, snapshotCheckout, type GitSandbox } from '../../test-support/git-repos';
import { fileDiff, listChanges, type ChangedFile } from './changes';
import { Git } from './git';
import { worktreeStatus } from './status';
import { createWorktree } from './worktrees';

let sb: GitSandbox;
let git: Git;
let repo: string;
let wt: string;
let base: string;
const moved = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n';

beforeEach(async () => {
  sb = gitSandbox();
  git = new Git({ env: sb.env });
  repo = sb.repo('r', { 'a.txt': 'a\nb\nc\n', 'gone.txt': 'bye\n', 'tracked move.txt': moved, 'plain move.txt': moved + 'nine\n', 'bin.dat': 'x\0y', '.gitignore': '*.log\n' });
  const made = await createWorktree(git, { repoDir: repo, branch: 'work', path: join(sb.root, 'wt') });
  wt = made.path;
  base = made.baseCommit;
});
afterEach(() => sb.cleanup());

const byPath = (files: ChangedFile[]) => Object.fromEntries(files.map((f) => [f.path, f]));

describe('listChanges', () => {
  it('lists committed, staged, unstaged, untracked, deleted and renamed files against the base, with line counts', async () => {
    sb.write(wt, { 'committed.txt': 'c1\nc2\n' });
    sb.sh(wt, 'add', '-A');
    sb.sh(wt, 'commit', '-qm', 'on the branch');
    sb.write(wt, { 'a.txt': 'a\nB\nc\nd\n', 'staged.txt': 's\n', 'new.txt': 'n1\nn2\nn3\n', 'bin.dat': 'z\0z', 'debug.log': 'ignored\n' });
    sb.sh(wt, 'add', 'staged.txt');
    rmSync(join(wt, 'gone.txt'));
    sb.sh(wt, 'mv', 'tracked move.txt', 'tracked moved.txt');
    // Moved without git: a deleted tracked file and an untracked copy, paired as a rename.
    rmSync(join(wt, 'plain move.txt'));
    writeFileSync(join(wt, 'plain moved ü.txt'), moved + 'nine\n');
    sb.sh(sb.root, 'init', '-q', join(wt, 'nested'));

    const list = await listChanges(git, { dir: wt, base });
    expect(list.truncated).toBe(false);
    expect(list.files.map((f) => f.path)).toEqual(['a.txt', 'bin.dat', 'committed.txt', 'gone.txt', 'nested/', 'new.txt', 'plain moved ü.txt', 'staged.txt', 'tracked moved.txt']);
    const f = byPath(list.files);
    expect(f['a.txt']).toEqual({ path: 'a.txt', status: 'modified', untracked: false, binary: false, added: 2, removed: 1 });
    expect(f['bin.dat']).toMatchObject({ status: 'modified', binary: true, added: undefined, removed: undefined });
    expect(f['committed.txt']).toMatchObject({ status: 'added', untracked: false, added: 2, removed: 0 });
    expect(f['gone.txt']).toMatchObject({ status: 'deleted', added: 0, removed: 1 });
    expect(f['nested/']).toMatchObject({ status: 'untracked', untracked: true });
    expect(f['new.txt']).toMatchObject({ status: 'untracked', untracked: true, added: 3, removed: 0 });
    expect(f['plain moved ü.txt']).toMatchObject({ status: 'renamed', from: 'plain move.txt', untracked: true, added: 0, removed: 0 });
    expect(f['staged.txt']).toMatchObject({ status: 'added', untracked: false, added: 1 });
    expect(f['tracked moved.txt']).toMatchObject({ status: 'renamed', from: 'tracked move.txt', untracked: false });
    expect(list.total).toBe(9);
  });

  it('keeps awkward names intact, untracked or changed', async () => {
    sb.write(wt, Object.fromEntries(AWKWARD_NAMES.map((n) => [n, 'x\n'])));
    const list = await listChanges(git, { dir: wt, base });
    expect(list.files.map((f) => f.path).sort()).toEqual([...AWKWARD_NAMES].sort());
    expect(list.files.every((f) => f.status === 'untracked' && f.added === 1)).toBe(true);
    sb.sh(wt, 'add', '-A');
    sb.sh(wt, 'commit', '-qm', 'awkward');
    sb.write(wt, Object.fromEntries(AWKWARD_NAMES.map((n) => [n, 'y\n'])));
    const again = await listChanges(git, { dir: wt, base });
    expect(again.files.every((f) => f.status === 'added' && f.added === 1)).toBe(true);
    expect(again.files).toHaveLength(AWKWARD_NAMES.length);
  });

  it('stops at maxFiles and says how many there were', async () => {
    sb.write(wt, { 'a.txt': 'changed\n', 'u1.txt': '1', 'u2.txt': '2', 'u3.txt': '3', 'u4.txt': '4' });
    const list = await listChanges(git, { dir: wt, base, maxFiles: 3 });
    expect(list).toMatchObject({ truncated: true, total: 5 });
    expect(list.files.map((f) => f.path)).toEqual(['a.txt', 'u1.txt', 'u2.txt']);
  });

  it('reads only: the checkout is exactly as before', async () => {
    sb.write(wt, { 'a.txt': 'changed\n', 'new.txt': 'n\n' });
    sb.sh(wt, 'mv', 'gone.txt', 'went.txt');
    const before = snapshotCheckout(sb, wt);
    await listChanges(git, { dir: wt, base });
    await fileDiff(git, { dir: wt, base, file: { path: 'new.txt', untracked: true } });
    expect(snapshotCheckout(sb, wt)).toEqual(before);
  });

  it('refuses a base that git would read as an option, before running git at all', async () => {
    const out = join(sb.root, 'written-by-git.txt');
    // A call started before the refusal would be left running, its failure unheard.
    const runs = vi.spyOn(git, 'run');
    await expect(listChanges(git, { dir: wt, base: `--output=${out}` })).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(fileDiff(git, { dir: wt, base: `--output=${out}`, file: { path: 'a.txt', untracked: false } })).rejects.toMatchObject({ code: 'invalid_argument' });
    expect(existsSync(out)).toBe(false);
    expect(runs).not.toHaveBeenCalled();
  });

  it('is empty for an untouched worktree', async () => {
    expect(await listChanges(git, { dir: wt, base })).toEqual({ files: [], truncated: false, total: 0 });
  });
});

describe('fileDiff', () => {
  it('shows a changed file as a unified diff', async () => {
    sb.write(wt, { 'a.txt': 'a\nB\nc\n' });
    const d = await fileDiff(git, { dir: wt, base, file: { path: 'a.txt', untracked: false } });
    expect(d).toMatchObject({ path: 'a.txt', binary: false, truncated: false });
    expect(d.text).toContain('--- a/a.txt\n+++ b/a.txt\n');
    expect(d.text).toContain('-b\n+B\n');
  });

  it('shows an untracked file as all added, and a binary one as binary', async () => {
    sb.write(wt, { 'new\nname.txt': 'n1\nn2\n', 'new.bin': 'a\0b' });
    const d = await fileDiff(git, { dir: wt, base, file: { path: 'new\nname.txt', untracked: true } });
    expect(d.text).toContain('new file mode 100644');
    expect(d.text).toContain('+n1\n+n2\n');
    const bin = await fileDiff(git, { dir: wt, base, file: { path: 'new.bin', untracked: true } });
    expect(bin).toMatchObject({ binary: true, text: '' });
  });

  it('shows a rename, untracked copy or not', async () => {
    rmSync(join(wt, 'plain move.txt'));
    writeFileSync(join(wt, 'plain moved.txt'), moved + 'nine\nten\n');
    const d = await fileDiff(git, { dir: wt, base, file: { path: 'plain moved.txt', from: 'plain move.txt', untracked: true } });
    expect(d.text).toContain('rename from plain move.txt\nrename to plain moved.txt\n');
    expect(d.text).toContain('+ten\n');
    expect(d.from).toBe('plain move.txt');
  });

  it('cuts a long diff at maxBytes', async () => {
    sb.write(wt, { 'big.txt': 'line\n'.repeat(10_000) });
    const d = await fileDiff(git, { dir: wt, base, file: { path: 'big.txt', untracked: true }, maxBytes: 1000 });
    expect(d.truncated).toBe(true);
    expect(d.text.length).toBeLessThanOrEqual(1000);
  });
});

describe('worktreeStatus', () => {
  it('shows branch, base, ahead/behind and dirty', async () => {
    const baseInfo = { branch: 'main', commit: base };
    expect(await worktreeStatus(git, wt, baseInfo)).toMatchObject({ branch: 'work', ahead: 0, behind: 0, dirty: false, uncommitted: 0 });
    sb.write(wt, { 'w.txt': 'w\n' });
    expect(await worktreeStatus(git, wt, baseInfo)).toMatchObject({ dirty: true, uncommitted: 1 });
    sb.sh(wt, 'add', '-A');
    sb.sh(wt, 'commit', '-qm', 'w');
    sb.write(repo, { 'm.txt': 'm\n' });
    sb.sh(repo, 'add', '-A');
    sb.sh(repo, 'commit', '-qm', 'm1');
    sb.write(repo, { 'm.txt': 'm2\n' });
    sb.sh(repo, 'commit', '-qam', 'm2');
    const s = await worktreeStatus(git, wt, baseInfo);
    expect(s).toMatchObject({ branch: 'work', head: sb.sh(wt, 'rev-parse', 'HEAD').trim(), ahead: 1, behind: 2, dirty: false, base: baseInfo });
  });

  it('counts against the base commit when the base branch is gone', async () => {
    sb.sh(repo, 'checkout', '-q', '-b', 'other');
    sb.sh(repo, 'branch', '-D', 'main');
    sb.write(wt, { 'w.txt': 'w\n' });
    sb.sh(wt, 'add', '-A');
    sb.sh(wt, 'commit', '-qm', 'w');
    expect(await worktreeStatus(git, wt, { branch: 'main', commit: base })).toMatchObject({ ahead: 1, behind: 0 });
  });

  it('shows a detached HEAD as no branch', async () => {
    sb.sh(wt, 'checkout', '-q', '--detach');
    expect(await worktreeStatus(git, wt, { branch: 'main', commit: base })).toMatchObject({ branch: undefined, ahead: 0, behind: 0 });
  });
});
