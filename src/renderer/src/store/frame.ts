/**
 * When the view catches up with the store. Live events go into the store as they arrive; the
 * rows the view reads are regrouped at most once per frame, so a burst of chunks costs one
 * render, not one per chunk.
 */
export type FrameScheduler = (run: () => void) => void;

/** Runs at once: the store's rows follow every event (the default, and what tests rely on). */
export const immediately: FrameScheduler = (run) => run();

/** Runs before the browser's next paint. */
export const nextAnimationFrame: FrameScheduler = (run) => {
  requestAnimationFrame(() => run());
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
