import { lstat, readdir, rmdir, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createCheckpoint, type Checkpoint, type CheckpointTarget } from './checkpoints';
import type { Git } from './git';
import { GitError } from './git-error';
import { parseRawNumstat } from './parse';
import { namePaths, repositoryFacts, requireState, rev } from './repository';

const GITLINK = '160000';
const ZERO = '0'.repeat(40);

export interface FilesChanged {
  /** The checkpoint of the files as they were just before: restoring it undoes this. */
  undo: Checkpoint;
  /** Paths removed because the target does not have them. */
  removed: string[];
  /** Paths written (added or changed) from the target. */
  written: string[];
  /** Submodule entries left alone: their content is another repository's. */
  skipped: string[];
}

/**
 * `Restore to before this turn`: makes the checkout's files equal a checkpoint. The current files
 * are checkpointed first (on `undoTurn`), so the restore can itself be undone. Ignored files and
 * the person's index are untouched.
 */
export async function restoreCheckpoint(git: Git, o: CheckpointTarget & { target: string }): Promise<FilesChanged> {
  return changeFilesTo(git, o, o.target, undefined, 'restore a checkpoint');
}

/** `Revert`: makes `paths` equal their version in `base` (a path `base` lacks is removed); checkpointed first. */
export async function revertFiles(git: Git, o: CheckpointTarget & { base: string; paths: readonly string[] }): Promise<FilesChanged> {
  if (o.paths.length === 0) throw new GitError('invalid_argument', 'Name at least one file to revert.');
  return changeFilesTo(git, o, o.base, o.paths, 'revert files');
}

/** `Discard all changes`: makes every file equal `base` (committed work on the branch stays in its commits); checkpointed first. */
export async function discardChanges(git: Git, o: CheckpointTarget & { base: string }): Promise<FilesChanged> {
  return changeFilesTo(git, o, o.base, undefined, 'discard changes');
}

async function changeFilesTo(git: Git, o: CheckpointTarget, target: string, paths: readonly string[] | undefined, what: string): Promise<FilesChanged> {
  const facts = await repositoryFacts(git, o.dir);
  requireState(facts, what);
  const top = facts.topLevel;
  const resolved = await git.run(['rev-parse', '-q', '--verify', `${rev(target)}^{tree}`], { cwd: top, okExitCodes: [1] });
  if (resolved.exitCode !== 0) throw new GitError('not_found', `Cannot ${what}: there is no commit ${target} in this repository.`);
  const to = resolved.stdout.trim();
  // The checkpoint also leaves the scratch index holding the current files: it is updated below.
  const undo = await createCheckpoint(git, o);
  const diff = await git.run(['diff-tree', '-r', '-z', '--raw', '--no-abbrev', '--no-renames', undo.tree, to, ...(paths ? ['--', ...paths] : [])], {
    cwd: top,
    env: { GIT_LITERAL_PATHSPECS: '1' },
  });
  const entries = parseRawNumstat(diff.stdout);
  const skipped = entries.filter((e) => e.srcMode === GITLINK || e.dstMode === GITLINK).map((e) => e.path);
  const files = entries.filter((e) => e.srcMode !== GITLINK && e.dstMode !== GITLINK);
  const removed = files.filter((e) => e.status === 'D').map((e) => e.path);
  const writes = files.filter((e) => e.status !== 'D');
  await refuseFoldersInTheWay(top, writes.map((e) => e.path), new Set(removed), what);

  for (const path of removed) await removeFile(top, path);
  const env = { GIT_INDEX_FILE: o.indexFile };
  // Removals first: a file may replace a folder of the same name.
  const info = [...removed.map((p) => `0 ${ZERO}\t${p}\0`), ...writes.map((e) => `${e.dstMode} ${e.dstSha}\t${e.path}\0`)].join('');
  if (info) await git.run(['update-index', '-z', '--index-info'], { cwd: top, env, stdin: info });
  if (writes.length > 0) await git.run(['checkout-index', '-f', '-z', '--stdin'], { cwd: top, env, stdin: writes.map((e) => `${e.path}\0`).join('') });
  return { undo, removed, written: writes.map((e) => e.path), skipped };
}

/**
 * A file to be written where a folder now is would make git delete the folder and everything in
 * it; if that folder holds anything the operation does not itself remove (ignored files, say),
 * refuse before touching anything.
 */
async function refuseFoldersInTheWay(top: string, writes: readonly string[], removed: ReadonlySet<string>, what: string): Promise<void> {
  const blocked: string[] = [];
  for (const path of writes) {
    const st = await lstat(join(top, path)).catch(() => undefined);
    if (!st?.isDirectory()) continue;
    const inside = await filesUnder(top, path);
    if (inside.some((p) => !removed.has(p))) blocked.push(path);
  }
  if (blocked.length > 0) {
    throw new GitError('dirty', `Cannot ${what}: ${namePaths(blocked)} would replace a folder holding files that are not part of the change (ignored files, perhaps). Move them away first.`, { files: blocked });
  }
}

async function filesUnder(top: string, rel: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(join(top, rel), { withFileTypes: true })) {
    const path = `${rel}/${entry.name}`;
    if (entry.isDirectory()) out.push(...(await filesUnder(top, path)));
    else out.push(path);
  }
  return out;
}

/** Removes a file (or symlink) and then the folders it leaves empty, up to the checkout's top. */
async function removeFile(top: string, path: string): Promise<void> {
  try {
    await unlink(join(top, path));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    throw new GitError('failed', `Could not remove ${path}: ${(err as Error).message}`);
  }
  for (let dir = dirname(path); dir !== '.' && dir !== ''; dir = dirname(dir)) {
    try {
      await rmdir(join(top, dir));
    } catch {
      return; // not empty (or already gone): the folders above are not empty either
    }
  }
}
