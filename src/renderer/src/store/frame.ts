/**
 * When the view catches up with the store. Live events go into the store as they arrive; the
 * rows the view reads are regrouped at most once per frame, so a burst of chunks costs one
 * render, not one per chunk. What a person is waiting for (the first words of an answer) may
 * go at once instead, once between two frames.
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

/** `flush` once per scheduled frame, however often it is asked for before that frame runs; plus `now`. */
export interface UrgentCoalesced {
  /** Flush at the next frame (folded with every other request before it). */
  later(): void;
  /**
   * Flush now, unless `now` already flushed since the last frame: then at the next frame, like
   * `later`. So a stream costs at most one extra flush per frame, whatever it sends.
   */
  now(): void;
}

export function coalescedWithUrgent(schedule: FrameScheduler, flush: () => void): UrgentCoalesced {
  let pending = false;
  let armed = false;
  let flushedNow = false;
  const arm = (): void => {
    if (armed) return;
    armed = true;
    schedule(() => {
      armed = false;
      flushedNow = false;
      if (!pending) return;
      pending = false;
      flush();
    });
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
      pending = false;
      flush();
      arm();
    },
  };
}
