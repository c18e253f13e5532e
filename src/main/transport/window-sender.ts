import type { EventName, EventPayload } from '../../shared/contract';
import type { Disposable } from '../util/lifecycle';

export interface WindowSenderOptions {
  /** Bytes queued on the socket and not yet handed to the OS. */
  bufferedAmount(): number;
  write(frame: unknown): void;
  maxBufferedBytes: number;
  /** Polls `fn` until it returns true; returns a cancel function. */
  poll(fn: () => boolean): () => void;
}

/**
 * Sends host events to one WebSocket window without buffering without bound: while the socket
 * is further behind than `maxBufferedBytes`, a session's transcript events are dropped (they
 * are in the store), and once it has drained the window gets one `session:resync` per session
 * with the last seq it was sent, and catches up with `transcript:since`.
 */
export class WindowSender implements Disposable {
  private readonly lastSent = new Map<string, number>();
  private readonly behind = new Set<string>();
  private stopPolling: (() => void) | undefined;

  constructor(private readonly o: WindowSenderOptions) {}

  send<E extends EventName>(event: E, payload: EventPayload<E>): void {
    if (event === 'session:event') {
      const { sessionId, seq } = payload as EventPayload<'session:event'>;
      if (this.behind.has(sessionId) || this.o.bufferedAmount() > this.o.maxBufferedBytes) {
        this.behind.add(sessionId);
        this.stopPolling ??= this.o.poll(() => this.catchUp());
        return;
      }
      this.lastSent.set(sessionId, seq);
    }
    this.o.write({ type: 'event', event, payload });
  }

  /** Sessions this window is being resynchronised on. */
  get lagging(): ReadonlySet<string> {
    return this.behind;
  }

  /** Stops waiting for the socket to drain. Idempotent. */
  dispose(): void {
    this.stopPolling?.();
    this.stopPolling = undefined;
  }

  private catchUp(): boolean {
    if (this.o.bufferedAmount() > this.o.maxBufferedBytes / 4) return false;
    this.stopPolling = undefined;
    for (const sessionId of this.behind) {
      this.o.write({ type: 'event', event: 'session:resync', payload: { sessionId, lastSeq: this.lastSent.get(sessionId) ?? 0 } });
    }
    this.behind.clear();
    return true;
  }
}
