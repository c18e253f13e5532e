import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { AppError } from '../../shared/errors';
import type { WorkspaceRow } from '../store/workspaces.repo';
import { isInside } from '../util/inside-folder';
import {
  branchExists,
  canonicalPath,
  checkpointAndRemoveWorktree,
  commitsNotIn,
  deleteBranch,
  deleteCheckpoints,
  isGitError,
  listCheckpoints,
  listWorktrees,
  pruneWorktrees,
  recreateWorktree,
  removeWorktree,
  restoreCheckpoint,
  sweepPreparedWorktrees,
  worktreeStatus,
  type Checkpoint,
} from './git';
import type { SetupCommands } from './setup-commands';
import type { WorkspaceCore } from './workspace-core';

export interface DeleteOptions {
  /** Also delete the worktree's branch (and the session's checkpoints). */
  deleteBranch?: boolean;
  /** The second confirmation: the branch has work not in its base; delete it anyway. */
  confirmUnmerged?: boolean;
}

/**
 * A workspace across the session's life: archive (uncommitted files checkpointed, the folder
 * removed, the branch kept), restore from the archive (the folder made again from the branch,
 * the checkpoint re-applied), delete (the folder, and the branch only when asked, twice when it
 * holds work the base lacks), and the start-up reconciliation with `git worktree list`.
 * Switchboard never leaves a worktree of its own behind.
 */
export class WorkspaceLifecycle {
  constructor(
    private readonly core: WorkspaceCore,
    private readonly setup: SetupCommands,
  ) {}

  async archive(sessionId: string, keepWorktree: boolean): Promise<void> {
    const row = this.core.o.store.workspaces.get(sessionId);
    if (!row) return;
    await this.setup.stop(sessionId, 'The session was archived while it ran.');
    if (row.kind !== 'worktree' || keepWorktree || row.removed_at !== null || row.missing_at !== null || !row.worktree_path) return;
    const path = row.worktree_path;
    const cp = await this.core.gitCall(
      this.core.queue.run(path, () =>
        checkpointAndRemoveWorktree(this.core.git, { repoDir: row.repo_top, dir: path, indexFile: this.core.indexFile(sessionId), session: sessionId, turn: `archive-${randomUUID()}` }),
      ),
    );
    const now = cp?.at ?? this.core.now();
    if (cp) this.recordCheckpoint(sessionId, cp, 'archive');
    this.core.o.store.workspaces.setRemoved(sessionId, now, this.core.now());
    this.core.notice(
      sessionId,
      'worktree_removed',
      `Removed the worktree folder ${path}; the branch ${row.branch ?? ''} stays${cp ? ', and its uncommitted files were checkpointed: restoring the session brings them back' : ''}.`,
    );
  }

  async unarchive(sessionId: string): Promise<void> {
    const row = this.core.o.store.workspaces.get(sessionId);
    if (!row || row.kind !== 'worktree' || row.removed_at === null) return;
    await this.makeAgain(row, 'restore the session');
    const cp = this.core.o.store.workspaces.lastCheckpoint(sessionId, 'archive');
    if (cp && cp.at >= row.removed_at) {
      const path = row.worktree_path!;
      const undo = `undo-${randomUUID()}`;
      const done = await this.core.gitCall(
        this.core.queue.run(path, () => restoreCheckpoint(this.core.git, { dir: path, indexFile: this.core.indexFile(sessionId), session: sessionId, turn: undo, target: cp.commit_id })),
      );
      this.recordCheckpoint(sessionId, done.undo, 'restore');
    }
    this.core.notice(sessionId, 'worktree_recreated', `Made the worktree ${row.worktree_path ?? ''} again from ${row.branch ?? 'its branch'}${cp && cp.at >= row.removed_at ? ', with the uncommitted files it had when archived' : ''}.`);
    this.core.refreshSoon(sessionId, 0);
  }

  async recreate(sessionId: string): Promise<void> {
    const row = this.core.row(sessionId, 'make the worktree again');
    if (row.kind !== 'worktree') throw new AppError('invalid_state', 'This session works in a shared folder, not in a worktree of its own.');
    if (row.missing_at === null) throw new AppError('invalid_state', row.removed_at !== null ? 'The session is archived: restore it to make its worktree again.' : 'The worktree folder is there.');
    await this.makeAgain(row, 'make the worktree again');
    this.core.notice(sessionId, 'worktree_recreated', `Made the worktree ${row.worktree_path ?? ''} again from ${row.branch ?? 'its branch'}; files that were not committed when its folder vanished are lost.`);
    this.core.refreshSoon(sessionId, 0);
  }

  async checkDelete(sessionId: string, o: DeleteOptions): Promise<void> {
    const row = this.core.o.store.workspaces.get(sessionId);
    if (!row || row.kind !== 'worktree' || !o.deleteBranch || o.confirmUnmerged || !row.branch) return;
    const { git } = this.core;
    const commits = await this.core.gitCall(this.unmergedCommits(row));
    let uncommitted = 0;
    if (row.removed_at === null && row.missing_at === null && row.worktree_path && existsSync(row.worktree_path)) {
      const path = row.worktree_path;
      const status = await this.core.gitCall(this.core.queue.run(path, () => worktreeStatus(git, path, { branch: row.base_branch ?? '', commit: row.base_commit ?? 'HEAD' })));
      uncommitted = status.uncommitted;
    } else if (row.removed_at !== null && this.core.o.store.workspaces.lastCheckpoint(sessionId, 'archive')) {
      // Archived with uncommitted files: they live only in that checkpoint, which goes with the branch.
      uncommitted = 1;
    }
    if (commits === 0 && uncommitted === 0) return;
    const parts = [commits > 0 ? `${commits} commit${commits === 1 ? '' : 's'} not in ${row.base_branch ?? 'its base'}` : '', uncommitted > 0 ? 'uncommitted files' : ''].filter(Boolean);
    throw new AppError('invalid_state', `The branch ${row.branch} has ${parts.join(' and ')}: deleting it loses them. Confirm to delete it anyway.`, {
      git: { problem: 'unmerged', unmergedCommits: commits, uncommittedFiles: uncommitted },
    });
  }

  async delete(sessionId: string, o: DeleteOptions): Promise<void> {
    this.core.startDeleting(sessionId);
    const row = this.core.o.store.workspaces.get(sessionId);
    if (!row) return;
    const { git } = this.core;
    try {
      await this.setup.stop(sessionId, 'The session was deleted while it ran.');
      if (row.kind === 'shared') {
        // The folder is the person's and stays as it is; the checkpoints only served this session.
        await this.core.queue.run(row.repo_top, () => deleteCheckpoints(git, row.repo_top, sessionId));
        return;
      }
      const path = row.worktree_path;
      if (path && row.removed_at === null && existsSync(path)) {
        await this.core.queue.run(path, () =>
          checkpointAndRemoveWorktree(git, { repoDir: row.repo_top, dir: path, indexFile: this.core.indexFile(sessionId), session: sessionId, turn: `delete-${randomUUID()}` }),
        );
      } else if (path) {
        await pruneWorktrees(git, row.repo_top, [path]);
      }
      if (o.deleteBranch && row.branch) {
        await deleteBranch(git, row.repo_top, row.branch).catch((err: unknown) => {
          if (!isGitError(err, 'not_found')) throw err;
        });
        await deleteCheckpoints(git, row.repo_top, sessionId);
      } else {
        // The branch stays, and so does the last checkpoint: the files as they were at the delete,
        // uncommitted ones included (`git log refs/switchboard/<session>`). The turns' go.
        await this.keepLastCheckpoint(row.repo_top, sessionId);
      }
    } catch (err) {
      this.core.doneDeleting(sessionId);
      throw isGitError(err) ? err.toAppError() : err;
    }
  }

  /**
   * At start-up: setup commands left running are failed; per repository, prepared leftovers are
   * swept, each worktree row is matched with `git worktree list` (a vanished folder is pruned and
   * its session marked missing; a folder back again is unmarked; a switched branch is taken),
   * and worktrees under the worktree root that no session owns (a crash between making and
   * recording one) are removed when clean. A repository git cannot read is logged and skipped.
   */
  async reconcile(): Promise<void> {
    const { o } = this.core;
    const now = this.core.now();
    for (const id of o.store.workspaces.interruptSetups(now)) {
      this.core.notice(id, 'setup_interrupted', 'The setup command was still running when Switchboard stopped; it did not finish.');
    }
    const rows = o.store.workspaces.all();
    const repos = new Map<string, string>();
    for (const r of o.store.workspaces.repositories()) repos.set(r.common_dir, r.top_level);
    for (const r of rows) if (!repos.has(r.common_dir)) repos.set(r.common_dir, r.repo_top);
    const known = new Set(rows.map((r) => r.worktree_path).filter((p): p is string => p !== null));
    for (const [commonDir, top] of repos) {
      const ours = rows.filter((r) => r.common_dir === commonDir && r.kind === 'worktree' && r.removed_at === null);
      if (!existsSync(commonDir)) {
        for (const r of ours) this.markMissing(r, now, 'its repository is gone');
        continue;
      }
      try {
        await this.reconcileRepository(top, ours, known, now);
      } catch (err) {
        o.logger.warn('could not check the worktrees of a repository at start-up', { repository: top, error: String(err) });
      }
    }
  }

  private async reconcileRepository(top: string, ours: readonly WorkspaceRow[], known: ReadonlySet<string>, now: number): Promise<void> {
    const { git, o } = this.core;
    await sweepPreparedWorktrees(git, top);
    const listed = await listWorktrees(git, top);
    const vanished: string[] = [];
    for (const r of ours) {
      const path = r.worktree_path!;
      const entry = listed.find((w) => w.path === path);
      if (!entry || entry.missing || !existsSync(path)) {
        this.markMissing(r, now, 'its folder is gone');
        if (entry) vanished.push(path);
        continue;
      }
      if (r.missing_at !== null) o.store.workspaces.setMissing(r.session_id, null, now);
      if (entry.branch && entry.branch !== r.branch) o.store.workspaces.setBranch(r.session_id, entry.branch, now);
    }
    if (vanished.length > 0) {
      const { alsoPruned } = await pruneWorktrees(git, top, vanished);
      if (alsoPruned.length > 0) o.logger.info('git also forgot other vanished worktrees of the repository', { repository: top, alsoPruned });
    }
    const root = canonicalPath(o.worktreeRoot());
    for (const w of listed) {
      if (w.main || w.missing || known.has(w.path) || !isInside(root, w.path)) continue;
      await removeWorktree(git, { repoDir: top, path: w.path }).then(
        () => o.logger.info('removed a worktree of ours that no session owned', { path: w.path }),
        (err: unknown) => o.logger.warn('a worktree under the worktree folder belongs to no session and was kept', { path: w.path, error: String(err) }),
      );
    }
  }

  private markMissing(r: WorkspaceRow, now: number, why: string): void {
    if (r.missing_at !== null) return;
    this.core.o.store.workspaces.setMissing(r.session_id, now, now);
    this.core.notice(r.session_id, 'worktree_missing', `The worktree ${r.worktree_path ?? ''} was found gone at start-up (${why}); its branch ${r.branch ?? ''} may still hold the committed work. Make it again from the branch to go on.`);
  }

  /** `git worktree add` of the kept branch at the same path (the agent resumes with the same folder). */
  private async makeAgain(row: WorkspaceRow, what: string): Promise<void> {
    if (!row.worktree_path || !row.branch) throw new AppError('invalid_state', `Cannot ${what}: the session has no worktree branch.`);
    const made = await this.core.gitCall(recreateWorktree(this.core.git, { repoDir: row.repo_top, branch: row.branch, path: row.worktree_path }));
    this.core.o.store.workspaces.setPath(row.session_id, made.path, this.core.now());
  }

  private recordCheckpoint(sessionId: string, cp: Checkpoint, reason: 'archive' | 'restore'): void {
    this.core.o.store.workspaces.addCheckpoint({ session_id: sessionId, checkpoint_id: cp.turn, reason, client_message_id: null, ref: cp.ref, commit_id: cp.commit, at: cp.at });
    if (reason === 'archive') this.core.record(sessionId, 'checkpoint', { checkpointId: cp.turn, commit: cp.commit, reason: 'archive' });
  }

  /** Commits on the branch its base lacks (the base branch, else the recorded base commit). */
  private async unmergedCommits(row: WorkspaceRow): Promise<number> {
    const { git } = this.core;
    if (!(await branchExists(git, row.repo_top, row.branch!))) return 0;
    try {
      return await commitsNotIn(git, row.repo_top, row.branch!, row.base_branch ?? row.base_commit!);
    } catch (err) {
      if (!isGitError(err) || !row.base_commit) throw err;
      return commitsNotIn(git, row.repo_top, row.branch!, row.base_commit);
    }
  }

  private async keepLastCheckpoint(repo: string, sessionId: string): Promise<void> {
    const all = await listCheckpoints(this.core.git, repo, sessionId);
    const drop = all.slice(0, -1).map((c) => c.ref);
    if (drop.length > 0) await this.core.git.run(['update-ref', '--stdin'], { cwd: repo, stdin: drop.map((ref) => `delete ${ref}\n`).join('') });
  }
}
