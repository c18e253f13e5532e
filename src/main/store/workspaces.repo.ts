import type { Db } from './db';
import { Emitter, type Event } from '../util/event';

/** A session's workspace row (migration 0015). */
export interface WorkspaceRow {
  session_id: string;
  kind: 'worktree' | 'shared';
  /** The folder the person chose. */
  folder: string;
  /** The checkout it is in (its top level): merges run there. */
  repo_top: string;
  common_dir: string;
  worktree_path: string | null;
  branch: string | null;
  base_branch: string | null;
  base_commit: string | null;
  group_id: string | null;
  missing_at: number | null;
  removed_at: number | null;
  setup_command: string | null;
  setup_state: 'running' | 'succeeded' | 'failed' | null;
  setup_exit: number | null;
  created_at: number;
  updated_at: number;
}

export type NewWorkspaceRow = Omit<WorkspaceRow, 'missing_at' | 'removed_at' | 'setup_state' | 'setup_exit' | 'created_at' | 'updated_at' | 'setup_command'> & {
  setup_command?: string | null;
  setup_state?: WorkspaceRow['setup_state'];
};

export type CheckpointReason = 'turn' | 'restore' | 'revert' | 'discard' | 'archive' | 'delete';

export interface CheckpointRow {
  session_id: string;
  checkpoint_id: string;
  reason: CheckpointReason;
  client_message_id: string | null;
  ref: string;
  commit_id: string;
  at: number;
}

export interface RepositoryRow {
  common_dir: string;
  top_level: string;
  worktree_default: 0 | 1;
  setup_command: string | null;
  updated_at: number;
}

/** A workspace row changed: which session's, and what (its view shows it). */
export interface WorkspaceChange {
  sessionId: string;
  what: 'created' | 'base' | 'branch' | 'missing' | 'removed' | 'setup' | 'path';
}

/**
 * Sessions' workspaces, their checkpoints, per-repository settings and session groups;
 * statements prepared once. Every write to a workspace row is announced on `onDidChange` by
 * the repository itself (a session's view shows the row), like `SessionsRepo`.
 */
export class WorkspacesRepo {
  private readonly stmts;
  private readonly didChange = new Emitter<WorkspaceChange>();
  readonly onDidChange: Event<WorkspaceChange> = this.didChange.event;

  constructor(db: Db) {
    this.stmts = {
      insert: db.prepare(
        `INSERT INTO workspaces (session_id, kind, folder, repo_top, common_dir, worktree_path, branch, base_branch, base_commit, group_id, setup_command, setup_state, created_at, updated_at)
         VALUES (@session_id, @kind, @folder, @repo_top, @common_dir, @worktree_path, @branch, @base_branch, @base_commit, @group_id, @setup_command, @setup_state, @now, @now)`,
      ),
      get: db.prepare(`SELECT * FROM workspaces WHERE session_id = ?`),
      all: db.prepare(`SELECT * FROM workspaces ORDER BY created_at`),
      ofRepository: db.prepare(`SELECT * FROM workspaces WHERE common_dir = ? ORDER BY created_at`),
      ofGroup: db.prepare(`SELECT * FROM workspaces WHERE group_id = ? ORDER BY created_at, session_id`),
      setBase: db.prepare(`UPDATE workspaces SET base_commit = ?, updated_at = ? WHERE session_id = ? AND kind = 'worktree'`),
      setBranch: db.prepare(`UPDATE workspaces SET branch = ?, updated_at = ? WHERE session_id = ? AND kind = 'worktree' AND branch IS NOT ?`),
      setMissing: db.prepare(`UPDATE workspaces SET missing_at = ?, updated_at = ? WHERE session_id = ? AND missing_at IS NOT ?`),
      setRemoved: db.prepare(`UPDATE workspaces SET removed_at = ?, updated_at = ? WHERE session_id = ? AND removed_at IS NOT ?`),
      setPath: db.prepare(`UPDATE workspaces SET worktree_path = ?, missing_at = NULL, removed_at = NULL, updated_at = ? WHERE session_id = ?`),
      setSetup: db.prepare(`UPDATE workspaces SET setup_command = ?, setup_state = ?, setup_exit = ?, updated_at = ? WHERE session_id = ?`),
      interruptSetups: db.prepare(`UPDATE workspaces SET setup_state = 'failed', updated_at = ? WHERE setup_state = 'running' RETURNING session_id`),
      addCheckpoint: db.prepare(
        `INSERT OR REPLACE INTO checkpoints (session_id, checkpoint_id, reason, client_message_id, ref, commit_id, at)
         VALUES (@session_id, @checkpoint_id, @reason, @client_message_id, @ref, @commit_id, @at)`,
      ),
      checkpoint: db.prepare(`SELECT * FROM checkpoints WHERE session_id = ? AND checkpoint_id = ?`),
      checkpoints: db.prepare(`SELECT * FROM checkpoints WHERE session_id = ? ORDER BY at, rowid`),
      lastCheckpoint: db.prepare(`SELECT * FROM checkpoints WHERE session_id = ? AND reason = ? ORDER BY at DESC, rowid DESC LIMIT 1`),
      forgetCheckpoints: db.prepare(`DELETE FROM checkpoints WHERE session_id = ?`),
      repository: db.prepare(`SELECT * FROM repositories WHERE common_dir = ?`),
      repositories: db.prepare(`SELECT * FROM repositories ORDER BY top_level`),
      saveRepository: db.prepare(
        `INSERT INTO repositories (common_dir, top_level, worktree_default, setup_command, updated_at) VALUES (@common_dir, @top_level, @worktree_default, @setup_command, @now)
         ON CONFLICT (common_dir) DO UPDATE SET top_level = excluded.top_level, worktree_default = excluded.worktree_default, setup_command = excluded.setup_command, updated_at = excluded.updated_at`,
      ),
      addGroup: db.prepare(`INSERT INTO session_groups (id, created_at) VALUES (?, ?)`),
      claimFirstPrompt: db.prepare(`UPDATE session_groups SET first_prompt_at = ? WHERE id = ? AND first_prompt_at IS NULL`),
      dropEmptyGroups: db.prepare(`DELETE FROM session_groups WHERE id NOT IN (SELECT group_id FROM workspaces WHERE group_id IS NOT NULL)`),
    };
  }

  insert(row: NewWorkspaceRow, now: number): void {
    this.stmts.insert.run({ setup_command: null, setup_state: null, ...row, now });
    this.didChange.fire({ sessionId: row.session_id, what: 'created' });
  }

  get(sessionId: string): WorkspaceRow | undefined {
    return this.stmts.get.get(sessionId) as WorkspaceRow | undefined;
  }

  all(): WorkspaceRow[] {
    return this.stmts.all.all() as WorkspaceRow[];
  }

  /** The workspaces of one repository (every worktree and shared folder of it). */
  ofRepository(commonDir: string): WorkspaceRow[] {
    return this.stmts.ofRepository.all(commonDir) as WorkspaceRow[];
  }

  ofGroup(groupId: string): WorkspaceRow[] {
    return this.stmts.ofGroup.all(groupId) as WorkspaceRow[];
  }

  /** After a merge or rebase: Changes are listed against this commit. */
  setBaseCommit(sessionId: string, commit: string, now: number): void {
    this.announce(sessionId, 'base', this.stmts.setBase.run(commit, now, sessionId).changes);
  }

  /** The branch git says the worktree has (the person may have switched it). */
  setBranch(sessionId: string, branch: string, now: number): void {
    this.announce(sessionId, 'branch', this.stmts.setBranch.run(branch, now, sessionId, branch).changes);
  }

  /** The worktree folder vanished (`at`), or is back (null). */
  setMissing(sessionId: string, at: number | null, now: number): void {
    this.announce(sessionId, 'missing', this.stmts.setMissing.run(at, now, sessionId, at).changes);
  }

  /** The worktree folder was removed by an archive (`at`), its branch kept; null once it is made again. */
  setRemoved(sessionId: string, at: number | null, now: number): void {
    this.announce(sessionId, 'removed', this.stmts.setRemoved.run(at, now, sessionId, at).changes);
  }

  /** The worktree was made again here: neither missing nor removed any more. */
  setPath(sessionId: string, path: string, now: number): void {
    this.announce(sessionId, 'path', this.stmts.setPath.run(path, now, sessionId).changes);
  }

  setSetup(sessionId: string, command: string | null, state: WorkspaceRow['setup_state'], exit: number | null, now: number): void {
    this.announce(sessionId, 'setup', this.stmts.setSetup.run(command, state, exit, now, sessionId).changes);
  }

  /** At start-up: setup commands a previous run left running ended with it. */
  interruptSetups(now: number): string[] {
    const ids = (this.stmts.interruptSetups.all(now) as { session_id: string }[]).map((r) => r.session_id);
    for (const id of ids) this.didChange.fire({ sessionId: id, what: 'setup' });
    return ids;
  }

  addCheckpoint(row: CheckpointRow): void {
    this.stmts.addCheckpoint.run(row);
  }

  checkpoint(sessionId: string, checkpointId: string): CheckpointRow | undefined {
    return this.stmts.checkpoint.get(sessionId, checkpointId) as CheckpointRow | undefined;
  }

  /** Oldest first. */
  checkpoints(sessionId: string): CheckpointRow[] {
    return this.stmts.checkpoints.all(sessionId) as CheckpointRow[];
  }

  lastCheckpoint(sessionId: string, reason: CheckpointReason): CheckpointRow | undefined {
    return this.stmts.lastCheckpoint.get(sessionId, reason) as CheckpointRow | undefined;
  }

  /** Their refs were deleted: the rows go too. */
  forgetCheckpoints(sessionId: string): void {
    this.stmts.forgetCheckpoints.run(sessionId);
  }

  repository(commonDir: string): RepositoryRow | undefined {
    return this.stmts.repository.get(commonDir) as RepositoryRow | undefined;
  }

  repositories(): RepositoryRow[] {
    return this.stmts.repositories.all() as RepositoryRow[];
  }

  saveRepository(row: Omit<RepositoryRow, 'updated_at'>, now: number): void {
    this.stmts.saveRepository.run({ ...row, now });
  }

  addGroup(id: string, now: number): void {
    this.stmts.addGroup.run(id, now);
  }

  /** The group's first prompt goes out now: true for exactly one caller. */
  claimFirstPrompt(groupId: string, now: number): boolean {
    return this.stmts.claimFirstPrompt.run(now, groupId).changes === 1;
  }

  /** Groups whose sessions are all gone. */
  dropEmptyGroups(): void {
    this.stmts.dropEmptyGroups.run();
  }

  private announce(sessionId: string, what: WorkspaceChange['what'], changes: number): void {
    if (changes > 0) this.didChange.fire({ sessionId, what });
  }
}
