/** Time is passed in so timers (reaper, deadlines, grace periods) are tested with fake time. */
export interface TimerHandle {
  unref?(): unknown;
}

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
  /**
   * Milliseconds on a clock that never jumps and (on Linux and macOS) stops while the computer
   * sleeps: the wall clock running ahead of it is a sleep (`SuspendWatch`). Absent: no sleep
   * is ever seen through the clocks.
   */
  monotonic?(): number;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** Resolves after `ms` on the given clock. */
export function delay(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => {
    clock.setTimeout(resolve, ms);
  });
}

/** Largest delay Node's timers accept; larger values fire at once with a warning. */
export const MAX_TIMER_MS = 2 ** 31 - 1;
