import type { Clock, TimerHandle } from '../util/clock';

interface FakeTimer extends TimerHandle {
  id: number;
  at: number;
  fn: () => void;
}

/** A manual clock for tests: time moves only through `advance`. */
export class FakeClock implements Clock {
  private time: number;
  private nextId = 1;
  private timers: FakeTimer[] = [];

  constructor(start = 1_700_000_000_000) {
    this.time = start;
  }

  now(): number {
    return this.time;
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
      this.time = Math.max(this.time, due.at);
      due.fn();
      await flushMicrotasks();
    }
    this.time = end;
    await flushMicrotasks();
  }
}

export async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}
