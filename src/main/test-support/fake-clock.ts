import type { Clock, TimerHandle } from '../util/clock';

interface FakeTimer extends TimerHandle {
  id: number;
  at: number;
  fn: () => void;
}

/** A manual clock for tests: time moves only through `advance`. */
export class FakeClock implements Clock {
  private time: number;
  /** Moves with `advance`, not with `suspend`: what the OS's monotonic clock does in a sleep. */
  private awake = 0;
  private nextId = 1;
  private timers: FakeTimer[] = [];

  constructor(start = 1_700_000_000_000) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  monotonic(): number {
    return this.awake;
  }

  /**
   * The computer sleeps `ms`: the wall clock jumps, the monotonic clock does not, and timers
   * (which count on the monotonic clock, as Node's do) are that much later in wall time.
   * Nothing fires: the process was stopped.
   */
  suspend(ms: number): void {
    this.time += ms;
    for (const t of this.timers) t.at += ms;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const timer: FakeTimer = { id: this.nextId++, at: this.time + Math.max(0, ms), fn, unref: () => timer };
    this.timers.push(timer);
    return timer;
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers = this.timers.filter((t) => t !== handle);
  }

  get pendingTimers(): number {
    return this.timers.length;
  }

  /** Moves time forward, firing due timers in order; awaits microtasks between them. */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.awake += Math.max(0, due.at - this.time);
      this.time = Math.max(this.time, due.at);
      due.fn();
      await flushMicrotasks();
    }
    this.awake += end - this.time;
    this.time = end;
    await flushMicrotasks();
  }
}

export async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}
