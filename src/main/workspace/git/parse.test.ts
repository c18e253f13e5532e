import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AWKWARD_NAMES, gitSandbox, type GitSandbox } from '../../test-support/git-repos';
import { parseRawNumstat, parseStatusV2, parseWorktreeList, splitNul } from './parse';

let sb: GitSandbox;
beforeEach(() => {
  sb = gitSandbox();
});
afterEach(() => sb.cleanup());

describe('splitNul', () => {
  it('drops only the terminator after the last field', () => {
    expect(splitNul('')).toEqual([]);
    expect(splitNul('a\0b\0')).toEqual(['a', 'b']);
    expect(splitNul('a\0\0b\0')).toEqual(['a', '', 'b']);
  });
});

describe('parseStatusV2', () => {
  it('reads every kind of entry of a real status, awkward paths intact', () => {
    const files = Object.fromEntries(AWKWARD_NAMES.map((n) => [n, `${n}\n`]));
    const repo = sb.repo('r', { ...files, 'old name.txt': 'same\ncontent\nhere\n', '.gitignore': '*.log\n' });
    sb.write(repo, { 'sp ace.txt': 'changed\n', 'new\nline.txt': 'changed too\n', 'brand new ü.txt': 'x', 'debug.log': 'ignored' });
    sb.sh(repo, 'mv', 'old name.txt', 'new\nname é.txt');
    sb.sh(repo, 'add', '--', 'new\nline.txt');
    const out = sb.sh(repo, 'status', '--porcelain=v2', '-z', '--branch', '--untracked-files=all', '--ignored');
    const status = parseStatusV2(out);
    expect(status.branch).toMatchObject({ head: 'main', upstream: undefined });
    expect(status.branch.oid).toMatch(/^[0-9a-f]{40}$/);
    const byPath = Object.fromEntries(status.entries.map((e) => [e.path, e]));
    expect(byPath['sp ace.txt']).toMatchObject({ kind: 'changed', xy: '.M' });
    expect(byPath['new\nline.txt']).toMatchObject({ kind: 'changed', xy: 'M.' });
    expect(byPath['new\nname é.txt']).toMatchObject({ kind: 'renamed', xy: 'R.', origPath: 'old name.txt' });
    expect(byPath['brand new ü.txt']).toMatchObject({ kind: 'untracked' });
    expect(byPath['debug.log']).toMatchObject({ kind: 'ignored' });
    expect(status.entries).toHaveLength(5);
  });

  it('reads an unborn branch, a detached HEAD, ahead/behind and unmerged entries', () => {
    expect(parseStatusV2('# branch.oid (initial)\0# branch.head main\0').branch).toMatchObject({ oid: undefined, head: 'main' });
    const detached = parseStatusV2(`# branch.oid ${'a'.repeat(40)}\0# branch.head (detached)\0# branch.upstream origin/x\0# branch.ab +3 -1\0`);
    expect(detached.branch).toEqual({ oid: 'a'.repeat(40), head: undefined, upstream: 'origin/x', ahead: 3, behind: 1 });
    const h = 'b'.repeat(40);
    const unmerged = parseStatusV2(`u UU N... 100644 100644 100644 100644 ${h} ${h} ${h} both changed.txt\0`);
    expect(unmerged.entries).toEqual([{ kind: 'unmerged', xy: 'UU', path: 'both changed.txt', submodule: false }]);
  });
});

describe('parseRawNumstat', () => {
  it('joins statuses and line counts of a real diff, renames and binaries included', () => {
    const files = Object.fromEntries(AWKWARD_NAMES.map((n) => [n, 'one\ntwo\n']));
    const repo = sb.repo('r', { ...files, 'moved from.txt': 'a\nb\nc\nd\ne\nf\n', 'bin.dat': 'x\0y', 'gone.txt': 'bye\n' });
    for (const n of AWKWARD_NAMES) sb.write(repo, { [n]: 'one\nthree\nfour\n' });
    sb.write(repo, { 'bin.dat': 'z\0z\0', 'added\nfile.txt': 'new\n' });
    sb.sh(repo, 'mv', 'moved from.txt', 'moved\tto ü.txt');
    sb.sh(repo, 'rm', '-q', 'gone.txt');
    sb.sh(repo, 'add', '-A');
    const entries = parseRawNumstat(sb.sh(repo, 'diff', 'HEAD', '--raw', '--numstat', '-z', '-M'));
    const byPath = Object.fromEntries(entries.map((e) => [e.path, e]));
    for (const n of AWKWARD_NAMES) expect(byPath[n]).toMatchObject({ status: 'M', added: 2, removed: 1, binary: false });
    expect(byPath['moved\tto ü.txt']).toMatchObject({ status: 'R', from: 'moved from.txt', added: 0, removed: 0 });
    expect(byPath['bin.dat']).toMatchObject({ status: 'M', binary: true, added: undefined, removed: undefined });
    expect(byPath['added\nfile.txt']).toMatchObject({ status: 'A', added: 1, removed: 0, srcMode: '000000', dstMode: '100644' });
    expect(byPath['gone.txt']).toMatchObject({ status: 'D', added: 0, removed: 1 });
    expect(entries).toHaveLength(AWKWARD_NAMES.length + 4);
  });

  it('reads --raw alone, with full object ids', () => {
    const out = `:100644 100755 ${'1'.repeat(40)} ${'2'.repeat(40)} T\0a\0:000000 120000 ${'0'.repeat(40)} ${'3'.repeat(40)} A\0:starts with colon\0`;
    expect(parseRawNumstat(out)).toEqual([
      { status: 'T', path: 'a', srcMode: '100644', dstMode: '100755', srcSha: '1'.repeat(40), dstSha: '2'.repeat(40), added: undefined, removed: undefined, binary: false },
      { status: 'A', path: ':starts with colon', srcMode: '000000', dstMode: '120000', srcSha: '0'.repeat(40), dstSha: '3'.repeat(40), added: undefined, removed: undefined, binary: false },
    ]);
  });
});

describe('parseWorktreeList', () => {
  it('reads main, linked, detached, locked and vanished worktrees with awkward folder names', () => {
    const repo = sb.repo('r', { 'a.txt': 'a\n' });
    const linked = join(sb.root, 'wt ü\nnew line');
    const detached = join(sb.root, 'detached');
    const gone = join(sb.root, 'gone');
    sb.sh(repo, 'worktree', 'add', '-q', '-b', 'feature/x', linked);
    sb.sh(repo, 'worktree', 'add', '-q', '--detach', detached);
    sb.sh(repo, 'worktree', 'add', '-q', '-b', 'gone', gone);
    sb.sh(repo, 'worktree', 'lock', '--reason', 'on a stick', detached);
    rmSync(gone, { recursive: true });
    const list = parseWorktreeList(sb.sh(repo, 'worktree', 'list', '--porcelain', '-z'));
    expect(list[0]!.path).toBe(repo);
    expect(list.map((w) => w.path).sort()).toEqual([repo, linked, detached, gone].sort());
    const at = (path: string) => list.find((w) => w.path === path)!;
    expect(at(repo)).toMatchObject({ branch: 'refs/heads/main', bare: false, detached: false, locked: undefined, prunable: undefined });
    expect(at(linked)).toMatchObject({ branch: 'refs/heads/feature/x', head: at(repo).head });
    expect(at(detached)).toMatchObject({ branch: undefined, detached: true, locked: 'on a stick' });
    expect(at(gone).prunable).toMatch(/non-existent/);
  });

  it('reads the line-based output of gits before 2.36', () => {
    const repo = sb.repo('r', { 'a.txt': 'a\n' });
    const linked = join(sb.root, 'wt ü');
    sb.sh(repo, 'worktree', 'add', '-q', '-b', 'x', linked);
    const list = parseWorktreeList(sb.sh(repo, 'worktree', 'list', '--porcelain'), '\n');
    expect(list.map((w) => [w.path, w.branch])).toEqual([
      [repo, 'refs/heads/main'],
      [linked, 'refs/heads/x'],
    ]);
  });
});
