import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Git } from './git';
import { GitError } from './git-error';
import { parseStatusV2, splitNul, type StatusEntry } from './parse';

/** A multi-step operation git has under way in a checkout (its files are in the git folder). */
export type GitOperation = 'merge' | 'rebase' | 'cherry-pick' | 'revert' | 'bisect';

export interface RepositoryFacts {
  /** The top folder of the checkout the asked folder is in. */
  topLevel: string;
  /** This checkout's own git folder (`.git`, or `.git/worktrees/<name>` for a linked worktree). */
  gitDir: string;
  /** The repository's shared git folder: where branches, objects and other worktrees live. */
  commonDir: string;
  /** This checkout is a linked worktree (`git worktree add`), not the main one. */
  linkedWorktree: boolean;
  /** This checkout's index file. */
  indexFile: string;
  /** HEAD's commit; `undefined` on an unborn branch (no commit yet). */
  head: string | undefined;
  /** The checked-out branch's short name; `undefined` when HEAD is detached. */
  branch: string | undefined;
  /** `.gitmodules` at the top: submodules are not checked out in new worktrees nor restored by checkpoints. */
  hasSubmodules: boolean;
  operation: GitOperation | undefined;
}

export type FolderProbe =
  | { kind: 'repository'; facts: RepositoryFacts }
  /** A bare repository, or a folder inside a git folder: no files to work on. */
  | { kind: 'no_work_tree'; gitDir: string; bare: boolean }
  | { kind: 'not_repository' };

const OPERATION_FILES: readonly [string, GitOperation][] = [
  ['MERGE_HEAD', 'merge'],
  ['rebase-merge', 'rebase'],
  ['rebase-apply', 'rebase'],
  ['CHERRY_PICK_HEAD', 'cherry-pick'],
  ['REVERT_HEAD', 'revert'],
  ['BISECT_LOG', 'bisect'],
];

/** Is `dir` inside a git checkout, and what is it: four `git rev-parse`-family calls, run together. */
export async function probeFolder(git: Git, dir: string): Promise<FolderProbe> {
  const gitPaths = ['index', ...OPERATION_FILES.map(([file]) => file)];
  const [paths, top, symbolic, head] = await Promise.all([
    git.run(['rev-parse', '--path-format=absolute', '--is-bare-repository', '--is-inside-work-tree', '--git-dir', '--git-common-dir', ...gitPaths.flatMap((p) => ['--git-path', p])], { cwd: dir, okExitCodes: [128] }),
    git.run(['rev-parse', '--show-toplevel'], { cwd: dir, okExitCodes: [128] }),
    git.run(['symbolic-ref', '-q', 'HEAD'], { cwd: dir, okExitCodes: [1, 128] }),
    git.run(['rev-parse', '-q', '--verify', 'HEAD^{commit}'], { cwd: dir, okExitCodes: [1, 128] }),
  ]);
  if (paths.exitCode !== 0) {
    if (/not a git repository/i.test(paths.stderr)) return { kind: 'not_repository' };
    throw new GitError(/dubious ownership/.test(paths.stderr) ? 'unsafe_repository' : 'failed', `git rev-parse failed in ${dir}: ${paths.stderr}`, { stderr: paths.stderr, exitCode: paths.exitCode });
  }
  const lines = paths.stdout.replace(/\n$/, '').split('\n');
  // One line per answer: a folder name holding a newline would shift them all.
  if (lines.length !== 4 + gitPaths.length) throw new GitError('unsupported_path', `Switchboard cannot work in a repository whose folder name contains a line break (${JSON.stringify(dir)}).`);
  const [bare, inside, gitDir, commonDir, indexFile, ...opFiles] = lines as [string, string, string, string, string, ...string[]];
  if (inside !== 'true' || top.exitCode !== 0) return { kind: 'no_work_tree', gitDir, bare: bare === 'true' };
  const topLevel = top.stdout.replace(/\n$/, '');
  const ref = symbolic.exitCode === 0 ? symbolic.stdout.trim() : undefined;
  const operationAt = opFiles.findIndex((file) => existsSync(file));
  return {
    kind: 'repository',
    facts: {
      topLevel,
      gitDir,
      commonDir,
      linkedWorktree: gitDir !== commonDir,
      indexFile,
      head: head.exitCode === 0 ? head.stdout.trim() : undefined,
      branch: ref?.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : undefined,
      hasSubmodules: existsSync(join(topLevel, '.gitmodules')),
      operation: operationAt < 0 ? undefined : OPERATION_FILES[operationAt]![1],
    },
  };
}

/** The facts of the checkout `dir` is in; a folder outside any checkout is a GitError. */
export async function repositoryFacts(git: Git, dir: string): Promise<RepositoryFacts> {
  const probe = await probeFolder(git, dir);
  if (probe.kind === 'repository') return probe.facts;
  if (probe.kind === 'no_work_tree') {
    throw new GitError('bare_repository', probe.bare ? `${dir} is a bare repository: it has no files to work on.` : `${dir} is inside a git folder, not a checkout.`);
  }
  throw new GitError('not_a_repository', `${dir} is not inside a git repository.`);
}

export interface Requirements {
  /** HEAD must be on a branch, not detached (an unborn branch passes unless `commit` is asked too). */
  branch?: boolean;
  /** HEAD must have a commit. */
  commit?: boolean;
  /** No submodules. */
  noSubmodules?: boolean;
}

/**
 * Refuses, before anything is touched, a checkout in a state an operation cannot finish from:
 * a merge/rebase/cherry-pick/revert/bisect under way, and what `needs` asks for.
 */
export function requireState(facts: RepositoryFacts, what: string, needs: Requirements = {}): void {
  if (facts.operation) {
    throw new GitError('operation_in_progress', `Cannot ${what}: a ${facts.operation} is under way in ${facts.topLevel}. Finish or abort it first.`);
  }
  if (needs.commit && facts.head === undefined) {
    throw new GitError('unborn_head', `Cannot ${what}: the repository at ${facts.topLevel} has no commit yet. Make a first commit.`);
  }
  if (needs.branch && facts.branch === undefined) {
    throw new GitError('detached_head', `Cannot ${what}: HEAD is detached in ${facts.topLevel}. Check out a branch first.`);
  }
  if (needs.noSubmodules && facts.hasSubmodules) {
    throw new GitError('submodules', `Cannot ${what}: the repository at ${facts.topLevel} has submodules, which Switchboard does not handle yet.`);
  }
}

/**
 * What is uncommitted in the checkout at `dir`: tracked changes (staged or not), and untracked
 * files when `untracked` is set (ignored files never). Folders of untracked files count once.
 */
export async function uncommittedChanges(git: Git, dir: string, options: { untracked: boolean }): Promise<StatusEntry[]> {
  const r = await git.run(['status', '--porcelain=v2', '-z', `--untracked-files=${options.untracked ? 'normal' : 'no'}`, '--ignore-submodules=none'], { cwd: dir });
  return parseStatusV2(r.stdout).entries.filter((e) => e.kind !== 'ignored');
}

/** The files a stopped merge or rebase left in conflict. */
export async function conflictedFiles(git: Git, dir: string): Promise<string[]> {
  const r = await git.run(['diff', '--name-only', '--diff-filter=U', '-z', '--no-relative'], { cwd: dir });
  return [...new Set(splitNul(r.stdout))];
}

/** A short list of paths for a message: the first few, then how many more. */
export function namePaths(paths: readonly string[], max = 5): string {
  const shown = paths.slice(0, max).map((p) => JSON.stringify(p)).join(', ');
  return paths.length > max ? `${shown} and ${paths.length - max} more` : shown;
}

/**
 * A revision (commit id, ref name) about to go on git's command line: one starting with `-`
 * would be read as an option (`--output=…` writes a file), so it is refused before git runs.
 */
export function rev(value: string, what = 'revision'): string {
  if (value === '' || value.startsWith('-') || /[\s\0]/.test(value)) throw new GitError('invalid_argument', `Not a valid ${what}: ${JSON.stringify(value)}.`);
  return value;
}
