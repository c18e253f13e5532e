/**
 * A lean client of the headless host's WebSocket, for benchmarks: frames go to listeners as
 * they arrive and nothing is kept, so the client's own cost stays flat however long the run.
 * (The test-support `WsClient` keeps and re-scans every event: fine for tests, not for 100k.)
 */
import type WebSocket from 'ws';
import { openHostSocket } from '../../src/main/test-support/serve-process';
import type { CommandName, CommandRequest, CommandResponse, EventName, EventPayload, Result, SessionEventT } from '../../src/shared/contract';

interface Frame {
  type: 'response' | 'event';
  id?: number;
  result?: Result<unknown>;
  event?: EventName;
  payload?: unknown;
}

type Listener = (event: EventName, payload: unknown) => void;

export class BenchClient {
  private nextId = 1;
  private readonly pending = new Map<number, (result: Result<unknown>) => void>();
  private readonly listeners = new Set<Listener>();
  /** `turnEnded` waits, by client message id: a frame finds its waiter in one look-up (100 sessions wait at once). */
  private readonly turnWaits = new Map<string, () => void>();

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Frame;
      if (frame.type === 'response' && frame.id !== undefined) {
        this.pending.get(frame.id)?.(frame.result as Result<unknown>);
        this.pending.delete(frame.id);
      } else if (frame.type === 'event' && frame.event) {
        if (frame.event === 'session:event' && this.turnWaits.size > 0) {
          const e = frame.payload as SessionEventT;
          if (e.kind === 'turn_ended' && e.payload.clientMessageId !== undefined) this.turnWaits.get(`${e.sessionId} ${e.payload.clientMessageId}`)?.();
        }
        for (const l of this.listeners) l(frame.event, frame.payload);
      }
    });
  }

  static async connect(pageUrl: string): Promise<BenchClient> {
    return new BenchClient(await openHostSocket(new URL(pageUrl)));
  }

  async call<C extends CommandName>(command: C, payload: CommandRequest<C>): Promise<CommandResponse<C>> {
    const id = this.nextId++;
    const result = await new Promise<Result<unknown>>((resolve) => {
      this.pending.set(id, resolve);
      this.ws.send(JSON.stringify({ id, command, payload }));
    });
    if (!result.ok) throw new Error(`${command}: ${result.error.message}`);
    return result.value as CommandResponse<C>;
  }

  /** Calls `fn` for every event from now on; returns the unsubscribe. */
  on(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Resolves with the first event from now on that matches. */
  next<E extends EventName>(event: E, match: (payload: EventPayload<E>) => boolean, timeoutMs = 600_000): Promise<EventPayload<E>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        off();
        reject(new Error(`timed out waiting for ${event}`));
      }, timeoutMs);
      const off = this.on((name, payload) => {
        if (name !== event || !match(payload as EventPayload<E>)) return;
        clearTimeout(timer);
        off();
        resolve(payload as EventPayload<E>);
      });
    });
  }

  /** Resolves when `sessionId`'s turn for `clientMessageId` has ended (its `turn_ended` event). */
  turnEnded(sessionId: string, clientMessageId: string, timeoutMs = 600_000): Promise<void> {
    const key = `${sessionId} ${clientMessageId}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.turnWaits.delete(key);
        reject(new Error(`timed out waiting for the end of ${clientMessageId}`));
      }, timeoutMs);
      this.turnWaits.set(key, () => {
        clearTimeout(timer);
        this.turnWaits.delete(key);
        resolve();
      });
    });
  }

  close(): void {
    this.ws.terminate();
  }
}
