import type { Clock } from '../util/clock';
import type { Logger } from '../util/log';
import type { TimerQueue } from '../util/timer-queue';

export interface IdleReaperOptions {
  clock: Clock;
  timers: TimerQueue;
  log: Logger;
  idleTimeoutMs: number;
  intervalMs: number;
  /** DETACHED sessions whose later of last activity and detach time is at or before `cutoff`. */
  candidates(cutoff: number): string[];
  /** Full predicate, re-checked right before closing. */
  isIdle(sessionId: string, cutoff: number): boolean;
  isClosing(sessionId: string): boolean;
  /** Soft close through the normal path; resolves false if the precondition aborted it. */
  close(sessionId: string, precondition: () => boolean): Promise<boolean>;
  forceEnd(sessionId: string): Promise<void>;
  maxCloseAttempts?: number;
}

const TIMER_KEY = 'idle-reaper';

/**
 * Closes DETACHED sessions that nobody watches, with no turn in flight and no pending
 * permission, once idle longer than the timeout (reason `idle_timeout`). One tick at a time;
 * it runs on the host's single timer and never keeps the process alive.
 */
export class IdleReaper {
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
    this.schedule();
  }

  stop(): void {
    this.running = false;
    this.stopped = true;
    this.o.timers.cancel(TIMER_KEY);
  }

  /** One pass. Overlapping calls share the pass in flight. */
  tick(): Promise<void> {
    this.ticking ??= this.pass().finally(() => {
      this.ticking = undefined;
    });
    return this.ticking;
  }

  private schedule(): void {
    if (!this.running) return;
    this.o.timers.at(TIMER_KEY, this.o.clock.now() + this.o.intervalMs, () => {
      void this.tick().finally(() => this.schedule());
    });
  }

  private async pass(): Promise<void> {
    const cutoff = this.o.clock.now() - this.o.idleTimeoutMs;
    for (const id of this.o.candidates(cutoff)) {
      if (this.stopped) return;
      if (this.o.isClosing(id)) continue;
      try {
        const closed = await this.o.close(id, () => this.o.isIdle(id, this.o.clock.now() - this.o.idleTimeoutMs));
        if (closed) this.o.log.info('reaped idle session', { session: id });
        this.failures.delete(id);
      } catch (err) {
        const attempts = (this.failures.get(id) ?? 0) + 1;
        this.failures.set(id, attempts);
        this.o.log.warn('closing an idle session failed', { session: id, attempts, error: String(err) });
        if (attempts >= (this.o.maxCloseAttempts ?? 3)) {
          this.failures.delete(id);
          this.o.log.warn('ending an idle session by force after repeated failures', { session: id });
          await this.o.forceEnd(id).catch(() => {});
        }
      }
    }
  }
}
