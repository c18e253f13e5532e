import type { Clock, TimerHandle } from '../util/clock';

/**
 * Real timers, but `now()` can jump forward. For windows measured in clock time (the crash
 * loop's minute) while real processes still need real grace periods to run out.
 */
export class ShiftableClock implements Clock {
  private offset = 0;

  now(): number {
    return Date.now() + this.offset;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    return setTimeout(fn, ms);
  }

  clearTimeout(handle: TimerHandle): void {
    clearTimeout(handle as NodeJS.Timeout);
  }

  /** Moves `now()` forward by `ms`; armed timers are not affected. */
  shift(ms: number): void {
    this.offset += ms;
  }
}
