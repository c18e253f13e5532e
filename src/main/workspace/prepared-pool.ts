import { discardPreparedWorktree, prepareWorktree, type Git, type PreparedWorktree } from './git';
import type { Clock } from '../util/clock';
import type { Logger } from '../util/log';
import type { TimerQueue } from '../util/timer-queue';

/** A prepared worktree nobody claimed is removed after this long (it holds a whole checkout on disk). */
export const PREPARED_IDLE_MS = 10 * 60_000;

interface Entry {
  /** Settles with the prepared worktree, or undefined when preparing failed (logged). */
  ready: Promise<PreparedWorktree | undefined>;
  root: string;
}

/**
 * Worktrees made ahead while the New session dialog is open (ADR 0020: checking out 10,000 files
 * takes seconds on a slow disk; claiming a prepared one takes ~100 ms). At most one per
 * repository, keyed by its common git folder; `take` hands it to the session being created (waiting
 * for it if it is still being made), an unclaimed one goes after `PREPARED_IDLE_MS`, and all of
 * them at quit.
 */
export class PreparedPool {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly o: { git: Git; clock: Clock; timers: TimerQueue; log: Logger; idleMs?: number },
  ) {}

  /** Starts preparing a worktree of the repository at `repoDir` under `root`, unless one is there or on its way. */
  prepare(commonDir: string, repoDir: string, root: string): void {
    if (this.entries.has(commonDir)) return;
    const startedAt = this.o.clock.now();
    const ready = prepareWorktree(this.o.git, { repoDir, root }).then(
      (prepared) => {
        // How long a checkout takes on this disk: what a Start right after choosing the folder waits for.
        this.o.log.info('prepared a worktree ahead', { repo: repoDir, path: prepared.path, ms: this.o.clock.now() - startedAt });
        return prepared;
      },
      (err: unknown) => {
        this.o.log.warn('preparing a worktree ahead failed; the session will make one when it starts', { repo: repoDir, error: String(err) });
        if (this.entries.get(commonDir)?.ready === ready) this.entries.delete(commonDir);
        return undefined;
      },
    );
    this.entries.set(commonDir, { ready, root });
    this.o.timers.at(this.key(commonDir), this.o.clock.now() + (this.o.idleMs ?? PREPARED_IDLE_MS), () => {
      void this.discard(commonDir);
    });
  }

  /** One is prepared or being prepared for this repository. */
  has(commonDir: string): boolean {
    return this.entries.has(commonDir);
  }

  /**
   * The prepared worktree of the repository, for a new session (its caller claims it or discards
   * it); undefined when none was asked for, or preparing failed, or it was made under another root.
   */
  async take(commonDir: string, root: string): Promise<PreparedWorktree | undefined> {
    const entry = this.entries.get(commonDir);
    if (!entry) return undefined;
    this.entries.delete(commonDir);
    this.o.timers.cancel(this.key(commonDir));
    const prepared = await entry.ready;
    if (prepared && entry.root !== root) {
      // The worktree folder setting changed since: a rename across disks would fail.
      await this.remove(prepared);
      return undefined;
    }
    return prepared;
  }

  /** Removes every prepared worktree (quit), waiting for those still being made. */
  async dispose(): Promise<void> {
    await Promise.all([...this.entries.keys()].map((commonDir) => this.discard(commonDir)));
  }

  private async discard(commonDir: string): Promise<void> {
    const entry = this.entries.get(commonDir);
    if (!entry) return;
    this.entries.delete(commonDir);
    this.o.timers.cancel(this.key(commonDir));
    const prepared = await entry.ready;
    if (prepared) await this.remove(prepared);
  }

  private async remove(prepared: PreparedWorktree): Promise<void> {
    await discardPreparedWorktree(this.o.git, prepared).catch((err: unknown) => {
      // The next start sweeps it (`sweepPreparedWorktrees`).
      this.o.log.warn('removing a prepared worktree failed', { path: prepared.path, error: String(err) });
    });
  }

  private key(commonDir: string): string {
    return `prepared-worktree:${commonDir}`;
  }
}
