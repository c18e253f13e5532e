import { existsSync } from 'node:fs';
import { open, readFile, rename, rm } from 'node:fs/promises';
import { branchExists } from './branches';
import type { Git } from './git';
import { GitError, isGitError } from './git-error';
import { conflictedFiles, namePaths, repositoryFacts, requireState, uncommittedChanges } from './repository';

/** Commit, merge and rebase run the repository's hooks (tests, linters): allow them minutes. */
const HOOKED_TIMEOUT_MS = 10 * 60_000;

/** Settings of the person's that would make these commands do more than asked (stash, move other branches, squash fixups). */
const PLAIN = ['-c', 'merge.autoStash=false', '-c', 'rebase.autoStash=false', '-c', 'rebase.updateRefs=false', '-c', 'rebase.autoSquash=false'];

/**
 * `Commit`: `git add -A` then `git commit` in the checkout, hooks and all. Nothing to commit is
 * `nothing_to_commit`; a failing hook is `failed` with the hook's words. When the commit fails,
 * the index is put back as it was before `add -A` (files a hook rewrote stay rewritten).
 */
export async function commitAll(git: Git, o: { dir: string; message: string }): Promise<{ commit: string }> {
  if (o.message.trim() === '') throw new GitError('invalid_argument', 'A commit needs a message.');
  const facts = await repositoryFacts(git, o.dir);
  requireState(facts, 'commit', { branch: true });
  const savedIndex = await readFile(facts.indexFile).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined; // no index yet: putting it back means removing it
    throw err;
  });
  const putBack = async (): Promise<void> => {
    if (savedIndex === undefined) await rm(facts.indexFile, { force: true });
    else await writeIndexLocked(facts.indexFile, savedIndex);
  };
  await git.run(['add', '-A'], { cwd: facts.topLevel });
  const staged = await git.run(['diff', '--cached', '--quiet', '--ignore-submodules=none'], { cwd: facts.topLevel, okExitCodes: [1] });
  if (staged.exitCode === 0) {
    await putBack();
    throw new GitError('nothing_to_commit', 'Nothing to commit: the files are as in the last commit.');
  }
  try {
    await git.run(['commit', '-q', '--no-edit', '-F', '-'], { cwd: facts.topLevel, stdin: o.message, timeoutMs: HOOKED_TIMEOUT_MS });
  } catch (err) {
    const head = await git.run(['rev-parse', '-q', '--verify', 'HEAD^{commit}'], { cwd: facts.topLevel, okExitCodes: [1] });
    if (head.stdout.trim() === (facts.head ?? '')) await putBack();
    if (isGitError(err, 'failed')) throw new GitError('failed', `The commit failed: ${err.stderr ?? err.message}`, { stderr: err.stderr, args: err.args, exitCode: err.exitCode });
    throw err;
  }
  return { commit: (await git.run(['rev-parse', 'HEAD'], { cwd: facts.topLevel })).stdout.trim() };
}

/**
 * Writes the index the way git does (`index.lock` made exclusively, then renamed over), so a git
 * running meanwhile is never handed a half-written index and one holding the lock is not overrun.
 */
async function writeIndexLocked(indexFile: string, bytes: Buffer): Promise<void> {
  const lock = `${indexFile}.lock`;
  const handle = await open(lock, 'wx').catch((err: NodeJS.ErrnoException) => {
    throw new GitError('failed', `Could not put the index back: ${err.code === 'EEXIST' ? `${lock} exists (another git is running)` : err.message}.`);
  });
  try {
    await handle.writeFile(bytes);
  } finally {
    await handle.close();
  }
  await rename(lock, indexFile);
}

export interface MergeOptions {
  /** The checkout the worktree was made from: it must be clean and on `baseBranch`. */
  repoDir: string;
  /** The session's branch. */
  branch: string;
  baseBranch: string;
  message: string;
  /** One commit with all the branch's changes (`merge --squash` + `commit`) instead of a merge commit. */
  squash?: boolean;
}

/**
 * `Merge`: merges `branch` into `baseBranch` in the person's checkout. Refuses unless that
 * checkout is on `baseBranch`, with no tracked change (untracked files are allowed: git itself
 * refuses, changing nothing, when the merge would overwrite one) and no operation under way.
 * A conflict aborts the merge (`merge --abort`, or `reset --merge` for a squash) and is reported
 * as `conflict` naming the files; the checkout is then as it was.
 */
export async function mergeBranch(git: Git, o: MergeOptions): Promise<{ commit: string }> {
  if (o.message.trim() === '') throw new GitError('invalid_argument', 'A merge needs a message.');
  const facts = await repositoryFacts(git, o.repoDir);
  const what = `merge ${o.branch} into ${o.baseBranch}`;
  requireState(facts, what, { branch: true, commit: true });
  if (facts.branch !== o.baseBranch) {
    throw new GitError('wrong_branch', `Cannot ${what}: ${facts.topLevel} is on ${facts.branch}, not ${o.baseBranch}. Switch it to ${o.baseBranch} first.`);
  }
  const changed = await uncommittedChanges(git, facts.topLevel, { untracked: false });
  if (changed.length > 0) {
    throw new GitError('dirty', `Cannot ${what}: ${facts.topLevel} has uncommitted changes (${namePaths(changed.map((c) => c.path))}). Commit or stash them first.`, { files: changed.map((c) => c.path) });
  }
  if (!(await branchExists(git, facts.topLevel, o.branch))) throw new GitError('not_found', `There is no branch named "${o.branch}".`);
  const ahead = await git.run(['rev-list', '--count', `HEAD..refs/heads/${o.branch}`, '--'], { cwd: facts.topLevel });
  if (Number(ahead.stdout.trim()) === 0) throw new GitError('nothing_to_merge', `${o.baseBranch} already has every commit of ${o.branch}. Commit the session's changes first.`);
  const top = facts.topLevel;
  const squashMsg = (await git.run(['rev-parse', '--path-format=absolute', '--git-path', 'SQUASH_MSG'], { cwd: top })).stdout.replace(/\n$/, '');
  const hadSquashMsg = existsSync(squashMsg);

  const undo = async (): Promise<string[]> => {
    const files = await conflictedFiles(git, top);
    const merging = await git.run(['rev-parse', '-q', '--verify', 'MERGE_HEAD'], { cwd: top, okExitCodes: [1] });
    if (merging.exitCode === 0) await git.run(['merge', '--abort'], { cwd: top });
    // A squash stages without MERGE_HEAD; a merge git refused at the start staged nothing (and then the index is left alone).
    else if ((await uncommittedChanges(git, top, { untracked: false })).length > 0) await git.run(['reset', '-q', '--merge'], { cwd: top });
    // `merge --squash` leaves its message for the next `git commit`; it was ours, not the person's.
    if (!hadSquashMsg) await rm(squashMsg, { force: true });
    return files;
  };
  const fail = async (err: unknown): Promise<never> => {
    const files = await undo();
    if (files.length > 0) {
      throw new GitError('conflict', `Merging ${o.branch} into ${o.baseBranch} conflicts in ${namePaths(files)}. The merge was aborted; both checkouts are as they were.`, { files, stderr: isGitError(err) ? err.stderr : undefined });
    }
    throw err;
  };

  if (!o.squash) {
    await git
      .run([...PLAIN, 'merge', '--no-ff', '--no-edit', '--no-autostash', '-m', o.message, `refs/heads/${o.branch}`], { cwd: top, timeoutMs: HOOKED_TIMEOUT_MS })
      .catch(fail);
  } else {
    // `merge.ff=false` in the person's config would make git refuse `--squash`.
    await git.run([...PLAIN, '-c', 'merge.ff=true', 'merge', '--squash', '--no-autostash', `refs/heads/${o.branch}`], { cwd: top, timeoutMs: HOOKED_TIMEOUT_MS }).catch(fail);
    const staged = await git.run(['diff', '--cached', '--quiet'], { cwd: top, okExitCodes: [1] });
    if (staged.exitCode === 0) {
      await undo();
      throw new GitError('nothing_to_merge', `${o.baseBranch} already has every change of ${o.branch}.`);
    }
    await git.run(['commit', '-q', '--no-edit', '-F', '-'], { cwd: top, stdin: o.message, timeoutMs: HOOKED_TIMEOUT_MS }).catch(fail);
  }
  return { commit: (await git.run(['rev-parse', 'HEAD'], { cwd: top })).stdout.trim() };
}

/**
 * `Rebase on base`: replays the worktree's commits on the base branch's tip. Refuses uncommitted
 * changes (untracked files included); a conflict aborts the rebase (`rebase --abort`) and is
 * reported as `conflict` naming the files, the worktree as it was.
 */
export async function rebaseOnBase(git: Git, o: { dir: string; baseBranch: string }): Promise<{ head: string; moved: boolean; baseCommit: string }> {
  const facts = await repositoryFacts(git, o.dir);
  const what = `rebase on ${o.baseBranch}`;
  requireState(facts, what, { branch: true, commit: true });
  const changed = await uncommittedChanges(git, facts.topLevel, { untracked: true });
  if (changed.length > 0) {
    throw new GitError('dirty', `Cannot ${what}: the worktree has uncommitted changes (${namePaths(changed.map((c) => c.path))}). Commit them first.`, { files: changed.map((c) => c.path) });
  }
  if (!(await branchExists(git, facts.topLevel, o.baseBranch))) throw new GitError('not_found', `There is no branch named "${o.baseBranch}".`);
  const top = facts.topLevel;
  // The tip the branch now starts from: the session's new base commit for its Changes list.
  const baseCommit = (await git.run(['rev-parse', '--verify', `refs/heads/${o.baseBranch}^{commit}`], { cwd: top })).stdout.trim();
  try {
    await git.run([...PLAIN, 'rebase', '--no-autostash', '--no-autosquash', baseCommit], { cwd: top, timeoutMs: HOOKED_TIMEOUT_MS });
  } catch (err) {
    const files = await conflictedFiles(git, top);
    const after = await repositoryFacts(git, top);
    if (after.operation === 'rebase') await git.run(['rebase', '--abort'], { cwd: top });
    if (files.length > 0) {
      throw new GitError('conflict', `Rebasing ${facts.branch} on ${o.baseBranch} conflicts in ${namePaths(files)}. The rebase was aborted; the worktree is as it was.`, { files, stderr: isGitError(err) ? err.stderr : undefined });
    }
    throw err;
  }
  const head = (await git.run(['rev-parse', 'HEAD'], { cwd: top })).stdout.trim();
  return { head, moved: head !== facts.head, baseCommit };
}
