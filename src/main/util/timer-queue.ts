import type { Clock, TimerHandle } from './clock';
import { MAX_TIMER_MS } from './clock';
import type { Disposable } from './lifecycle';
import type { SuspendWatch } from './suspend-watch';

/**
 * One timer for the whole host. Components schedule keyed tasks (the reaper's next tick,
 * each pending permission's deadline); only the earliest is armed on the clock, so there is
 * never a timer per session. The armed timer is unref'd: it never keeps the process alive.
 *
 * A task's delay counts the time the computer is awake: given a `SuspendWatch`, the queue
 * looks for a sleep before it runs anything due, and moves every task later by the sleep, so
 * a wake never fires hours of deadlines at once.
 */
export class TimerQueue implements Disposable {
  private readonly tasks = new Map<string, { at: number; fn: () => void }>();
  private armed: { handle: TimerHandle; at: number } | undefined;
  private stopped = false;
  private readonly resumeSubscription: Disposable | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly suspend?: Pick<SuspendWatch, 'check' | 'onDidResume'>,
  ) {
    this.resumeSubscription = suspend?.onDidResume(({ sleptMs }) => this.postpone(sleptMs));
  }

  /** Every task moves `ms` later (a sleep: its delay counts only the time awake). */
  private postpone(ms: number): void {
    for (const task of this.tasks.values()) task.at += ms;
    this.disarm();
    this.rearm();
  }

  /** Runs `fn` at time `at` (replacing any task with the same key). */
  at(key: string, at: number, fn: () => void): void {
    if (this.stopped) return;
    this.tasks.set(key, { at, fn });
    this.rearm();
  }

  cancel(key: string): void {
    if (this.tasks.delete(key)) this.rearm();
  }

  has(key: string): boolean {
    return this.tasks.has(key);
  }

  get size(): number {
    return this.tasks.size;
  }

  /** True while a clock timer is armed (there is exactly one or none). */
  get isArmed(): boolean {
    return this.armed !== undefined;
  }

  /** Drops every task and disarms the clock; nothing is scheduled after. Idempotent. */
  dispose(): void {
    this.stopped = true;
    this.tasks.clear();
    this.disarm();
    this.resumeSubscription?.dispose();
  }

  private rearm(): void {
    let earliest = Infinity;
    for (const task of this.tasks.values()) earliest = Math.min(earliest, task.at);
    if (earliest === Infinity) return this.disarm();
    if (this.armed && this.armed.at === earliest) return;
    this.disarm();
    const wait = Math.min(MAX_TIMER_MS, Math.max(0, earliest - this.clock.now()));
    const handle = this.clock.setTimeout(() => this.fire(), wait);
    handle.unref?.();
    this.armed = { handle, at: earliest };
  }

  private disarm(): void {
    if (this.armed) this.clock.clearTimeout(this.armed.handle);
    this.armed = undefined;
  }

  private fire(): void {
    this.armed = undefined;
    // A sleep since the last look moves every task later (`postpone`) before any is judged due.
    this.suspend?.check();
    if (this.armed) return;
    const now = this.clock.now();
    const due = [...this.tasks.entries()].filter(([, t]) => t.at <= now).sort((a, b) => a[1].at - b[1].at);
    for (const [key] of due) this.tasks.delete(key);
    for (const [, task] of due) {
      try {
        task.fn();
      } catch (err) {
        // A failing task must not stop the others or the queue itself.
        console.error('[timer-queue] task failed', err);
      }
    }
    this.rearm();
  }
}
