import type {
  BranchCheckT,
  ChangesListT,
  CommandParams,
  CompareResultT,
  FileDiffT,
  FilesRestoredT,
  RepositorySettingsT,
  SetupOutputT,
  SetupSnapshotT,
  WorkspaceProbeT,
  WorkspaceStatusT,
  WorkspaceViewT,
} from '../../shared/contract';
import type { WorkspaceRow } from '../store/workspaces.repo';
import type { Event } from '../util/event';
import { compareGroup } from './workspace-compare';
import { WorkspaceCore, type WorkspaceServiceOptions } from './workspace-core';
import { WorkspaceCreator, type OpenedWorkspaces, type OpenRequest } from './workspace-create';
import { WorkspaceLifecycle, type DeleteOptions } from './workspace-lifecycle';
import { WorkspaceOperations } from './workspace-operations';
import { PreparedPool } from './prepared-pool';
import { SetupCommands } from './setup-commands';
import { checkBranchName, repositoryFacts } from './git';

export type { WorkspaceServiceOptions, SessionFacts } from './workspace-core';
export type { OpenedWorkspaces, OpenRequest } from './workspace-create';
export type { DeleteOptions } from './workspace-lifecycle';

/** What a turn waits for before its prompt goes out, and what the agent's writes wait for. */
export interface TurnHold {
  /** The setup command of a new worktree has ended: the prompt may go out. */
  ready: Promise<void>;
  /**
   * The checkpoint of the files before this turn is taken (or failed and was said so): the
   * agent's writes through Switchboard (`fs/write_text_file`, `terminal/create`) and its
   * permission requests wait for it. Never rejects.
   */
  checkpointed: Promise<void>;
}

/**
 * The workspace layer's one face (issue 19): the folders sessions work in, as git worktrees of
 * their own or repository folders they share. Sessions ask it for a working folder
 * (`open`), tell it when a turn starts and ends and when the agent touched files; windows reach
 * it through the host's handlers. It never knows sessions: what it must ask of them (is one live,
 * is a turn running) comes through `SessionFacts`. Every git operation on one checkout runs in
 * that checkout's queue; every failure reaches the window as an `AppError` with git's words.
 */
export class WorkspaceService {
  /** A session's branch, ahead/behind or dirty changed (read after its files changed). */
  readonly onDidChangeStatus: Event<WorkspaceStatusT>;
  /** A session's files may have changed: windows showing Changes list them again. */
  readonly onDidChangeFiles: Event<{ sessionId: string; at: number }>;
  /** New output of a session's setup command. */
  readonly onDidSetupOutput: Event<SetupOutputT>;
  private readonly core: WorkspaceCore;
  private readonly pool: PreparedPool;
  private readonly setup: SetupCommands;
  private readonly creator: WorkspaceCreator;
  private readonly ops: WorkspaceOperations;
  private readonly lifecycle: WorkspaceLifecycle;

  constructor(o: WorkspaceServiceOptions) {
    this.core = new WorkspaceCore(o);
    this.pool = new PreparedPool({ git: o.git, clock: o.clock, timers: o.timers, log: o.logger });
    this.setup = new SetupCommands(this.core);
    this.creator = new WorkspaceCreator(this.core, this.pool, this.setup);
    this.ops = new WorkspaceOperations(this.core);
    this.lifecycle = new WorkspaceLifecycle(this.core, this.setup);
    this.onDidChangeStatus = this.core.didChangeStatus.event;
    this.onDidChangeFiles = this.core.didChangeFiles.event;
    this.onDidSetupOutput = this.core.didSetupOutput.event;
  }

  // ── the New session dialog ─────────────────────────────────────────────────────────────

  /** A folder as typed: a repository? its branch, a suggested branch, the remembered box; `prepare` makes a worktree ahead. */
  probe(request: CommandParams<'workspace:probe'>): Promise<WorkspaceProbeT> {
    return this.creator.probe(request);
  }

  /** A new branch's name as typed, in the repository of `path`. */
  async checkBranch(path: string, name: string): Promise<BranchCheckT> {
    const facts = await this.core.gitCall(repositoryFacts(this.core.git, path));
    return this.core.gitCall(checkBranchName(this.core.git, facts.topLevel, name));
  }

  /**
   * The folders new sessions work in: a worktree each on a new branch (`worktree`), the
   * repository folder shared, or the folder as it is outside any repository. Nothing is stored
   * until `record`; `abandon` takes back what was made.
   */
  open(request: OpenRequest): Promise<OpenedWorkspaces> {
    return this.creator.open(request);
  }

  /** `open`, answered at once for a folder outside any git checkout (no git call needed); else undefined. */
  openPlain(request: OpenRequest): OpenedWorkspaces | undefined {
    return this.creator.openPlain(request);
  }

  // ── what sessions tell it ──────────────────────────────────────────────────────────────

  /**
   * A turn of the session starts: once its setup command ended, its files are checkpointed
   * (`refs/switchboard/<session>/<clientMessageId>`). The caller sends the prompt once `ready`,
   * and holds the agent's writes until `checkpointed` (ADR 0023). `agentActed` says, when the
   * checkpoint is done, whether the agent announced a tool call meanwhile (the checkpoint is then
   * marked `partial`). Undefined for a session outside any repository or whose folder is gone.
   */
  turnStarting(sessionId: string, clientMessageId: string, agentActed: () => boolean): TurnHold | undefined {
    const row = this.core.o.store.workspaces.get(sessionId);
    if (!row || row.removed_at !== null || row.missing_at !== null) return undefined;
    const ready = this.setup.ready(sessionId);
    const checkpointed = ready.then(() => this.ops.checkpointTurn(row, clientMessageId, agentActed));
    return { ready, checkpointed };
  }

  /** A turn ended: the status and Changes are read again now. */
  turnEnded(sessionId: string): void {
    if (this.core.o.store.workspaces.get(sessionId)) this.core.refreshSoon(sessionId, 0);
  }

  /** The agent wrote a file or finished a tool call: the status and Changes are read again shortly. */
  touched(sessionId: string): void {
    if (this.core.o.store.workspaces.get(sessionId)) this.core.refreshSoon(sessionId);
  }

  /** Refuses to start a session whose worktree folder is gone (archived, vanished). */
  assertUsable(sessionId: string): void {
    const row = this.core.o.store.workspaces.get(sessionId);
    if (row) this.core.requireFolder(row, 'start the session');
  }

  /**
   * The first prompt of a group goes to every session in it: the other sessions of `sessionId`'s
   * group the first time one of them is sent a prompt, else none.
   */
  claimGroupFirstPrompt(sessionId: string): string[] {
    const row = this.core.o.store.workspaces.get(sessionId);
    if (!row?.group_id) return [];
    if (!this.core.o.store.workspaces.claimFirstPrompt(row.group_id, this.core.now())) return [];
    return this.core.o.store.workspaces
      .ofGroup(row.group_id)
      .map((r) => r.session_id)
      .filter((id) => id !== sessionId);
  }

  /** The session's workspace as its view shows it; undefined for a folder outside any repository. */
  view(sessionId: string): SessionWorkspaceView {
    return sessionWorkspaceView(this.core.o.store.workspaces.get(sessionId));
  }

  /**
   * `view` for many sessions at once (the session list): every workspace read in one query,
   * not one lookup per session (half the host's time for a list of 10,000 sessions).
   */
  viewsOfAll(): (sessionId: string) => SessionWorkspaceView {
    const rows = new Map(this.core.o.store.workspaces.all().map((row) => [row.session_id, row]));
    return (sessionId) => sessionWorkspaceView(rows.get(sessionId));
  }

  /** The folder the person chose (a worktree session's `cwd` is elsewhere): where the next New session starts. */
  chosenFolder(sessionId: string): string | undefined {
    return this.core.o.store.workspaces.get(sessionId)?.folder;
  }

  // ── what windows ask ───────────────────────────────────────────────────────────────────

  status(sessionId: string): Promise<WorkspaceStatusT> {
    return this.ops.status(sessionId);
  }

  changes(sessionId: string, limit?: number): Promise<ChangesListT> {
    return this.ops.changes(sessionId, limit);
  }

  diff(request: CommandParams<'changes:diff'>): Promise<FileDiffT> {
    return this.ops.diff(request);
  }

  revert(sessionId: string, paths: readonly string[]): Promise<FilesRestoredT> {
    return this.ops.revert(sessionId, paths);
  }

  discard(sessionId: string): Promise<FilesRestoredT> {
    return this.ops.discard(sessionId);
  }

  restore(sessionId: string, checkpointId: string): Promise<FilesRestoredT> {
    return this.ops.restore(sessionId, checkpointId);
  }

  commit(sessionId: string, message: string): Promise<{ commit: string }> {
    return this.ops.commit(sessionId, message);
  }

  merge(request: CommandParams<'workspace:merge'>): Promise<{ commit: string; baseCommit: string }> {
    return this.ops.merge(request);
  }

  rebase(sessionId: string): Promise<{ head: string; baseCommit: string; moved: boolean }> {
    return this.ops.rebase(sessionId);
  }

  setupSnapshot(sessionId: string): SetupSnapshotT {
    this.core.row(sessionId, 'read the setup output');
    return this.setup.snapshot(sessionId);
  }

  compare(groupId: string): Promise<CompareResultT> {
    return compareGroup(this.core, groupId);
  }

  repositories(): RepositorySettingsT[] {
    return this.core.o.store.workspaces.repositories().map(repositoryView);
  }

  async saveRepository(request: CommandParams<'repositories:save'>): Promise<RepositorySettingsT> {
    const facts = await this.core.gitCall(repositoryFacts(this.core.git, request.path));
    const { workspaces } = this.core.o.store;
    const known = workspaces.repository(facts.commonDir);
    const command = request.setupCommand === undefined ? (known?.setup_command ?? null) : request.setupCommand?.trim() || null;
    const worktreeDefault = request.worktreeDefault ?? (known ? known.worktree_default === 1 : true);
    workspaces.saveRepository({ common_dir: facts.commonDir, top_level: known?.top_level ?? facts.topLevel, worktree_default: worktreeDefault ? 1 : 0, setup_command: command }, this.core.now());
    return repositoryView(workspaces.repository(facts.commonDir)!);
  }

  // ── lifecycle ──────────────────────────────────────────────────────────────────────────

  /** Archive (after the session closed): uncommitted files checkpointed, the worktree folder removed, the branch kept. */
  archive(sessionId: string, keepWorktree: boolean): Promise<void> {
    return this.lifecycle.archive(sessionId, keepWorktree);
  }

  /** Back from the archive: the worktree made again from its branch, the uncommitted files brought back. */
  unarchive(sessionId: string): Promise<void> {
    return this.lifecycle.unarchive(sessionId);
  }

  /** Makes a vanished worktree again from its branch. */
  recreate(sessionId: string): Promise<void> {
    return this.lifecycle.recreate(sessionId);
  }

  /** Refuses, before anything is touched, a delete that would lose work the person did not confirm losing. */
  checkDelete(sessionId: string, options: DeleteOptions): Promise<void> {
    return this.lifecycle.checkDelete(sessionId, options);
  }

  /** The session is being deleted (its agent closed): its worktree goes, and its branch if asked. Its rows go with the session's. */
  delete(sessionId: string, options: DeleteOptions): Promise<void> {
    return this.lifecycle.delete(sessionId, options);
  }

  /** The session's rows are gone (or its delete failed): nothing more is kept for it. */
  forget(sessionId: string): void {
    this.core.doneDeleting(sessionId);
  }

  /** At start-up, in the background: vanished worktrees pruned and marked, rows matched with `git worktree list`, leftovers removed. */
  reconcile(): Promise<void> {
    return this.lifecycle.reconcile();
  }

  /** Quit, within its budget: setup commands stopped (and recorded), prepared worktrees removed, queued git work let finish. */
  async dispose(): Promise<void> {
    await this.setup.stopAll('Switchboard quit while it ran.');
    await this.pool.dispose();
    await this.core.queue.idle();
    this.core.dispose();
  }

  /**
   * Quit, after the budget (the store closes next): nothing more is recorded or announced, and a
   * setup command still running is killed. A prepared worktree left is swept at the next start.
   */
  abandon(): void {
    this.core.dispose();
    this.setup.killAll('Switchboard quit while it ran.');
  }
}

/** A workspace row as the session view shows it. */
/** What a session's view carries of its workspace. */
export type SessionWorkspaceView = { workspace?: WorkspaceViewT; groupId?: string };

function sessionWorkspaceView(row: WorkspaceRow | undefined): SessionWorkspaceView {
  return row ? { workspace: viewOf(row), ...(row.group_id ? { groupId: row.group_id } : {}) } : {};
}

export function viewOf(row: WorkspaceRow): WorkspaceViewT {
  return {
    kind: row.kind,
    repository: row.repo_top,
    folder: row.folder,
    ...(row.kind === 'worktree' && row.worktree_path ? { path: row.worktree_path } : {}),
    ...(row.kind === 'worktree' && row.branch ? { branch: row.branch } : {}),
    ...(row.base_branch ? { baseBranch: row.base_branch } : {}),
    ...(row.kind === 'worktree' && row.base_commit ? { baseCommit: row.base_commit } : {}),
    ...(row.missing_at !== null ? { missing: true } : {}),
    ...(row.removed_at !== null ? { removed: true } : {}),
    ...(row.setup_command && row.setup_state
      ? { setup: { command: row.setup_command, state: row.setup_state, ...(row.setup_exit !== null ? { exitCode: row.setup_exit } : {}) } }
      : {}),
  };
}

function repositoryView(r: { top_level: string; worktree_default: number; setup_command: string | null }): RepositorySettingsT {
  return { repository: r.top_level, worktreeDefault: r.worktree_default === 1, ...(r.setup_command ? { setupCommand: r.setup_command } : {}) };
}
