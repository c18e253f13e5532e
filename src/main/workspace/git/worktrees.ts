import { createHash } from 'node:crypto';
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { mkdir, rm, rmdir } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { branchExists, checkBranchName, slugify } from './branches';
import { createCheckpoint, type Checkpoint, type CheckpointTarget } from './checkpoints';
import { compareVersions, WORKTREE_LIST_Z, type Git } from './git';
import { GitError } from './git-error';
import { parseWorktreeList, type WorktreeRecord } from './parse';
import { namePaths, repositoryFacts, requireState, uncommittedChanges, type RepositoryFacts } from './repository';

/** Worktree operations run checkout hooks (`post-checkout` may install dependencies): minutes, not seconds. */
const HOOKED_TIMEOUT_MS = 10 * 60_000;

/**
 * Where a session's worktree goes by default: `<root>/<repo name>-<hash of the repo's path>/<branch slug>`.
 * The hash keeps two repositories of one name apart; `root` is `<data dir>/worktrees` unless configured.
 */
export function defaultWorktreePath(root: string, repoTopLevel: string, branch: string): string {
  const hash = createHash('sha256').update(resolve(repoTopLevel)).digest('hex').slice(0, 8);
  const repo = slugify(basename(repoTopLevel), 40) || 'repo';
  const leaf = slugify(branch.replace(/\//g, '-'), 60) || 'worktree';
  return join(root, `${repo}-${hash}`, leaf);
}

/** A path as git records it: symlinks resolved (as far as the path exists). */
export function canonicalPath(p: string): string {
  const abs = resolve(p);
  try {
    return realpathSync(abs);
  } catch {
    try {
      return join(realpathSync(dirname(abs)), basename(abs));
    } catch {
      return abs;
    }
  }
}

/**
 * `git worktree add` writes the new index without its tree cache, so every later `write-tree`
 * (each checkpoint) would hash the trees of all folders and look up every file's object: 60–100 ms
 * on 10,000 files instead of 15. One `write-tree` in the new worktree, whose index nobody else
 * uses yet, stores the cache (and, being written after the checkout, leaves no racily-clean entries).
 */
export async function primeIndex(git: Git, worktree: string): Promise<void> {
  await git.run(['write-tree'], { cwd: worktree });
}

/** Removes a folder this module made, if it is still empty (other worktrees may live in it). */
async function removeIfEmpty(dir: string): Promise<void> {
  try {
    await rmdir(dir);
  } catch {
    // not empty, or gone: either way nothing of ours is left in it
  }
}

export interface CreatedWorktree {
  /** The new worktree's folder (its top level). */
  path: string;
  branch: string;
  /** The branch the main checkout was on: merges go there. */
  baseBranch: string;
  /** The commit the branch starts at: changes are listed against it. */
  baseCommit: string;
  /** The checkout the worktree was made from (where `Merge` runs). */
  repo: string;
  /** The repository's shared git folder. */
  commonDir: string;
}

export interface CreateWorktreeOptions {
  /** The folder the person chose: any folder inside the repository's checkout. */
  repoDir: string;
  branch: string;
  /** The new worktree's folder; it must not exist, or be empty. */
  path: string;
  /** Make it even though the repository has submodules (they are not checked out in the worktree). */
  allowSubmodules?: boolean;
}

/**
 * What must hold before a worktree is made (or a prepared one claimed), checked before anything
 * changes: a branch checked out at a commit, no merge or rebase under way, no submodules unless
 * allowed, a valid free branch name, an empty or missing folder. Returns the repository's facts
 * and the folder, resolved.
 */
export async function checkWorktreeWanted(git: Git, o: CreateWorktreeOptions): Promise<{ facts: RepositoryFacts; wanted: string }> {
  const facts = await repositoryFacts(git, o.repoDir);
  requireState(facts, 'make a worktree', { branch: true, commit: true, noSubmodules: !o.allowSubmodules });
  const name = await checkBranchName(git, facts.topLevel, o.branch);
  if (!name.ok) throw new GitError(name.problem === 'invalid' ? 'invalid_branch' : 'branch_taken', name.message);
  const wanted = resolve(o.path);
  if (existsSync(wanted) && readdirSync(wanted).length > 0) throw new GitError('already_exists', `Cannot make the worktree: ${wanted} already exists and is not empty.`);
  return { facts, wanted };
}

/**
 * `git worktree add -b <branch> <path> <HEAD commit>`: a new branch from the checkout's current
 * commit, in a new folder. Refuses a detached or unborn HEAD, a merge or rebase under way,
 * submodules (unless allowed), a bad or taken branch name and an occupied folder, before
 * anything is made. If git fails half-way (a failing `post-checkout` hook, a full disk), the
 * worktree, its folder and the branch are removed again.
 */
export async function createWorktree(git: Git, o: CreateWorktreeOptions): Promise<CreatedWorktree> {
  const { facts, wanted } = await checkWorktreeWanted(git, o);
  const baseCommit = facts.head!;
  const madeParent = !existsSync(dirname(wanted));
  await mkdir(dirname(wanted), { recursive: true });
  const path = canonicalPath(wanted);
  try {
    await git.run(['worktree', 'add', '-b', o.branch, '--', path, baseCommit], { cwd: facts.topLevel, timeoutMs: HOOKED_TIMEOUT_MS });
    await primeIndex(git, path);
  } catch (err) {
    await undoCreate(git, facts.topLevel, path, o.branch, baseCommit, madeParent).catch((undoErr: unknown) => {
      throw new GitError(err instanceof GitError ? err.code : 'failed', `${(err as Error).message} Cleaning up after it also failed: ${(undoErr as Error).message}`, err instanceof GitError ? { stderr: err.stderr, args: err.args } : {});
    });
    throw err;
  }
  return { path, branch: o.branch, baseBranch: facts.branch!, baseCommit, repo: facts.topLevel, commonDir: facts.commonDir };
}

/** Takes back a half-made worktree: its registration and folder, and the branch if it is still the new one. */
async function undoCreate(git: Git, repo: string, path: string, branch: string, baseCommit: string, madeParent: boolean): Promise<void> {
  await forgetWorktree(git, repo, path);
  if (madeParent) await removeIfEmpty(dirname(path));
  const tip = await git.run(['rev-parse', '-q', '--verify', `refs/heads/${branch}`], { cwd: repo, okExitCodes: [1] });
  if (tip.exitCode === 0 && tip.stdout.trim() === baseCommit) await git.run(['branch', '-D', '--', branch], { cwd: repo });
}

/**
 * Removes a worktree this module made, whatever state it is in: `worktree remove --force
 * --force`, its folder, and (only if git still lists it) a prune.
 */
export async function forgetWorktree(git: Git, repo: string, path: string): Promise<void> {
  const listed = async (): Promise<boolean> => (await listWorktrees(git, repo)).some((w) => w.path === path);
  if (await listed()) await git.run(['worktree', 'remove', '--force', '--force', '--', path], { cwd: repo, okExitCodes: [128] });
  await rm(path, { recursive: true, force: true });
  if (await listed()) await git.run(['worktree', 'prune'], { cwd: repo });
}

export interface WorktreeInfo {
  path: string;
  /** Short branch name; `undefined` when detached. */
  branch: string | undefined;
  head: string | undefined;
  /** The repository's main checkout (always listed first by git). */
  main: boolean;
  /** Its folder is gone: `pruneWorktrees` will forget it. */
  missing: boolean;
  locked: boolean;
}

/** `git worktree list --porcelain -z` (line-based before git 2.36), main checkout first. */
export async function listWorktrees(git: Git, repoDir: string): Promise<WorktreeInfo[]> {
  const nul = compareVersions(await git.version(), WORKTREE_LIST_Z) >= 0;
  const r = await git.run(['worktree', 'list', '--porcelain', ...(nul ? ['-z'] : [])], { cwd: repoDir });
  return parseWorktreeList(r.stdout, nul ? '\0' : '\n').map((w: WorktreeRecord, i) => ({
    path: w.path,
    branch: w.branch?.startsWith('refs/heads/') ? w.branch.slice('refs/heads/'.length) : undefined,
    head: w.head,
    main: i === 0,
    missing: w.prunable !== undefined,
    locked: w.locked !== undefined,
  }));
}

/**
 * Forgets worktrees whose folder vanished (`git worktree prune`) when one of `paths` (the app's own
 * worktrees; all when not given) is among them. git's prune forgets every vanished worktree of
 * the repository, as `git gc` would: `alsoPruned` names the ones that were not the app's.
 */
export async function pruneWorktrees(git: Git, repoDir: string, paths?: readonly string[]): Promise<{ pruned: string[]; alsoPruned: string[] }> {
  const missing = (await listWorktrees(git, repoDir)).filter((w) => w.missing && !w.locked).map((w) => w.path);
  const ours = paths ? missing.filter((p) => paths.includes(p)) : missing;
  if (ours.length === 0) return { pruned: [], alsoPruned: [] };
  await git.run(['worktree', 'prune'], { cwd: repoDir });
  return { pruned: ours, alsoPruned: missing.filter((p) => !ours.includes(p)) };
}

/**
 * Removes a worktree folder (`git worktree remove`); its branch stays. Refuses when it holds
 * uncommitted work (untracked files included): use `checkpointAndRemoveWorktree`. A folder that
 * is already gone is just forgotten. Ignored files inside go with the folder.
 */
export async function removeWorktree(git: Git, o: { repoDir: string; path: string }): Promise<void> {
  const path = canonicalPath(o.path);
  const known = (await listWorktrees(git, o.repoDir)).find((w) => w.path === path);
  if (!known) throw new GitError('not_found', `${path} is not a worktree of this repository.`);
  if (known.main) throw new GitError('invalid_argument', `${path} is the repository's main checkout; it is never removed.`);
  if (!existsSync(path)) {
    await git.run(['worktree', 'prune'], { cwd: o.repoDir });
    return;
  }
  const changes = await uncommittedChanges(git, path, { untracked: true });
  if (changes.length > 0) {
    throw new GitError('dirty', `${path} has uncommitted changes (${namePaths(changes.map((c) => c.path))}); checkpoint them before removing it.`, { files: changes.map((c) => c.path) });
  }
  await git.run(['worktree', 'remove', '--', path], { cwd: o.repoDir, timeoutMs: HOOKED_TIMEOUT_MS });
}

/**
 * Archive: checkpoints the worktree's uncommitted files (if any) on the session's refs, then
 * removes its folder; the branch stays, so `recreateWorktree` brings it back and the checkpoint
 * restores what was uncommitted. Returns the checkpoint, or `undefined` when nothing was uncommitted.
 */
export async function checkpointAndRemoveWorktree(git: Git, o: { repoDir: string } & CheckpointTarget): Promise<Checkpoint | undefined> {
  const path = canonicalPath(o.dir);
  const known = (await listWorktrees(git, o.repoDir)).find((w) => w.path === path);
  if (!known) throw new GitError('not_found', `${path} is not a worktree of this repository.`);
  if (known.main) throw new GitError('invalid_argument', `${path} is the repository's main checkout; it is never removed.`);
  if (!existsSync(path)) {
    await git.run(['worktree', 'prune'], { cwd: o.repoDir });
    return undefined;
  }
  const dirty = (await uncommittedChanges(git, path, { untracked: true })).length > 0;
  const checkpoint = dirty ? await createCheckpoint(git, { ...o, dir: path }) : undefined;
  await git.run(['worktree', 'remove', '--force', '--', path], { cwd: o.repoDir, timeoutMs: HOOKED_TIMEOUT_MS });
  return checkpoint;
}

/** Restore of an archived session: `git worktree add <path> <branch>` for the branch it kept. */
export async function recreateWorktree(git: Git, o: { repoDir: string; branch: string; path: string }): Promise<{ path: string; head: string }> {
  const wanted = resolve(o.path);
  if (!(await branchExists(git, o.repoDir, o.branch))) throw new GitError('not_found', `The branch "${o.branch}" no longer exists.`);
  const holder = (await listWorktrees(git, o.repoDir)).find((w) => w.branch === o.branch && !w.missing);
  if (holder) throw new GitError('already_exists', `The branch "${o.branch}" is already checked out at ${holder.path}.`);
  if (existsSync(wanted) && readdirSync(wanted).length > 0) throw new GitError('already_exists', `Cannot make the worktree: ${wanted} already exists and is not empty.`);
  // A registration left by a vanished folder (at this path or holding the branch) would block the add.
  await git.run(['worktree', 'prune'], { cwd: o.repoDir });
  const madeParent = !existsSync(dirname(wanted));
  await mkdir(dirname(wanted), { recursive: true });
  const path = canonicalPath(wanted);
  try {
    await git.run(['worktree', 'add', '--', path, o.branch], { cwd: o.repoDir, timeoutMs: HOOKED_TIMEOUT_MS });
    await primeIndex(git, path);
  } catch (err) {
    await forgetWorktree(git, o.repoDir, path);
    if (madeParent) await removeIfEmpty(dirname(path));
    throw err;
  }
  const head = (await git.run(['rev-parse', 'HEAD'], { cwd: path })).stdout.trim();
  return { path, head };
}
