import { chmodSync, mkdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AWKWARD_NAMES, gitSandbox, readTree, snapshotCheckout, type GitSandbox } from '../../test-support/git-repos';
import { createCheckpoint, deleteCheckpoints, listCheckpoints } from './checkpoints';
import { Git } from './git';
import { discardChanges, restoreCheckpoint, revertFiles } from './restore';

let sb: GitSandbox;
let git: Git;
let repo: string;
let indexFile: string;
beforeEach(() => {
  sb = gitSandbox();
  git = new Git({ env: sb.env });
  repo = sb.repo('r', { 'a.txt': 'a\n', 'keep.txt': 'keep\n', 'dir/b.txt': 'b\n', '.gitignore': '*.log\nbuild/\n' });
  indexFile = join(sb.root, 'data', 'checkpoints', 's1.index');
});
afterEach(() => sb.cleanup());

const target = (turn: string) => ({ dir: repo, indexFile, session: 's1', turn });

/** The person's side of a checkout with some of everything: staged, unstaged, untracked, ignored, a stash. */
function busyCheckout(): void {
  sb.write(repo, { 'a.txt': 'stashed\n' });
  sb.sh(repo, 'stash', '-q');
  sb.write(repo, { 'a.txt': 'staged\n' });
  sb.sh(repo, 'add', 'a.txt');
  sb.write(repo, { 'a.txt': 'staged then edited\n', 'new.txt': 'untracked\n', 'debug.log': 'ignored\n', 'build/out.js': 'ignored too\n' });
}

describe('createCheckpoint', () => {
  it("records tracked and untracked files, not ignored ones, leaving the person's index, stash, HEAD and branch as they were", async () => {
    busyCheckout();
    const before = snapshotCheckout(sb, repo);
    const cp = await createCheckpoint(git, target('t1'));
    expect(snapshotCheckout(sb, repo)).toEqual(before);
    expect(cp).toMatchObject({ ref: 'refs/switchboard/s1/t1', session: 's1', turn: 't1', parent: undefined });
    const files = sb.sh(repo, 'ls-tree', '-r', '--name-only', cp.commit).trim().split('\n');
    expect(files).toEqual(['.gitignore', 'a.txt', 'dir/b.txt', 'keep.txt', 'new.txt']);
    expect(sb.sh(repo, 'show', `${cp.commit}:a.txt`)).toBe('staged then edited\n');
    expect(sb.sh(repo, 'log', '-1', '--format=%an <%ae>', cp.commit).trim()).toBe('Switchboard <switchboard@localhost>');
  });

  it('chains a session’s checkpoints, lists them oldest first, and deletes them', async () => {
    const one = await createCheckpoint(git, target('t1'), () => 1000);
    sb.write(repo, { 'a.txt': 'two\n' });
    const two = await createCheckpoint(git, target('t2'), () => 1000); // same time: the chain orders them
    const other = await createCheckpoint(git, { ...target('t1'), session: 's2' });
    expect(two.parent).toBe(one.commit);
    expect((await listCheckpoints(git, repo, 's1')).map((c) => [c.turn, c.commit, c.at])).toEqual([
      ['t1', one.commit, 1000],
      ['t2', two.commit, 1000],
    ]);
    expect(await deleteCheckpoints(git, repo, 's1')).toBe(2);
    expect(await listCheckpoints(git, repo, 's1')).toEqual([]);
    expect((await listCheckpoints(git, repo, 's2')).map((c) => c.commit)).toEqual([other.commit]);
    expect(sb.sh(repo, 'for-each-ref', 'refs/switchboard/s1/')).toBe('');
  });

  it('works in a repository with no commit and no index yet', async () => {
    const unborn = sb.repo('unborn');
    sb.write(unborn, { 'first.txt': '1\n' });
    const cp = await createCheckpoint(git, { ...target('t1'), dir: unborn });
    expect(sb.sh(unborn, 'ls-tree', '-r', '--name-only', cp.commit).trim()).toBe('first.txt');
    expect(sb.sh(unborn, 'status', '--porcelain')).toBe('?? first.txt\n');
  });

  it('refuses ids that would not make a plain ref name', async () => {
    await expect(createCheckpoint(git, { ...target('t1'), session: '../x' })).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(createCheckpoint(git, target('a b'))).rejects.toMatchObject({ code: 'invalid_argument' });
  });
});

describe('restoreCheckpoint', () => {
  it('makes the files equal the checkpoint — removed, changed, added, awkward names — and can be undone', async () => {
    sb.write(repo, Object.fromEntries(AWKWARD_NAMES.map((n) => [n, `${n} v1\n`])));
    const cp = await createCheckpoint(git, target('t1'));
    const atCheckpoint = readTree(repo);

    // The turn: edits, deletions, new files, a file replaced by a folder, and ignored output.
    sb.write(repo, Object.fromEntries(AWKWARD_NAMES.map((n) => [n, `${n} v2\n`])));
    rmSync(join(repo, 'keep.txt'));
    rmSync(join(repo, 'sp ace.txt'));
    rmSync(join(repo, 'a.txt'));
    sb.write(repo, { 'a.txt/now a folder.txt': 'x\n', 'brand/new/deep.txt': 'new\n', 'debug.log': 'ignored\n', 'build/out.js': 'ignored\n' });
    const afterTurn = readTree(repo);
    const person = snapshotCheckout(sb, repo);

    const result = await restoreCheckpoint(git, { ...target('t2'), target: cp.ref });
    expect(readTree(repo)).toEqual({ ...atCheckpoint, 'debug.log': 'ignored\n', 'build/out.js': 'ignored\n' });
    expect(result.removed.sort()).toEqual(['a.txt/now a folder.txt', 'brand/new/deep.txt']);
    expect(result.written.sort()).toEqual([...AWKWARD_NAMES, 'a.txt', 'keep.txt'].sort());
    expect(snapshotCheckout(sb, repo).index).toBe(person.index);

    // Restoring the checkpoint taken just before brings the turn's files back.
    await restoreCheckpoint(git, { ...target('t3'), target: result.undo.commit });
    expect(readTree(repo)).toEqual(afterTurn);
    expect((await listCheckpoints(git, repo, 's1')).map((c) => c.turn)).toEqual(['t1', 't2', 't3']);
  });

  it('restores symlinks and the executable bit', async () => {
    symlinkSync('a.txt', join(repo, 'link'));
    writeFileSync(join(repo, 'run.sh'), '#!/bin/sh\n');
    chmodSync(join(repo, 'run.sh'), 0o755);
    const cp = await createCheckpoint(git, target('t1'));
    rmSync(join(repo, 'link'));
    writeFileSync(join(repo, 'link'), 'now a file');
    chmodSync(join(repo, 'run.sh'), 0o644);
    await restoreCheckpoint(git, { ...target('t2'), target: cp.commit });
    expect(readTree(repo).link).toBe('-> a.txt');
    expect(statSync(join(repo, 'run.sh')).mode & 0o111).not.toBe(0);
  });

  it('refuses, changing nothing, when a file would replace a folder holding ignored files', async () => {
    const cp = await createCheckpoint(git, target('t1'));
    rmSync(join(repo, 'keep.txt'));
    sb.write(repo, { 'keep.txt/mine.txt': 'x\n', 'keep.txt/cache.log': 'ignored, must survive\n' });
    const before = readTree(repo);
    await expect(restoreCheckpoint(git, { ...target('t2'), target: cp.commit })).rejects.toMatchObject({ code: 'dirty', files: ['keep.txt'] });
    expect(readTree(repo)).toEqual(before);
  });

  it('refuses a merge under way and an unknown target', async () => {
    const cp = await createCheckpoint(git, target('t1'));
    await expect(restoreCheckpoint(git, { ...target('t2'), target: 'refs/switchboard/s1/nope' })).rejects.toMatchObject({ code: 'not_found' });
    writeFileSync(join(repo, '.git', 'MERGE_HEAD'), cp.commit);
    await expect(restoreCheckpoint(git, { ...target('t2'), target: cp.commit })).rejects.toMatchObject({ code: 'operation_in_progress' });
  });

  it('leaves submodule entries alone and says so', async () => {
    const sub = sb.repo('sub', { 's.txt': 's\n' });
    const subHead = sb.sh(sub, 'rev-parse', 'HEAD').trim();
    const cp = await createCheckpoint(git, target('t1'));
    sb.sh(repo, 'update-index', '--add', '--cacheinfo', `160000,${subHead},lib`);
    mkdirSync(join(repo, 'lib'));
    const result = await restoreCheckpoint(git, { ...target('t2'), target: cp.commit });
    expect(result.skipped).toEqual(['lib']);
    expect(result.removed).toEqual([]);
  });
});

describe('revertFiles and discardChanges', () => {
  let base: string;
  beforeEach(() => {
    base = sb.sh(repo, 'rev-parse', 'HEAD').trim();
    // Work on the branch: one commit, then uncommitted edits, a deletion, a rename and new files.
    sb.write(repo, { 'committed.txt': 'on the branch\n' });
    sb.sh(repo, 'add', '-A');
    sb.sh(repo, 'commit', '-qm', 'work');
    sb.write(repo, { 'a.txt': 'edited\n', 'new\nfile.txt': 'new\n', 'debug.log': 'ignored\n' });
    rmSync(join(repo, 'keep.txt'));
    sb.sh(repo, 'mv', 'dir/b.txt', 'dir/renamed.txt');
  });

  it('reverts one file to the base, removes one the base lacks, brings back a deleted one and undoes a rename', async () => {
    await revertFiles(git, { ...target('t1'), base, paths: ['a.txt'] });
    expect(readTree(repo)['a.txt']).toBe('a\n');
    expect(readTree(repo)['new\nfile.txt']).toBe('new\n');
    const r = await revertFiles(git, { ...target('t2'), base, paths: ['new\nfile.txt', 'keep.txt', 'dir/b.txt', 'dir/renamed.txt'] });
    expect(r.removed.sort()).toEqual(['dir/renamed.txt', 'new\nfile.txt']);
    expect(r.written.sort()).toEqual(['dir/b.txt', 'keep.txt']);
    expect(readTree(repo)).toEqual({ '.gitignore': '*.log\nbuild/\n', 'a.txt': 'a\n', 'committed.txt': 'on the branch\n', 'debug.log': 'ignored\n', 'dir/b.txt': 'b\n', 'keep.txt': 'keep\n' });
  });

  it('discards every change against the base, ignored files untouched, and can be undone', async () => {
    const before = readTree(repo);
    const r = await discardChanges(git, { ...target('t1'), base });
    expect(readTree(repo)).toEqual({ '.gitignore': '*.log\nbuild/\n', 'a.txt': 'a\n', 'debug.log': 'ignored\n', 'dir/b.txt': 'b\n', 'keep.txt': 'keep\n' });
    await restoreCheckpoint(git, { ...target('t2'), target: r.undo.commit });
    expect(readTree(repo)).toEqual(before);
  });
});
