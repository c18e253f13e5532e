/**
 * When the view catches up with the store. Live events go into the store as they arrive; the
 * rows the view reads are regrouped at most once per frame, so a burst of chunks costs one
 * render, not one per chunk.
 */
export type FrameScheduler = (run: () => void) => void;

/** Runs at once: the store's rows follow every event (the default, and what tests rely on). */
export const immediately: FrameScheduler = (run) => run();

/**
 * A hidden window gets no animation frames; rows still follow within this long, so what a
 * window shows when it comes back is never stale.
 */
const HIDDEN_FALLBACK_MS = 250;

/** Runs before the browser's next paint, or after a short timeout if no frame comes. */
export const nextAnimationFrame: FrameScheduler = (run) => {
  let done = false;
  const once = (): void => {
    if (done) return;
    done = true;
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    run();
  };
  const frame = requestAnimationFrame(once);
  const timer = setTimeout(once, HIDDEN_FALLBACK_MS);
};

/** Spacing between two flushes while requests keep coming (see `coalesced`). */
export interface Pace {
  /** At least this long between the starts of two flushes; 0: every frame. */
  minIntervalMs: number;
  now(): number;
  /** Calls `run` after `ms` (a timer). */
  after(ms: number, run: () => void): void;
}

/**
 * `flush` once per scheduled frame, however often it is requested before that frame runs.
 * With a `pace`, a request that comes less than `minIntervalMs` after the last flush waits
 * for the frame after that interval: a stream paints at most that often, while the first
 * request after a quiet spell still paints in the next frame.
 */
export function coalesced(schedule: FrameScheduler, flush: () => void, pace?: Pace): () => void {
  let pending = false;
  let last = Number.NEGATIVE_INFINITY;
  const go = (): void => {
    pending = false;
    if (pace) last = pace.now();
    flush();
  };
  const atFrame = (): void => {
    const wait = pace ? last + pace.minIntervalMs - pace.now() : 0;
    if (wait > 0) pace!.after(wait, () => schedule(go));
    else go();
  };
  return () => {
    if (pending) return;
    pending = true;
    schedule(atFrame);
  };
}

/** A pace on the page's clock and timers. */
export function pageClockPace(minIntervalMs: number): Pace {
  return { minIntervalMs, now: () => performance.now(), after: (ms, run) => void setTimeout(run, ms) };
}
