import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Git } from './git';
import { repositoryFacts, requireState, uncommittedChanges } from './repository';
import { canonicalPath, checkWorktreeWanted, createWorktree, defaultWorktreePath, forgetWorktree, listWorktrees, primeIndex, type CreatedWorktree } from './worktrees';

/**
 * Checking out a big tree is most of a new worktree's cost (each file is created; on a slow disk
 * 10,000 files take seconds). A worktree can be prepared ahead, while the person fills in the
 * New session dialog: detached at HEAD, in a hidden folder beside where sessions' worktrees go.
 * Claiming it then costs a branch, a switch and a folder rename; if HEAD moved meanwhile only the
 * files that differ are rewritten.
 */
const PREPARED = '.prepared-';
const HOOKED_TIMEOUT_MS = 10 * 60_000;

export interface PreparedWorktree {
  path: string;
  /** The commit it holds. */
  commit: string;
  /** The checkout it was prepared from. */
  repo: string;
}

/** Starts a worktree for `repoDir` ahead of need (`git worktree add --detach`), under `root`. */
export async function prepareWorktree(git: Git, o: { repoDir: string; root: string }): Promise<PreparedWorktree> {
  const facts = await repositoryFacts(git, o.repoDir);
  requireState(facts, 'prepare a worktree', { branch: true, commit: true, noSubmodules: true });
  const folder = dirname(defaultWorktreePath(o.root, facts.topLevel, 'x'));
  await mkdir(folder, { recursive: true });
  const path = join(canonicalPath(folder), `${PREPARED}${randomBytes(4).toString('hex')}`);
  try {
    await git.run(['worktree', 'add', '--detach', '--', path, facts.head!], { cwd: facts.topLevel, timeoutMs: HOOKED_TIMEOUT_MS });
    await primeIndex(git, path);
  } catch (err) {
    await forgetWorktree(git, facts.topLevel, path);
    throw err;
  }
  return { path, commit: facts.head!, repo: facts.topLevel };
}

export interface ClaimOptions {
  prepared: PreparedWorktree;
  repoDir: string;
  branch: string;
  /** Where the session's worktree goes; on the same disk as the prepared one (it is renamed there). */
  path: string;
  allowSubmodules?: boolean;
}

/**
 * Makes a prepared worktree a session's: checks like `createWorktree` (refusing before anything
 * changes, the prepared worktree left for another try), brings it to the checkout's current
 * HEAD if that moved, makes the branch there and moves the folder to `path`. A prepared worktree
 * that is gone or was touched is discarded and a worktree is made the slow way.
 */
export async function claimWorktree(git: Git, o: ClaimOptions): Promise<CreatedWorktree> {
  const { facts, wanted } = await checkWorktreeWanted(git, o);
  if (!(await usable(git, facts.topLevel, o.prepared))) {
    await discardPreparedWorktree(git, o.prepared);
    return createWorktree(git, { repoDir: o.repoDir, branch: o.branch, path: o.path, allowSubmodules: o.allowSubmodules });
  }
  const baseCommit = facts.head!;
  const from = o.prepared.path;
  try {
    if (o.prepared.commit !== baseCommit) {
      await git.run(['checkout', '-q', '--detach', baseCommit], { cwd: from, timeoutMs: HOOKED_TIMEOUT_MS });
      await primeIndex(git, from);
    }
    await git.run(['checkout', '-q', '-b', o.branch], { cwd: from, timeoutMs: HOOKED_TIMEOUT_MS });
    await mkdir(dirname(wanted), { recursive: true });
    const path = canonicalPath(wanted);
    await git.run(['worktree', 'move', '--', from, path], { cwd: facts.topLevel });
    return { path, branch: o.branch, baseBranch: facts.branch!, baseCommit, repo: facts.topLevel, commonDir: facts.commonDir };
  } catch (err) {
    // Half-claimed: take it all back (the prepared worktree too; the next dialog prepares another).
    const registered = (await listWorktrees(git, facts.topLevel)).find((w) => w.branch === o.branch || w.path === from);
    await forgetWorktree(git, facts.topLevel, registered?.path ?? from);
    const tip = await git.run(['rev-parse', '-q', '--verify', `refs/heads/${o.branch}`], { cwd: facts.topLevel, okExitCodes: [1] });
    if (tip.exitCode === 0 && tip.stdout.trim() === baseCommit) await git.run(['branch', '-D', '--', o.branch], { cwd: facts.topLevel });
    throw err;
  }
}

/** Still registered, still detached at its commit, nothing changed in it. */
async function usable(git: Git, repo: string, prepared: PreparedWorktree): Promise<boolean> {
  const entry = (await listWorktrees(git, repo)).find((w) => w.path === prepared.path);
  if (!entry || entry.missing || entry.branch !== undefined || entry.head !== prepared.commit) return false;
  return (await uncommittedChanges(git, prepared.path, { untracked: true })).length === 0;
}

/** Removes a prepared worktree that will not be used (dialog cancelled, app quitting). */
export async function discardPreparedWorktree(git: Git, prepared: PreparedWorktree): Promise<void> {
  await forgetWorktree(git, prepared.repo, prepared.path);
}

/** Removes prepared worktrees of `repoDir` left by a crash: any worktree whose folder is named like one. */
export async function sweepPreparedWorktrees(git: Git, repoDir: string): Promise<string[]> {
  const leftovers = (await listWorktrees(git, repoDir)).filter((w) => !w.main && basename(w.path).startsWith(PREPARED)).map((w) => w.path);
  for (const path of leftovers) await forgetWorktree(git, repoDir, path);
  return leftovers;
}
