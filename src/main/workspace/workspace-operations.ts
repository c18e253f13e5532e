import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ChangesListT, CommandParams, FileDiffT, FilesRestoredT, WorkspaceStatusT } from '../../shared/contract';
import { AppError } from '../../shared/errors';
import { displayTitle } from '../store/sessions.repo';
import type { CheckpointReason, WorkspaceRow } from '../store/workspaces.repo';
import {
  commitAll,
  createCheckpoint,
  discardChanges,
  fileDiff,
  listChanges,
  mergeBranch,
  rebaseOnBase,
  restoreCheckpoint,
  revertFiles,
  type FilesChanged,
} from './git';
import { EMPTY_TREE, type WorkspaceCore } from './workspace-core';

/** Paths a `files_restored` event names (the rest are counted). */
const PATHS_SHOWN = 50;

/**
 * What a window does with a session's files: read the status, list and diff the changes, revert
 * files or discard them all, restore a checkpoint (each checkpointed first, so each can be
 * undone), commit, merge into the base and rebase on it. Each runs in its checkout's queue; a
 * refusal or failure is an `AppError` with git's words, and the checkouts are as they were.
 */
export class WorkspaceOperations {
  constructor(private readonly core: WorkspaceCore) {
    mkdirSync(this.scratch(), { recursive: true });
  }

  async status(sessionId: string): Promise<WorkspaceStatusT> {
    const row = this.core.row(sessionId, 'read the status');
    this.core.requireFolder(row, 'read the status');
    const status = await this.core.gitCall(this.core.readStatus(row));
    this.core.announceStatus(status);
    return status;
  }

  async changes(sessionId: string, limit?: number): Promise<ChangesListT> {
    const row = this.core.row(sessionId, 'list the changes');
    this.core.requireFolder(row, 'list the changes');
    const dir = this.core.checkout(row);
    const list = await this.core.gitCall(
      this.core.queue.run(dir, async () => {
        const base = await this.baseOf(row);
        return { base, ...(await listChanges(this.core.git, { dir, base, ...(limit ? { maxFiles: limit } : {}), scratchDir: this.scratch() })) };
      }),
    );
    return { sessionId, base: list.base, files: list.files.map(fileView), truncated: list.truncated, total: list.total, at: this.core.now() };
  }

  async diff(request: CommandParams<'changes:diff'>): Promise<FileDiffT> {
    const row = this.core.row(request.sessionId, 'show a diff');
    this.core.requireFolder(row, 'show a diff');
    const dir = this.core.checkout(row);
    const file = { path: request.path, untracked: request.untracked ?? false, ...(request.from !== undefined ? { from: request.from } : {}) };
    return this.core.gitCall(this.core.queue.run(dir, async () => fileDiff(this.core.git, { dir, base: await this.baseOf(row), file, scratchDir: this.scratch() })));
  }

  revert(sessionId: string, paths: readonly string[]): Promise<FilesRestoredT> {
    return this.changeFiles(sessionId, 'revert', 'revert files', async (row, target) => revertFiles(this.core.git, { ...target, base: await this.baseOf(row), paths }));
  }

  discard(sessionId: string): Promise<FilesRestoredT> {
    return this.changeFiles(sessionId, 'discard', 'discard the changes', async (row, target) => discardChanges(this.core.git, { ...target, base: await this.baseOf(row) }));
  }

  restore(sessionId: string, checkpointId: string): Promise<FilesRestoredT> {
    const checkpoint = this.core.o.store.workspaces.checkpoint(sessionId, checkpointId);
    if (!checkpoint) {
      this.core.row(sessionId, 'restore a checkpoint');
      throw new AppError('not_found', `This session has no checkpoint ${checkpointId}.`);
    }
    return this.changeFiles(sessionId, 'restore', 'restore a checkpoint', (_row, target) => restoreCheckpoint(this.core.git, { ...target, target: checkpoint.commit_id }), checkpointId);
  }

  async commit(sessionId: string, message: string): Promise<{ commit: string }> {
    const row = this.core.worktree(sessionId, 'commit');
    const result = await this.core.gitCall(this.core.queue.run(row.worktree_path, () => commitAll(this.core.git, { dir: row.worktree_path, message })));
    this.core.notice(sessionId, 'git_commit', `Committed the worktree's changes on ${row.branch} (${result.commit.slice(0, 10)}).`);
    this.core.refreshSoon(sessionId, 0);
    return result;
  }

  /**
   * Merges the session's branch into its base in the person's checkout (`repo_top`), which must
   * be clean and on the base branch; the session's base commit becomes the merge's. Every
   * session of the repository is read again (their ahead/behind moved).
   */
  async merge(request: CommandParams<'workspace:merge'>): Promise<{ commit: string; baseCommit: string }> {
    const row = this.core.worktree(request.sessionId, 'merge');
    const session = this.core.o.store.sessions.get(request.sessionId);
    const title = session ? displayTitle(session) : row.branch;
    const message = request.message ?? (request.squash ? title : `Merge branch '${row.branch}'`);
    const { commit } = await this.core.gitCall(
      this.core.queue.run(row.repo_top, () =>
        mergeBranch(this.core.git, { repoDir: row.repo_top, branch: row.branch, baseBranch: row.base_branch, message, squash: request.squash ?? false }),
      ),
    );
    this.core.o.store.workspaces.setBaseCommit(row.session_id, commit, this.core.now());
    this.core.notice(row.session_id, 'git_merge', `${request.squash ? 'Squashed' : 'Merged'} ${row.branch} into ${row.base_branch} in ${row.repo_top} (${commit.slice(0, 10)}).`);
    for (const other of this.core.o.store.workspaces.ofRepository(row.common_dir)) this.core.refreshSoon(other.session_id, 0);
    return { commit, baseCommit: commit };
  }

  /** Replays the worktree's commits on the base branch's tip; refused while the agent works there. */
  async rebase(sessionId: string): Promise<{ head: string; baseCommit: string; moved: boolean }> {
    const row = this.core.worktree(sessionId, 'rebase');
    this.refuseWhileRunning(sessionId, 'rebase');
    const result = await this.core.gitCall(this.core.queue.run(row.worktree_path, () => rebaseOnBase(this.core.git, { dir: row.worktree_path, baseBranch: row.base_branch })));
    this.core.o.store.workspaces.setBaseCommit(sessionId, result.baseCommit, this.core.now());
    this.core.notice(sessionId, 'git_rebase', result.moved ? `Rebased ${row.branch} on ${row.base_branch} (${result.baseCommit.slice(0, 10)}).` : `${row.branch} already sits on ${row.base_branch}'s tip.`);
    this.core.refreshSoon(sessionId, 0);
    return result;
  }

  /**
   * The checkpoint before a turn: the session's files on `refs/switchboard/<session>/<turn>`,
   * recorded (row and transcript) so the turn's end can offer to restore them. A failure is
   * said in the transcript and never fails the turn. Never rejects.
   */
  async checkpointTurn(row: WorkspaceRow, clientMessageId: string, agentActed: () => boolean): Promise<void> {
    const sessionId = row.session_id;
    const dir = this.core.checkout(row);
    try {
      const cp = await this.core.queue.run(dir, () =>
        createCheckpoint(this.core.git, { dir, indexFile: this.core.indexFile(sessionId), session: sessionId, turn: clientMessageId }, () => this.core.now()),
      );
      this.core.o.store.workspaces.addCheckpoint({ session_id: sessionId, checkpoint_id: clientMessageId, reason: 'turn', client_message_id: clientMessageId, ref: cp.ref, commit_id: cp.commit, at: cp.at });
      const partial = agentActed();
      this.core.record(sessionId, 'checkpoint', { checkpointId: clientMessageId, clientMessageId, commit: cp.commit, reason: 'turn', ...(partial ? { partial } : {}) });
    } catch (err) {
      const words = err instanceof Error ? err.message : String(err);
      this.core.o.logger.warn('a checkpoint before a turn failed', { session: sessionId, error: words });
      this.core.notice(sessionId, 'checkpoint_failed', `Switchboard could not checkpoint the files before this turn, so it cannot be restored: ${words}`);
    }
  }

  /**
   * Revert, discard and restore: refused while the session's turn runs (the agent would write
   * over it) and, in a shared folder, while another live session works there; checkpointed first
   * (that checkpoint undoes it); recorded in the transcript.
   */
  private async changeFiles(
    sessionId: string,
    action: 'restore' | 'revert' | 'discard',
    what: string,
    change: (row: WorkspaceRow, target: { dir: string; indexFile: string; session: string; turn: string }) => Promise<FilesChanged>,
    checkpointId?: string,
  ): Promise<FilesRestoredT> {
    const row = this.core.row(sessionId, what);
    this.core.requireFolder(row, what);
    this.refuseWhileRunning(sessionId, what);
    if (row.kind === 'shared') this.refuseOthersInFolder(row, what);
    const dir = this.core.checkout(row);
    const undoId = `undo-${randomUUID()}`;
    const done = await this.core.gitCall(this.core.queue.run(dir, () => change(row, { dir, indexFile: this.core.indexFile(sessionId), session: sessionId, turn: undoId })));
    const reason: CheckpointReason = action;
    this.core.o.store.workspaces.addCheckpoint({ session_id: sessionId, checkpoint_id: undoId, reason, client_message_id: null, ref: done.undo.ref, commit_id: done.undo.commit, at: done.undo.at });
    const paths = [...done.removed, ...done.written];
    const count = paths.length;
    const text =
      action === 'restore'
        ? `Restored the files to the checkpoint before that turn (${count} file${count === 1 ? '' : 's'} changed).`
        : action === 'revert'
          ? `Reverted ${count} file${count === 1 ? '' : 's'} to the base.`
          : `Discarded every change against the base (${count} file${count === 1 ? '' : 's'}).`;
    this.core.record(sessionId, 'files_restored', {
      action,
      ...(checkpointId ? { checkpointId } : {}),
      undo: undoId,
      removed: done.removed.length,
      written: done.written.length,
      paths: paths.slice(0, PATHS_SHOWN),
      text,
    });
    this.core.refreshSoon(sessionId, 0);
    return { undo: undoId, removed: done.removed, written: done.written, skipped: done.skipped };
  }

  private refuseWhileRunning(sessionId: string, what: string): void {
    if (this.core.o.sessions.isRunning(sessionId)) throw new AppError('invalid_state', `Cannot ${what} while the agent is working in this session: stop the turn first.`);
  }

  /** A shared folder is restored only while no other live session works in it (ADR 0023). */
  private refuseOthersInFolder(row: WorkspaceRow, what: string): void {
    const others = this.core.o.store.workspaces
      .ofRepository(row.common_dir)
      .filter((w) => w.session_id !== row.session_id && w.kind === 'shared' && w.repo_top === row.repo_top && this.core.o.sessions.isLive(w.session_id));
    if (others.length > 0) {
      const n = others.length;
      throw new AppError('invalid_state', `Cannot ${what}: ${n} other live session${n === 1 ? '' : 's'} work${n === 1 ? 's' : ''} in ${row.repo_top}. Close ${n === 1 ? 'it' : 'them'} first; the files would change under ${n === 1 ? 'its' : 'their'} agent.`);
    }
  }

  /** What Changes compares with: a worktree's base commit; a shared folder's HEAD (its uncommitted changes). */
  private async baseOf(row: WorkspaceRow): Promise<string> {
    if (row.kind === 'worktree' && row.base_commit) return row.base_commit;
    const head = await this.core.git.run(['rev-parse', '-q', '--verify', 'HEAD^{commit}'], { cwd: this.core.checkout(row), okExitCodes: [1] });
    return head.exitCode === 0 ? head.stdout.trim() : EMPTY_TREE;
  }

  private scratch(): string {
    return join(this.core.o.scratchDir, 'scratch');
  }
}

function fileView(f: { path: string; from?: string; status: ChangesListT['files'][number]['status']; untracked: boolean; binary: boolean; added: number | undefined; removed: number | undefined }): ChangesListT['files'][number] {
  return {
    path: f.path,
    ...(f.from !== undefined ? { from: f.from } : {}),
    status: f.status,
    untracked: f.untracked,
    binary: f.binary,
    ...(f.added !== undefined ? { added: f.added } : {}),
    ...(f.removed !== undefined ? { removed: f.removed } : {}),
  };
}
