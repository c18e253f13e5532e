import { join } from 'node:path';
import type { EventKind, PayloadOf, SetupOutputT, WorkspaceStatusT } from '../../shared/contract';
import { AppError } from '../../shared/errors';
import type { EventLog } from '../store/event-log';
import type { Store } from '../store/store';
import type { WorkspaceRow } from '../store/workspaces.repo';
import type { Clock } from '../util/clock';
import { Emitter } from '../util/event';
import type { Logger } from '../util/log';
import type { TimerQueue } from '../util/timer-queue';
import { CheckoutQueue } from './checkout-queue';
import { RefreshCoalescer } from './refresh-coalescer';
import { isGitError, worktreeStatus, type Git, type WorktreeStatus } from './git';
import type { ProcessWatch } from './setup-runner';

/** What the workspace may ask of the sessions (it never imports them; the host composes). */
export interface SessionFacts {
  /** The session's agent session is live (starting, or started and not ended). */
  isLive(sessionId: string): boolean;
  /** A turn runs, or a prompt waits for one. */
  isRunning(sessionId: string): boolean;
}

export interface WorkspaceServiceOptions {
  store: Store;
  /** Transcript events the workspace records (checkpoints, restores, setup output, git notices). */
  log: EventLog;
  git: Git;
  clock: Clock;
  timers: TimerQueue;
  logger: Logger;
  /** Where new worktrees go: the `worktreeRoot` setting, else `<data dir>/worktrees` (read at each use). */
  worktreeRoot(): string;
  /** The workspace's own files in the data folder: scratch indexes, throwaway diff indexes. */
  scratchDir: string;
  sessions: SessionFacts;
  /** The host's watchdog: a setup command dies with the host like an agent does. */
  watch?: ProcessWatch;
  /** How long a burst of writes is gathered before the status and Changes are read again (default 250 ms). */
  refreshDelayMs?: number;
  /** The environment setup commands run with (default: the host's). */
  setupEnv?: NodeJS.ProcessEnv;
}

/** The empty tree: what an unborn branch's files are compared with. */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/**
 * What the workspace service's parts share: the options, one queue per checkout, the guarded
 * transcript writer, and the status and Changes announcements (debounced per session).
 */
export class WorkspaceCore {
  readonly queue = new CheckoutQueue();
  readonly didChangeStatus = new Emitter<WorkspaceStatusT>();
  readonly didChangeFiles = new Emitter<{ sessionId: string; at: number }>();
  readonly didSetupOutput = new Emitter<SetupOutputT>();
  /** The last status announced per session (only sessions that were refreshed; dropped with them). */
  private readonly lastStatus = new Map<string, string>();
  /** Sessions being deleted: nothing more is recorded for them. */
  private readonly deleting = new Set<string>();
  private isDisposed = false;
  private readonly refresher: RefreshCoalescer;

  constructor(readonly o: WorkspaceServiceOptions) {
    this.refresher = new RefreshCoalescer({
      clock: o.clock,
      timers: o.timers,
      delayMs: o.refreshDelayMs ?? 250,
      name: 'workspace-refresh',
      run: (sessionId) => this.refresh(sessionId),
      onError: (sessionId, err) => o.logger.warn('refreshing a workspace failed', { session: sessionId, error: String(err) }),
    });
  }

  /** Quit is past the point where the store may be used. */
  get disposed(): boolean {
    return this.isDisposed;
  }

  get git(): Git {
    return this.o.git;
  }

  now(): number {
    return this.o.clock.now();
  }

  /** The session's workspace row; a session without one (a plain folder) is refused for `what`. */
  row(sessionId: string, what: string): WorkspaceRow {
    if (!this.o.store.sessions.get(sessionId)) throw new AppError('not_found', `No session ${sessionId}`);
    const row = this.o.store.workspaces.get(sessionId);
    if (!row) throw new AppError('invalid_state', `Cannot ${what}: this session's folder is not in a git repository.`);
    return row;
  }

  /** A worktree session's row, usable now (its folder there). */
  worktree(sessionId: string, what: string): WorkspaceRow & { worktree_path: string; branch: string; base_branch: string; base_commit: string } {
    const row = this.row(sessionId, what);
    if (row.kind !== 'worktree') throw new AppError('invalid_state', `Cannot ${what}: this session works in a shared folder, not in a worktree of its own.`);
    this.requireFolder(row, what);
    return row as ReturnType<WorkspaceCore['worktree']>;
  }

  /** Refuses a worktree whose folder is gone (archived, or vanished). */
  requireFolder(row: WorkspaceRow, what: string): void {
    if (row.removed_at !== null) throw new AppError('invalid_state', `Cannot ${what}: the session is archived and its worktree folder was removed; restore the session first.`);
    if (row.missing_at !== null) throw new AppError('invalid_state', `Cannot ${what}: the worktree folder ${row.worktree_path ?? ''} is gone; make it again from its branch first.`);
  }

  /** The folder git operations of the session run in: its worktree, or the shared checkout. */
  checkout(row: WorkspaceRow): string {
    return row.kind === 'worktree' && row.worktree_path ? row.worktree_path : row.repo_top;
  }

  /** The session's scratch index (checkpoints, restores): its own, in the data folder. */
  indexFile(sessionId: string): string {
    return join(this.o.scratchDir, 'index', `${sessionId}.index`);
  }

  /** Runs a git operation, its failure as the contract's error (git's words in the details). */
  async gitCall<T>(work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (err) {
      if (isGitError(err)) throw err.toAppError();
      throw err;
    }
  }

  /** Appends to the session's transcript unless it is gone or going (its events would have no session). */
  record<K extends EventKind>(sessionId: string, kind: K, payload: PayloadOf<K>): void {
    if (this.disposed || this.deleting.has(sessionId) || !this.o.store.sessions.get(sessionId)) return;
    this.o.log.append(sessionId, kind, payload);
  }

  notice(sessionId: string, kind: PayloadOf<'notice'>['kind'], text: string, stderr?: string): void {
    const stderrTail = stderr ? stderr.split('\n').slice(-20) : undefined;
    this.record(sessionId, 'notice', { kind, text, ...(stderrTail ? { stderrTail } : {}) });
  }

  /** The session is being deleted: nothing more is recorded or announced for it. */
  startDeleting(sessionId: string): void {
    this.deleting.add(sessionId);
    this.refresher.cancel(sessionId);
  }

  /** Its rows are gone (or the delete was refused): forget it. */
  doneDeleting(sessionId: string): void {
    this.deleting.delete(sessionId);
    this.lastStatus.delete(sessionId);
  }

  /**
   * The files of the session may have changed: read its status and tell Changes, after a short
   * quiet spell (bounded: see `RefreshCoalescer`).
   */
  refreshSoon(sessionId: string, delayMs?: number): void {
    if (this.disposed || this.deleting.has(sessionId)) return;
    this.refresher.ask(sessionId, delayMs);
  }

  /** Reads the status now; announces it if it changed, and that the files may have. */
  async refresh(sessionId: string): Promise<void> {
    const row = this.o.store.workspaces.get(sessionId);
    if (!row || row.removed_at !== null || row.missing_at !== null || this.deleting.has(sessionId)) return;
    const status = await this.readStatus(row);
    if (this.disposed || this.deleting.has(sessionId)) return;
    this.announceStatus(status);
    this.didChangeFiles.fire({ sessionId, at: status.at });
  }

  /** The header's status of a session's workspace, read through its checkout's queue. */
  readStatus(row: WorkspaceRow): Promise<WorkspaceStatusT> {
    const base = { branch: row.base_branch ?? '', commit: row.base_commit ?? 'HEAD' };
    return this.queue.run(this.checkout(row), async () => {
      const s: WorktreeStatus = await worktreeStatus(this.git, this.checkout(row), base);
      const status: WorkspaceStatusT = {
        sessionId: row.session_id,
        ahead: s.ahead,
        behind: s.behind,
        dirty: s.dirty,
        uncommitted: s.uncommitted,
        at: this.now(),
        ...(s.branch !== undefined ? { branch: s.branch } : {}),
        ...(s.head !== undefined ? { head: s.head } : {}),
        ...(row.base_branch ? { baseBranch: row.base_branch } : {}),
      };
      return status;
    });
  }

  announceStatus(status: WorkspaceStatusT): void {
    const { at: _at, ...rest } = status;
    const key = JSON.stringify(rest);
    if (this.lastStatus.get(status.sessionId) === key) return;
    this.lastStatus.set(status.sessionId, key);
    this.didChangeStatus.fire(status);
  }

  dispose(): void {
    if (this.isDisposed) return;
    this.isDisposed = true;
    this.didChangeStatus.dispose();
    this.didChangeFiles.dispose();
    this.didSetupOutput.dispose();
  }
}
