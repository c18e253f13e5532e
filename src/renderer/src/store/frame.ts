/**
 * When the view catches up with the store. Live events go into the store as they arrive; the
 * rows the view reads are regrouped once per scheduled run (and, paced, at most so often), so
 * a burst of chunks costs one render, not one per chunk. What a person is waiting for (the
 * first words of an answer) may go at once instead, once between two runs.
 */
export type FrameScheduler = (run: () => void) => void;

/** Runs at once: the store's rows follow every event (the default, and what tests rely on). */
export const immediately: FrameScheduler = (run) => run();

/**
 * Runs in a task of its own, as soon as the page is free (a message to itself: not clamped
 * like a nested timer, and not held back to the next animation frame). The rows' render and
 * commit then happen in that task and the browser's style, layout and paint in its own
 * frame after it: two shorter tasks, with input handled between them, where one animation
 * frame callback made them one long task (measured in the dense stream profile).
 */
export function nextTask(): FrameScheduler {
  const channel = new MessageChannel();
  const queue: (() => void)[] = [];
  channel.port1.onmessage = () => {
    const run = queue.shift();
    run?.();
  };
  return (run) => {
    queue.push(run);
    channel.port2.postMessage(null);
  };
}

/** Spacing between two flushes while requests keep coming (see `coalesced`). */
export interface Pace {
  /** At least this long between the starts of two flushes; 0: every time. */
  minIntervalMs: number;
  now(): number;
  /** Calls `run` after `ms` (a timer). */
  after(ms: number, run: () => void): void;
}

/** `flush` once per scheduled run, however often it is asked for before that run; plus `now`. */
export interface Coalesced {
  /** Flush at the next scheduled run (folded with every other request before it). */
  later(): void;
  /**
   * Flush now, unless `now` already flushed since the last scheduled run: then like `later`.
   * So a stream costs at most one extra flush per run, whatever it sends.
   */
  now(): void;
}

/**
 * With a `pace`, a `later` that comes less than `minIntervalMs` after the last flush waits for
 * the run after that interval: a stream paints at most that often, while the first request
 * after a quiet spell still goes at the next run (and `now` at once).
 */
export function coalesced(schedule: FrameScheduler, flush: () => void, pace?: Pace): Coalesced {
  let pending = false;
  let armed = false;
  let flushedNow = false;
  let last = Number.NEGATIVE_INFINITY;
  const run = (): void => {
    pending = false;
    if (pace) last = pace.now();
    flush();
  };
  const atRun = (): void => {
    armed = false;
    flushedNow = false;
    if (!pending) return;
    const wait = pace ? last + pace.minIntervalMs - pace.now() : 0;
    if (wait > 0) {
      armed = true;
      pace!.after(wait, () => schedule(atRun));
      return;
    }
    run();
  };
  const arm = (): void => {
    if (armed) return;
    armed = true;
    schedule(atRun);
  };
  const later = (): void => {
    pending = true;
    arm();
  };
  return {
    later,
    now() {
      if (flushedNow) return later();
      flushedNow = true;
      // Everything asked for so far is folded in by this flush.
      run();
      arm();
    },
  };
}

/** A pace on the page's clock and timers. */
export function pageClockPace(minIntervalMs: number): Pace {
  return { minIntervalMs, now: () => performance.now(), after: (ms, run) => void setTimeout(run, ms) };
}
