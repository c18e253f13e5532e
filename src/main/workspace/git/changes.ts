import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Git } from './git';
import { parseRawNumstat, splitNul, type DiffEntry } from './parse';
import { rev } from './repository';

export type ChangeStatus = 'added' | 'modified' | 'deleted' | 'renamed' | 'untracked';

export interface ChangedFile {
  /** Relative to the checkout's top, `/`-separated; the new path of a rename. */
  path: string;
  /** The old path of a rename. */
  from?: string;
  status: ChangeStatus;
  /** Not known to git yet (never added): the new file of an `untracked` entry or of a rename. */
  untracked: boolean;
  binary: boolean;
  /** Lines added and removed; `undefined` for a binary file. */
  added: number | undefined;
  removed: number | undefined;
}

export interface ChangesList {
  files: ChangedFile[];
  /** More files changed than `maxFiles`: `files` holds the first ones by path. */
  truncated: boolean;
  /** How many changed files were found (untracked ones past the cap counted one each). */
  total: number;
}

export interface ChangesOptions {
  /** The checkout (a session's worktree, or a plain repository folder). */
  dir: string;
  /** The commit to compare with: the worktree's base commit. */
  base: string;
  /** At most this many files are listed (default 2,000). */
  maxFiles?: number;
  /** Where a throwaway index may go (default the OS temp folder). */
  scratchDir?: string;
}

/** Flags every diff here gets: no external diff or textconv programs, no colour, paths from the top. */
const DIFF_FLAGS = ['--no-ext-diff', '--no-textconv', '--no-color', '--no-relative'];

/**
 * Every file that differs between `base` and the checkout's files: committed on the branch,
 * staged, unstaged and untracked (not ignored), renames paired. Reads only: the checkout's index
 * is not written (no optional locks).
 *
 * Two git passes over the tree, run together: `git diff <base> --raw --numstat -M` (tracked
 * paths, against the files through the index's stat cache) and `git ls-files --others
 * --exclude-standard` (untracked). Then, for the untracked files (capped) and the unpaired
 * deletions only, a diff through a throwaway index holding the untracked files as
 * intent-to-add: git counts their lines, marks binaries by its own rules (`.gitattributes`
 * included) and pairs a deleted file with its moved copy as a rename. That last diff is limited
 * to those paths, so it costs milliseconds however big the repository is.
 */
export async function listChanges(git: Git, o: ChangesOptions): Promise<ChangesList> {
  const maxFiles = o.maxFiles ?? 2000;
  // Refused before any call starts: a call left running after a throw would fail unheard.
  const baseRev = rev(o.base, 'base commit');
  const [top, tracked, others] = await Promise.all([
    git.run(['rev-parse', '--show-toplevel'], { cwd: o.dir }).then((r) => r.stdout.replace(/\n$/, '')),
    git.run(['diff', baseRev, '--raw', '--numstat', '-z', '-M', ...DIFF_FLAGS, '--'], { cwd: o.dir }).then((r) => parseRawNumstat(r.stdout)),
    git.run(['ls-files', '--others', '--exclude-standard', '-z', '--full-name'], { cwd: o.dir }).then((r) => splitNul(r.stdout)),
  ]);
  // A nested repository is listed as its folder (`sub/`): it is one untracked entry, not diffed.
  const nested = others.filter((p) => p.endsWith('/'));
  const untracked = others.filter((p) => !p.endsWith('/'));
  const files = new Map<string, ChangedFile>();
  const deleted: DiffEntry[] = [];
  for (const e of tracked) {
    if (e.status === 'D') deleted.push(e);
    else files.set(e.path, toChangedFile(e, false));
  }
  const diffed = untracked.slice(0, maxFiles);
  // Pathspecs go on the command line: past the cap, deletions are listed without pairing.
  const pairable = diffed.length > 0 ? deleted.slice(0, maxFiles) : [];
  for (const e of deleted.slice(pairable.length)) files.set(e.path, toChangedFile(e, false));
  if (diffed.length > 0) {
    const isUntracked = new Set(diffed);
    for (const e of await diffUntracked(git, top, o.base, diffed, pairable.map((e) => e.path), o.scratchDir)) {
      files.set(e.path, toChangedFile(e, isUntracked.has(e.path)));
    }
  }
  for (const path of nested) files.set(path, { path, status: 'untracked', untracked: true, binary: false, added: undefined, removed: undefined });
  const all = [...files.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const total = all.length + (untracked.length - diffed.length);
  return { files: all.slice(0, maxFiles), truncated: total > maxFiles, total };
}

/**
 * The untracked files as git sees them against `base`, with the deleted tracked files as
 * candidates for renames: a diff through a throwaway index holding only the untracked files
 * (intent-to-add), limited to those paths and the deletions.
 */
async function diffUntracked(git: Git, top: string, base: string, untracked: readonly string[], deleted: readonly string[], scratchDir?: string): Promise<DiffEntry[]> {
  const scratch = await mkdtemp(join(scratchDir ?? tmpdir(), 'switchboard-changes-'));
  try {
    const env = { GIT_INDEX_FILE: join(scratch, 'index'), GIT_LITERAL_PATHSPECS: '1' };
    await git.run(['add', '--intent-to-add', '--pathspec-from-file=-', '--pathspec-file-nul'], { cwd: top, env, stdin: untracked.map((p) => `${p}\0`).join('') });
    const r = await git.run(['diff', base, '--raw', '--numstat', '-z', '-M', ...DIFF_FLAGS, '--', ...untracked, ...deleted], { cwd: top, env });
    return parseRawNumstat(r.stdout);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function toChangedFile(e: DiffEntry, untracked: boolean): ChangedFile {
  const status: ChangeStatus = e.status === 'R' ? 'renamed' : e.status === 'D' ? 'deleted' : e.status === 'A' ? (untracked ? 'untracked' : 'added') : 'modified';
  const file: ChangedFile = { path: e.path, status, untracked, binary: e.binary, added: e.added, removed: e.removed };
  if (e.from !== undefined) file.from = e.from;
  return file;
}

export interface FileDiff {
  path: string;
  from?: string;
  binary: boolean;
  /** A unified diff (`a/` and `b/` prefixes), an untracked file as all added; empty for a binary file. */
  text: string;
  /** The diff was longer than `maxBytes` and is cut there. */
  truncated: boolean;
}

export interface FileDiffOptions {
  dir: string;
  base: string;
  /** The entry of `listChanges` to show. */
  file: Pick<ChangedFile, 'path' | 'from' | 'untracked'>;
  /** Default 1 MiB. */
  maxBytes?: number;
  scratchDir?: string;
  /** Lines of context (default 3). */
  context?: number;
}

/** The unified diff of one changed file against `base`, for the highlighted view; capped at `maxBytes`. */
export async function fileDiff(git: Git, o: FileDiffOptions): Promise<FileDiff> {
  const maxBytes = o.maxBytes ?? 1024 * 1024;
  const paths = o.file.from !== undefined ? [o.file.from, o.file.path] : [o.file.path];
  const args = ['diff', rev(o.base, 'base commit'), '-M', `-U${o.context ?? 3}`, '--src-prefix=a/', '--dst-prefix=b/', ...DIFF_FLAGS, '--', ...paths];
  const run = async (cwd: string, env: Record<string, string>): Promise<FileDiff> => {
    const r = await git.run(args, { cwd, env: { ...env, GIT_LITERAL_PATHSPECS: '1' }, maxBytes, overflow: 'truncate' });
    const binary = /^Binary files .* differ$/m.test(r.stdout);
    const diff: FileDiff = { path: o.file.path, binary, text: binary ? '' : r.stdout, truncated: r.truncated };
    if (o.file.from !== undefined) diff.from = o.file.from;
    return diff;
  };
  const top = (await git.run(['rev-parse', '--show-toplevel'], { cwd: o.dir })).stdout.replace(/\n$/, '');
  if (!o.file.untracked) return run(top, {});
  const scratch = await mkdtemp(join(o.scratchDir ?? tmpdir(), 'switchboard-diff-'));
  try {
    const env = { GIT_INDEX_FILE: join(scratch, 'index'), GIT_LITERAL_PATHSPECS: '1' };
    await git.run(['add', '--intent-to-add', '--', o.file.path], { cwd: top, env });
    return await run(top, env);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
