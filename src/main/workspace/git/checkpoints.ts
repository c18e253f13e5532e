import { copyFile, mkdir, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Git } from './git';
import { GitError } from './git-error';

/** Where checkpoints live: private refs, shared by every worktree of a repository, never a branch. */
export const CHECKPOINT_REFS = 'refs/switchboard';

/** Session and turn ids become ref name parts: plain characters only. */
const REF_PART = /^[A-Za-z0-9_-]{1,128}$/;

/** The checkpoints' author: a repository with no identity configured still gets them, and never under the person's name. */
const IDENTITY = {
  GIT_AUTHOR_NAME: 'Switchboard',
  GIT_AUTHOR_EMAIL: 'switchboard@localhost',
  GIT_COMMITTER_NAME: 'Switchboard',
  GIT_COMMITTER_EMAIL: 'switchboard@localhost',
};

export interface CheckpointTarget {
  /** The checkout: a session's worktree, or a plain repository folder (shared folder mode). */
  dir: string;
  /**
   * A scratch index file of the caller's (in the data folder, one per session): the checkout's
   * own index is never written. Two checkpoints must not use one file at the same time.
   */
  indexFile: string;
  session: string;
  turn: string;
}

export interface Checkpoint {
  ref: string;
  commit: string;
  tree: string;
  session: string;
  turn: string;
  /** When it was taken (ms since the epoch). */
  at: number;
  /** The session's previous checkpoint, if any. */
  parent: string | undefined;
}

export function checkpointRef(session: string, turn?: string): string {
  for (const [what, id] of [['session', session], ['turn', turn]] as const) {
    if (id !== undefined && !REF_PART.test(id)) throw new GitError('invalid_argument', `A checkpoint ${what} id may hold only letters, digits, "-" and "_" (got ${JSON.stringify(id)}).`);
  }
  return turn === undefined ? `${CHECKPOINT_REFS}/${session}/` : `${CHECKPOINT_REFS}/${session}/${turn}`;
}

/**
 * Records the checkout's files (tracked and untracked, not ignored) as a commit on
 * `refs/switchboard/<session>/<turn>`, without touching the person's index, stash, HEAD or
 * branches: the checkout's index is copied to the scratch index (so only files changed since
 * git last looked are hashed), `git add -A` runs against the copy, then `write-tree`,
 * `commit-tree` (on the session's previous checkpoint) and `update-ref`.
 */
export async function createCheckpoint(git: Git, o: CheckpointTarget, now: () => number = Date.now): Promise<Checkpoint> {
  const ref = checkpointRef(o.session, o.turn);
  const [{ top, tree }, previous] = await Promise.all([snapshotTree(git, o.dir, o.indexFile), listCheckpoints(git, o.dir, o.session)]);
  const parent = previous[previous.length - 1]?.commit;
  const at = now();
  const message = `Switchboard checkpoint\n\nsession: ${o.session}\nturn: ${o.turn}\nat: ${at}\n`;
  const args = ['commit-tree', '--no-gpg-sign', tree, ...(parent ? ['-p', parent] : []), '-F', '-'];
  const commit = (await git.run(args, { cwd: top, stdin: message, env: IDENTITY })).stdout.trim();
  await git.run(['update-ref', '-m', 'switchboard checkpoint', ref, commit], { cwd: top });
  return { ref, commit, tree, session: o.session, turn: o.turn, at, parent };
}

/**
 * The tree of the checkout's files as they are, through the scratch index; the scratch index is
 * left holding exactly that tree (restore relies on it).
 */
export async function snapshotTree(git: Git, dir: string, indexFile: string): Promise<{ top: string; tree: string }> {
  const r = await git.run(['rev-parse', '--path-format=absolute', '--show-toplevel', '--git-path', 'index'], { cwd: dir });
  const [top, ownIndex] = r.stdout.replace(/\n$/, '').split('\n') as [string, string];
  await mkdir(dirname(indexFile), { recursive: true });
  try {
    await copyFile(ownIndex, indexFile);
  } catch (err) {
    // A checkout with nothing ever added has no index: start the scratch one empty.
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    await rm(indexFile, { force: true });
  }
  const env = { GIT_INDEX_FILE: indexFile };
  await git.run(['add', '-A'], { cwd: top, env });
  const tree = (await git.run(['write-tree'], { cwd: top, env })).stdout.trim();
  return { top, tree };
}

/** A session's checkpoints, oldest first. */
export async function listCheckpoints(git: Git, dir: string, session: string): Promise<Checkpoint[]> {
  const prefix = checkpointRef(session);
  const r = await git.run(['for-each-ref', '--format=%(refname)%00%(objectname)%00%(tree)%00%(parent)%00%(contents)%00', prefix], { cwd: dir });
  const out: Checkpoint[] = [];
  // Each record ends with NUL then the newline for-each-ref adds; ref names hold neither.
  for (const record of r.stdout.split('\0\n')) {
    const [ref, commit, tree, parent, message] = record.split('\0');
    if (!ref || !commit || !tree) continue;
    const at = Number(/^at: (\d+)$/m.exec(message ?? '')?.[1] ?? 0);
    out.push({ ref, commit, tree, session, turn: ref.slice(prefix.length), at, parent: parent || undefined });
  }
  // Taken one after another, each on the one before: by time, then by chain for equal times.
  const depth = new Map<string, number>();
  const byCommit = new Map(out.map((c) => [c.commit, c]));
  const depthOf = (c: Checkpoint, seen = 0): number => {
    const known = depth.get(c.commit);
    if (known !== undefined) return known;
    const p = c.parent ? byCommit.get(c.parent) : undefined;
    const d = p && seen < out.length ? depthOf(p, seen + 1) + 1 : 0;
    depth.set(c.commit, d);
    return d;
  };
  return out.sort((a, b) => a.at - b.at || depthOf(a) - depthOf(b));
}

/** Deletes every checkpoint ref of a session (their commits go with git's next garbage collection). */
export async function deleteCheckpoints(git: Git, dir: string, session: string): Promise<number> {
  const refs = (await listCheckpoints(git, dir, session)).map((c) => c.ref);
  if (refs.length === 0) return 0;
  await git.run(['update-ref', '--stdin'], { cwd: dir, stdin: refs.map((ref) => `delete ${ref}\n`).join('') });
  return refs.length;
}
