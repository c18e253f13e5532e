import type { Git } from './git';
import { GitError } from './git-error';
import { parseStatusV2 } from './parse';
import { rev } from './repository';

export interface WorktreeBase {
  /** The branch the worktree was made from (merges go into it). */
  branch: string;
  /** The commit it was made from (changes are listed against it). */
  commit: string;
}

export interface WorktreeStatus {
  /** The branch checked out; `undefined` when detached. */
  branch: string | undefined;
  head: string | undefined;
  base: WorktreeBase;
  /** Commits on HEAD that the base branch lacks. */
  ahead: number;
  /** Commits on the base branch that HEAD lacks (the base moved on). */
  behind: number;
  /** Uncommitted changes of any kind, untracked files included (ignored ones not). */
  dirty: boolean;
  /** How many paths are uncommitted (an untracked folder counts once). */
  uncommitted: number;
}

/**
 * What the header shows: branch, base, ahead/behind, dirty. Two git calls, together: `status
 * --porcelain=v2 --branch` and `rev-list --left-right --count <base>...HEAD` (against the base
 * branch's tip; its recorded commit if that branch is gone).
 */
export async function worktreeStatus(git: Git, dir: string, base: WorktreeBase): Promise<WorktreeStatus> {
  const [status, counts] = await Promise.all([
    git.run(['status', '--porcelain=v2', '-z', '--branch', '--untracked-files=normal'], { cwd: dir }).then((r) => parseStatusV2(r.stdout)),
    aheadBehind(git, dir, base),
  ]);
  const uncommitted = status.entries.filter((e) => e.kind !== 'ignored').length;
  // An unborn HEAD has nothing ahead or behind.
  if (counts instanceof GitError && status.branch.oid !== undefined) throw counts;
  const { ahead, behind } = counts instanceof GitError ? { ahead: 0, behind: 0 } : counts;
  return { branch: status.branch.head, head: status.branch.oid, base, ahead, behind, dirty: uncommitted > 0, uncommitted };
}

async function aheadBehind(git: Git, dir: string, base: WorktreeBase): Promise<{ ahead: number; behind: number } | GitError> {
  const branchRef = `refs/heads/${base.branch}`;
  const exists = await git.run(['rev-parse', '-q', '--verify', `${branchRef}^{commit}`], { cwd: dir, okExitCodes: [1] });
  const from = exists.exitCode === 0 ? branchRef : rev(base.commit, 'base commit');
  try {
    const r = await git.run(['rev-list', '--left-right', '--count', `${from}...HEAD`, '--'], { cwd: dir });
    const [behind = 0, ahead = 0] = r.stdout.trim().split(/\s+/).map(Number);
    return { ahead, behind };
  } catch (err) {
    if (err instanceof GitError) return err;
    throw err;
  }
}
