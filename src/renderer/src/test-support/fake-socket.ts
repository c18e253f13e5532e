import type { SocketLike, Timers } from '../api/ws-api';

/** A WebSocket the test opens, answers and pushes on by hand. */
export class FakeSocket implements SocketLike {
  readyState = 0;
  onopen: ((ev: unknown) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  readonly sent: { id: number; command: string; payload: unknown }[] = [];
  constructor(readonly url: string) {}
  send(data: string): void {
    this.sent.push(JSON.parse(data) as { id: number; command: string; payload: unknown });
  }
  close(): void {
    this.readyState = 3;
    this.onclose?.({});
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  reply(id: number, result: unknown): void {
    this.onmessage?.({ data: JSON.stringify({ type: 'response', id, result }) });
  }
  push(event: string, payload: unknown): void {
    this.onmessage?.({ data: JSON.stringify({ type: 'event', event, payload }) });
  }
}

/** Timers that fire only when the test says so, to observe the backoff without sleeping. */
export class ManualTimers implements Timers {
  private next = 1;
  readonly pending = new Map<number, { fn: () => void; ms: number }>();
  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.next++;
    this.pending.set(id, { fn, ms });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  delays(): number[] {
    return [...this.pending.values()].map((t) => t.ms);
  }
  fire(ms: number): void {
    for (const [id, t] of [...this.pending]) {
      if (t.ms !== ms) continue;
      this.pending.delete(id);
      t.fn();
    }
  }
}
