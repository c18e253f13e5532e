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

/** `flush` once per scheduled frame, however often it is requested before that frame runs. */
export function coalesced(schedule: FrameScheduler, flush: () => void): () => void {
  let pending = false;
  return () => {
    if (pending) return;
    pending = true;
    schedule(() => {
      pending = false;
      flush();
    });
  };
}
