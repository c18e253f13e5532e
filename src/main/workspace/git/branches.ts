import type { Git } from './git';
import { GitError } from './git-error';
import { rev } from './repository';

export type BranchCheck =
  | { ok: true; name: string }
  | {
      ok: false;
      /** `invalid`: not a valid branch name; `taken`: a branch has it; `conflicts`: a branch is a folder of it or inside it (`a` vs `a/b`). */
      problem: 'invalid' | 'taken' | 'conflicts';
      message: string;
    };

/** The branch names of the repository at `repoDir` (short names). */
export async function listBranches(git: Git, repoDir: string): Promise<string[]> {
  const r = await git.run(['for-each-ref', '--format=%(refname)', 'refs/heads/'], { cwd: repoDir });
  return r.stdout
    .split('\n')
    .filter((line) => line.startsWith('refs/heads/'))
    .map((ref) => ref.slice('refs/heads/'.length));
}

/**
 * Can a new branch be called `name` here: valid for `git check-ref-format --branch` (which also
 * refuses `HEAD`, a leading `-`, `..`, `.lock`, spaces…), and free (no branch of that name, none
 * that is a folder of it or inside it: git stores `a` and `a/b` as a file and a folder).
 */
export async function checkBranchName(git: Git, repoDir: string, name: string): Promise<BranchCheck> {
  const valid = await validBranchName(git, repoDir, name);
  if (!valid.ok) return valid;
  return branchFree(name, await listBranches(git, repoDir));
}

async function validBranchName(git: Git, repoDir: string, name: string): Promise<BranchCheck> {
  if (name.trim() === '') return { ok: false, problem: 'invalid', message: 'A branch needs a name.' };
  if (name.startsWith('-')) return { ok: false, problem: 'invalid', message: `"${name}" is not a valid branch name: it may not start with "-".` };
  const r = await git.run(['check-ref-format', '--branch', name], { cwd: repoDir, okExitCodes: [1, 128] });
  // `--branch` expands `@{-1}` to the previous branch: a name that comes back changed is not a plain name.
  if (r.exitCode !== 0 || r.stdout.replace(/\n$/, '') !== name) {
    return { ok: false, problem: 'invalid', message: `"${name}" is not a valid branch name.` };
  }
  return { ok: true, name };
}

function branchFree(name: string, branches: readonly string[]): BranchCheck {
  const lower = name.toLowerCase();
  for (const b of branches) {
    if (b === name) return { ok: false, problem: 'taken', message: `A branch named "${name}" already exists.` };
    // Refs are files: on a case-insensitive disk `Fix` and `fix` are one file.
    if (b.toLowerCase() === lower) return { ok: false, problem: 'taken', message: `A branch named "${b}" already exists (names differing only in case clash on some disks).` };
    if (name.startsWith(`${b}/`)) return { ok: false, problem: 'conflicts', message: `"${name}" cannot be made while a branch named "${b}" exists.` };
    if (b.startsWith(`${name}/`)) return { ok: false, problem: 'conflicts', message: `"${name}" cannot be made while a branch named "${b}" exists.` };
  }
  return { ok: true, name };
}

/** Lower-case ASCII words joined by `-`, at most `max` characters: "Fix the Ümlaut bug!" → "fix-the-umlaut-bug". */
export function slugify(text: string, max = 40): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug.slice(0, max).replace(/-+$/, '');
}

export interface SuggestOptions {
  /** The session's title (may be empty). */
  title: string;
  /** A short id of the session, used when the title gives nothing or its name is taken. */
  shortId: string;
  /** Put before every suggestion, e.g. `switchboard/`. */
  prefix?: string;
}

/** A branch name from a title that is valid and free here: `fix-login`, else `fix-login-<id>`, else numbered. */
export async function suggestBranchName(git: Git, repoDir: string, o: SuggestOptions): Promise<string> {
  const prefix = o.prefix ?? '';
  const id = slugify(o.shortId, 12) || 'session';
  const stem = slugify(o.title);
  const branches = await listBranches(git, repoDir);
  const withId = stem ? `${prefix}${stem}-${id}` : `${prefix}session-${id}`;
  const candidates = stem ? [`${prefix}${stem}`, withId] : [withId];
  for (let n = 2; n < 100; n++) candidates.push(`${withId}-${n}`);
  for (const name of candidates) {
    if (!branchFree(name, branches).ok) continue;
    if ((await validBranchName(git, repoDir, name)).ok) return name;
  }
  throw new GitError('branch_taken', `No free branch name found for "${o.title}".`);
}

/** Whether `refs/heads/<name>` exists. */
export async function branchExists(git: Git, repoDir: string, name: string): Promise<boolean> {
  const r = await git.run(['show-ref', '--verify', '--quiet', `refs/heads/${name}`], { cwd: repoDir, okExitCodes: [1] });
  return r.exitCode === 0;
}

/** How many commits `branch` has that `base` (a branch name or a commit) does not: work a delete would lose. */
export async function commitsNotIn(git: Git, repoDir: string, branch: string, base: string): Promise<number> {
  const baseRev = (await branchExists(git, repoDir, base)) ? `refs/heads/${base}` : rev(base, 'base');
  const r = await git.run(['rev-list', '--count', `${baseRev}..refs/heads/${branch}`, '--'], { cwd: repoDir });
  return Number(r.stdout.trim());
}

/**
 * Deletes a branch (`git branch -D`), only ever when the person asked. Says how many of its
 * commits were not in `base`, so a caller can have asked twice first. A branch checked out in a
 * worktree is refused by git, in git's words.
 */
export async function deleteBranch(git: Git, repoDir: string, branch: string, base?: string): Promise<{ commit: string; notInBase: number | undefined }> {
  if (!(await branchExists(git, repoDir, branch))) throw new GitError('not_found', `There is no branch named "${branch}".`);
  const commit = (await git.run(['rev-parse', '--verify', `refs/heads/${branch}^{commit}`], { cwd: repoDir })).stdout.trim();
  const notInBase = base === undefined ? undefined : await commitsNotIn(git, repoDir, branch, base);
  await git.run(['branch', '-D', '--', branch], { cwd: repoDir });
  return { commit, notInBase };
}
