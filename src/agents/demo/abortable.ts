/** Timers that a cancelled turn can cut short, so cancellation is prompt. */

/** Resolves after `ms`, or early (without throwing) once `signal` aborts. */
export function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      stopListening();
      resolve();
    }, ms);
    const stopListening = onAbort(signal, () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Resolves once `signal` aborts; used by turns that only end by cancellation. */
export function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => onAbort(signal, resolve));
}

/**
 * Runs `fn` once `signal` aborts, at once if it already has: an abort event fires only once, so
 * a listener added after a cancel that came early would never run. Returns what stops listening.
 */
export function onAbort(signal: AbortSignal, fn: () => void): () => void {
  if (signal.aborted) {
    fn();
    return () => {};
  }
  signal.addEventListener('abort', fn, { once: true });
  return () => signal.removeEventListener('abort', fn);
}
