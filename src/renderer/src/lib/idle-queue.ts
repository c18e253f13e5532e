/**
 * Work that must never hold up a frame (highlighting code blocks): queued, then done in the
 * browser's idle time, a few milliseconds' worth per idle period, oldest first. A frame that
 * has input or rendering to do goes first; the queue only gets what is left over.
 */

/** Calls `run` when the page is idle; `timeLeft` says how many ms this idle period has left. */
export type IdleScheduler = (run: (timeLeft: () => number) => void) => void;

/** Idle work waits at most this long for an idle period, so it is not starved by a busy page. */
const IDLE_TIMEOUT_MS = 300;
/** Without requestIdleCallback: one slice of this long per timer turn. */
const SLICE_MS = 8;

export const browserIdle: IdleScheduler = (run) => {
  if (typeof requestIdleCallback === 'function') {
    requestIdleCallback((deadline) => run(() => deadline.timeRemaining()), { timeout: IDLE_TIMEOUT_MS });
    return;
  }
  setTimeout(() => {
    const start = performance.now();
    run(() => SLICE_MS - (performance.now() - start));
  }, 0);
};

export interface IdleQueue {
  /** Queues `task`; the function returned takes it off the queue if it has not run yet. */
  add(task: () => void): () => void;
  /** Tasks waiting. */
  readonly size: number;
}

/** At least this much of an idle period must be left to start another task in it. */
const MIN_LEFT_MS = 1;

export function createIdleQueue(schedule: IdleScheduler = browserIdle): IdleQueue {
  const tasks = new Set<() => void>();
  let scheduled = false;
  const drain = (timeLeft: () => number): void => {
    scheduled = false;
    let first = true;
    for (const task of tasks) {
      // One task always runs, so a period that reports no time left (a timeout) still makes progress.
      if (!first && timeLeft() < MIN_LEFT_MS) break;
      first = false;
      tasks.delete(task);
      task();
    }
    if (tasks.size > 0) kick();
  };
  const kick = (): void => {
    if (scheduled) return;
    scheduled = true;
    schedule(drain);
  };
  return {
    add(task) {
      // A wrapper, so the same function queued twice is two tasks.
      const entry = (): void => task();
      tasks.add(entry);
      kick();
      return () => void tasks.delete(entry);
    },
    get size() {
      return tasks.size;
    },
  };
}
