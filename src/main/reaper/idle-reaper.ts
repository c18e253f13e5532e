import type { SessionStateT } from '../../shared/contract';
import type { Clock } from '../util/clock';
import type { Logger } from '../util/log';
import type { Disposable } from '../util/lifecycle';
import type { TimerQueue } from '../util/timer-queue';

/** What the reaper needs to know about a session, read fresh every time it asks. */
export interface IdleFacts {
  state: SessionStateT;
  lastActivityAt: number;
  /** When its last window left; undefined if no window ever left it. */
  detachedAt: number | undefined;
  /** Windows watching it now. */
  watchers: number;
  /** A turn running, or prompts accepted and waiting for one. */
  turnInFlight: boolean;
  pendingPermissions: number;
}

/**
 * Why a session must stay, or undefined when it may be reaped: DETACHED (no window watches
 * it), no turn in flight, no permission pending, and the later of its last activity and the
 * moment its last window left is at or before `cutoff`, not counting the time the computer
 * slept since (`sleptSince`): idleness is measured awake, so a wake does not reap every
 * session at once.
 */
export function keepReason(facts: IdleFacts | undefined, cutoff: number, sleptSince: (from: number) => number = () => 0): string | undefined {
  if (!facts) return 'gone';
  if (facts.state !== 'DETACHED') return `state ${facts.state}`;
  if (facts.watchers > 0) return 'watched';
  if (facts.turnInFlight) return 'turn in flight';
  if (facts.pendingPermissions > 0) return 'permission pending';
  const last = Math.max(facts.lastActivityAt, facts.detachedAt ?? 0);
  if (last + sleptSince(last) > cutoff) return 'recently active';
  return undefined;
}

export interface IdleReaperOptions {
  clock: Clock;
  timers: TimerQueue;
  log: Logger;
  idleTimeoutMs: number;
  intervalMs: number;
  /** DETACHED sessions whose later of last activity and detach time is at or before `cutoff`. */
  candidates(cutoff: number): string[];
  /** The session as it is now; undefined if it no longer exists. */
  inspect(sessionId: string): IdleFacts | undefined;
  isClosing(sessionId: string): boolean;
  /**
   * Soft close through the normal path. `precondition` is checked synchronously right before
   * the close begins; resolves false if it aborted the close.
   */
  close(sessionId: string, precondition: () => boolean): Promise<boolean>;
  /** Ends a session without asking its agent and releases its broker. */
  forceEnd(sessionId: string): Promise<void>;
  /** Failed closes of one session (over consecutive ticks) before it is ended by force. */
  maxCloseAttempts?: number;
  /** How long the computer slept between two wall-clock times (`SuspendWatch.sleptBetween`). */
  sleptBetween?(from: number, to: number): number;
}

const TIMER_KEY = 'idle-reaper';

/**
 * Closes DETACHED sessions that nobody watches, with no turn in flight and no pending
 * permission, once idle longer than the timeout (reason `idle_timeout`). One pass at a time;
 * it runs on the host's single timer and never keeps the process alive. 0 disables it.
 */
export class IdleReaper implements Disposable {
  private running = false;
  private stopped = false;
  private ticking: Promise<void> | undefined;
  private readonly failures = new Map<string, number>();

  constructor(private readonly o: IdleReaperOptions) {}

  get enabled(): boolean {
    return this.o.idleTimeoutMs > 0 && this.o.intervalMs > 0;
  }

  start(): void {
    if (!this.enabled || this.running) return;
    this.running = true;
    this.stopped = false;
    this.schedule();
  }

  /** Stops the reaper for good (quit, or replaced by new settings). Idempotent. */
  dispose(): void {
    this.stop();
  }

  /** No tick starts after this; a pass in flight stops before its next session. */
  stop(): void {
    this.running = false;
    this.stopped = true;
    this.o.timers.cancel(TIMER_KEY);
  }

  /** One pass. Overlapping calls share the pass in flight. Does nothing while disabled. */
  tick(): Promise<void> {
    this.ticking ??= this.pass().finally(() => {
      this.ticking = undefined;
    });
    return this.ticking;
  }

  private schedule(): void {
    if (!this.running) return;
    this.o.timers.at(TIMER_KEY, this.o.clock.now() + this.o.intervalMs, () => {
      // A failing pass (the store gone, say) must neither stop the reaper nor surface as an
      // unhandled rejection, which would take the whole host down.
      void this.tick()
        .catch((err: unknown) => this.o.log.error('idle reaper pass failed', { error: String(err) }))
        .finally(() => this.schedule());
    });
  }

  private async pass(): Promise<void> {
    if (!this.enabled || this.stopped) return;
    const cutoff = (): number => this.o.clock.now() - this.o.idleTimeoutMs;
    const ids = this.o.candidates(cutoff());
    // A session that stopped being a candidate (used again, closed) starts over at 0 failures.
    for (const id of [...this.failures.keys()]) if (!ids.includes(id)) this.failures.delete(id);
    for (const id of ids) {
      if (this.stopped) return;
      if (this.o.isClosing(id)) continue;
      // Checked again right before closing: a window that attached or a prompt that arrived
      // while this pass worked on earlier sessions wins.
      const slept = (from: number): number => this.o.sleptBetween?.(from, this.o.clock.now()) ?? 0;
      const idle = (): boolean => keepReason(this.o.inspect(id), cutoff(), slept) === undefined;
      try {
        const closed = await this.o.close(id, idle);
        if (closed) this.o.log.info('reaped idle session', { session: id });
        else this.o.log.debug('kept a session that stopped being idle', { session: id });
        this.failures.delete(id);
      } catch (err) {
        const attempts = (this.failures.get(id) ?? 0) + 1;
        this.failures.set(id, attempts);
        this.o.log.warn('closing an idle session failed', { session: id, attempts, error: String(err) });
        if (attempts < (this.o.maxCloseAttempts ?? 3)) continue;
        this.failures.delete(id);
        // The forced end is a close too: it obeys the same predicate.
        if (this.stopped || !idle()) continue;
        this.o.log.warn('ending an idle session by force after repeated failures', { session: id, attempts, error: String(err) });
        await this.o.forceEnd(id).catch((forceErr: unknown) =>
          this.o.log.error('ending an idle session by force failed', { session: id, error: String(forceErr) }),
        );
      }
    }
  }
}
