/**
 * The demo agent's stdout, written once per event-loop turn instead of once per message.
 * A `/flood` spent more time in one pipe write per `session/update` than in everything else
 * (profiled: ~14% in the write syscall, ~25% in per-write stream bookkeeping), so the agent,
 * not the client, capped every ingest figure. Order is kept: bytes leave in write order.
 * Past `FLUSH_AT` queued characters the queue is written at once: a writer that never yields
 * (a flood whose sends resolve at once) would otherwise queue its whole output and write it in
 * one go, after producing it, instead of while the reader works through what came before.
 */
import type { Writable } from 'node:stream';

export interface BatchedOutput {
  readonly stream: WritableStream<Uint8Array>;
  /**
   * Queues one already-serialised line behind everything written so far, synchronously;
   * returns a promise to wait on while the output is full (undefined when it is not).
   */
  writeLine(line: string): Promise<void> | undefined;
  /** Writes out what is queued now (before the process exits). */
  flush(): void;
}

/** About one pipe buffer's worth (Linux: 64 KiB); measured on /flood, 32 KiB keeps both sides busy. */
const FLUSH_AT = 32 * 1024;

export function batchedOutput(out: Writable, schedule: (fn: () => void) => void = setImmediate): BatchedOutput {
  // Lines queued by `writeLine` stay strings until the flush encodes them in one go.
  let queued: (Uint8Array | string)[] = [];
  let queuedSize = 0;
  let scheduled = false;
  // Set while `out` asks us to wait ('drain'): writers wait too, so memory stays bounded.
  let draining: Promise<void> | undefined;

  // A flush scheduled earlier may find the queue already written: it then does nothing.
  const flush = (): void => {
    scheduled = false;
    if (queued.length === 0) return;
    const data = encode(queued);
    queued = [];
    queuedSize = 0;
    if (!out.write(data) && !draining) {
      draining = new Promise<void>((resolve) =>
        out.once('drain', () => {
          draining = undefined;
          resolve();
        }),
      );
    }
  };

  const enqueue = (chunk: Uint8Array | string): Promise<void> | undefined => {
    queued.push(chunk);
    queuedSize += typeof chunk === 'string' ? chunk.length : chunk.byteLength;
    if (queuedSize >= FLUSH_AT) flush();
    else if (!scheduled) {
      scheduled = true;
      schedule(flush);
    }
    return draining;
  };

  const stream = new WritableStream<Uint8Array>({
    write: (chunk) => enqueue(chunk),
    close() {
      flush();
    },
  });
  return { stream, writeLine: enqueue, flush };
}

/** One buffer of everything queued, in order; runs of strings are joined and encoded once. */
function encode(queued: readonly (Uint8Array | string)[]): Buffer {
  const parts: Uint8Array[] = [];
  let text: string[] = [];
  for (const piece of queued) {
    if (typeof piece === 'string') {
      text.push(piece);
      continue;
    }
    if (text.length > 0) parts.push(Buffer.from(text.join(''), 'utf8'));
    text = [];
    parts.push(piece);
  }
  if (text.length > 0) parts.push(Buffer.from(text.join(''), 'utf8'));
  const only = parts.length === 1 ? parts[0] : undefined;
  return Buffer.isBuffer(only) ? only : Buffer.concat(parts);
}
