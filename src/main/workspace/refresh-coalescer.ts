import type { Clock } from '../util/clock';
import type { TimerQueue } from '../util/timer-queue';

export interface RefreshCoalescerOptions {
  clock: Clock;
  timers: TimerQueue;
  /** The wait after the first ask of a burst. */
  delayMs: number;
  /** Prefix of the timer keys (one timer per key while one is due). */
  name: string;
  run(key: string): Promise<void>;
  onError(key: string, err: unknown): void;
}

/**
 * Refreshes asked for per key (a session's status and Changes), bounded whatever the asking rate
 * and however slow a refresh is (a huge repository's status takes seconds): at most one runs per
 * key and one more is remembered while it runs; that one waits at least as long as the last run
 * took, so refreshing never takes more than about half the time. Debounced from the first ask of a
 * burst, not the last: a long run of writes still refreshes.
 */
export class RefreshCoalescer {
  private readonly running = new Map<string, { again: boolean; startedAt: number }>();

  constructor(private readonly o: RefreshCoalescerOptions) {}

  /** A refresh of `key` after `delayMs` (0: as soon as no other runs). */
  ask(key: string, delayMs = this.o.delayMs): void {
    const run = this.running.get(key);
    if (run) {
      run.again = true;
      return;
    }
    const timer = this.timerKey(key);
    if (this.o.timers.has(timer) && delayMs > 0) return;
    this.o.timers.at(timer, this.o.clock.now() + delayMs, () => this.start(key));
  }

  /** Forgets `key`: a due refresh is dropped, and one running is not followed by another. */
  cancel(key: string): void {
    this.o.timers.cancel(this.timerKey(key));
    const run = this.running.get(key);
    if (run) run.again = false;
  }

  /** A refresh of `key` is running. */
  isRunning(key: string): boolean {
    return this.running.has(key);
  }

  private start(key: string): void {
    const run = { again: false, startedAt: this.o.clock.now() };
    this.running.set(key, run);
    const finish = (): void => {
      this.running.delete(key);
      if (run.again) this.ask(key, Math.max(this.o.delayMs, this.o.clock.now() - run.startedAt));
    };
    this.o.run(key).then(finish, (err: unknown) => {
      this.o.onError(key, err);
      finish();
    });
  }

  private timerKey(key: string): string {
    return `${this.o.name}:${key}`;
  }
}
