import type { Clock, TimerHandle } from '../util/clock';

/**
 * Real timers, but `now()` can jump forward. For windows measured in clock time (the crash
 * loop's minute) while real processes still need real grace periods to run out, and for a
 * simulated sleep (the wall clock jumps, the monotonic one does not).
 */
export class ShiftableClock implements Clock {
  private offset = 0;

  now(): number {
    return Date.now() + this.offset;
  }

  /** Not shifted: a `shift` looks to `SuspendWatch` like the computer slept that long. */
  monotonic(): number {
    return performance.now();
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
