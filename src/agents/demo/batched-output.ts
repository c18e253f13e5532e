/**
 * The demo agent's stdout, written once per event-loop turn instead of once per message.
 * A `/flood` spent more time in one pipe write per `session/update` than in everything else
 * (profiled: ~14% in the write syscall, ~25% in per-write stream bookkeeping), so the agent,
 * not the client, capped every ingest figure. Order is kept: bytes leave in write order.
 */
import type { Writable } from 'node:stream';

export interface BatchedOutput {
  readonly stream: WritableStream<Uint8Array>;
  /** Writes out what is queued now (before the process exits). */
  flush(): void;
}

export function batchedOutput(out: Writable, schedule: (fn: () => void) => void = setImmediate): BatchedOutput {
  let queued: Uint8Array[] = [];
  let bytes = 0;
  let scheduled = false;
  // Set while `out` asks us to wait ('drain'): writers wait too, so memory stays bounded.
  let draining: Promise<void> | undefined;

  const flush = (): void => {
    scheduled = false;
    if (queued.length === 0) return;
    const data = Buffer.concat(queued, bytes);
    queued = [];
    bytes = 0;
    if (!out.write(data) && !draining) {
      draining = new Promise<void>((resolve) =>
        out.once('drain', () => {
          draining = undefined;
          resolve();
        }),
      );
    }
  };

  const stream = new WritableStream<Uint8Array>({
    write(chunk) {
      queued.push(chunk);
      bytes += chunk.byteLength;
      if (!scheduled) {
        scheduled = true;
        schedule(flush);
      }
      return draining;
    },
    close() {
      flush();
    },
  });
  return { stream, flush };
}
