import type { Writable } from 'node:stream';

/** Past this many bytes waiting in a run, they go at once (and the rest of the run is gathered again). */
const FLUSH_BYTES = 1024 * 1024;

/**
 * Writes made to `stream` in one run of the host's code leave together: the stream is corked at
 * the first and uncorked once that run is over (a microtask), so Node hands them to the OS in
 * one `writev` instead of a system call each. A window's WebSocket gets one frame per transcript
 * event; with 100 sessions streaming at once, a commit's events belong to many sessions, few are
 * joined, and those calls were 12% of the host's time (`bench/profile.ts ingest 100`). The frames
 * and their order are unchanged, and nothing waits past the current turn.
 *
 * What is corked counts as not yet sent (`bufferedAmount`, which decides when a slow window is
 * resynchronised instead: window-sender.ts), so a run never gathers more than `flushBytes`.
 */
export function coalesceWrites(stream: Pick<Writable, 'cork' | 'uncork' | 'writableLength'>, flushBytes = FLUSH_BYTES): () => void {
  let corked = false;
  const uncork = (): void => {
    corked = false;
    stream.uncork();
  };
  return () => {
    if (corked) {
      if (stream.writableLength < flushBytes) return;
      // Hand over what gathered so far; the run's microtask ends the new cork.
      stream.uncork();
      stream.cork();
      return;
    }
    corked = true;
    stream.cork();
    queueMicrotask(uncork);
  };
}
