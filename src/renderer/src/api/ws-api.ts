import type { Api, EventName, Result } from '../../../shared/contract';
import { commandNameList } from '../../../shared/channels';
import type { ConnectionMonitor, ConnectionStatus } from './connection';

/** The part of the browser WebSocket this transport uses; tests pass a fake. */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  send(data: string): void;
  close(): void;
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

interface WsApiOptions {
  url: string;
  createSocket?: (url: string) => SocketLike;
  timers?: Timers;
  /** How long a request made while disconnected waits for the link to come back. */
  queueTimeoutMs?: number;
  /** How often an open link is checked with `host:info`; 0 turns the heartbeat off. */
  heartbeatIntervalMs?: number;
  /** A heartbeat unanswered this long means the link is dead: the socket is dropped. */
  heartbeatTimeoutMs?: number;
  /** A request unanswered this long means the link is dead: the socket is dropped. */
  requestTimeoutMs?: number;
}

const OPEN = 1;
const FIRST_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 5000;

type Resolve = (r: Result<unknown>) => void;
interface InFlight {
  resolve: Resolve;
  timer: unknown;
}
interface Queued {
  frame: string;
  id: number;
  resolve: Resolve;
  timer: unknown;
}

const disconnected = (message: string): Result<never> => ({
  ok: false,
  error: { code: 'disconnected', message },
});

/**
 * The contract over one WebSocket that reconnects by itself. Requests in flight when the link
 * drops answer `disconnected` (the caller decides whether a retry is safe, e.g. prompts carry
 * an idempotency id); requests made while down wait for the reconnect, bounded.
 */
export class WsTransport implements ConnectionMonitor {
  private socket: SocketLike | undefined;
  private nextId = 1;
  private hasOpened = false;
  private backoff = FIRST_BACKOFF_MS;
  private retryTimer: unknown;
  private disposed = false;
  private readonly inflight = new Map<number, InFlight>();
  private heartbeatTimer: unknown;
  private queue: Queued[] = [];
  private readonly eventListeners = new Map<string, Set<(payload: unknown) => void>>();
  private readonly reconnectListeners = new Set<() => void>();
  private readonly statusListeners = new Set<(s: ConnectionStatus) => void>();
  private readonly createSocket: (url: string) => SocketLike;
  private readonly timers: Timers;
  private readonly queueTimeoutMs: number;
  private readonly heartbeatIntervalMs: number;
  private readonly heartbeatTimeoutMs: number;
  private readonly requestTimeoutMs: number;
  status: ConnectionStatus = 'connecting';

  constructor(private readonly options: WsApiOptions) {
    this.createSocket =
      options.createSocket ?? ((url) => new WebSocket(url) as unknown as SocketLike);
    this.timers = options.timers ?? {
      setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
      clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
    };
    this.queueTimeoutMs = options.queueTimeoutMs ?? 30_000;
    this.heartbeatIntervalMs = options.heartbeatIntervalMs ?? 15_000;
    this.heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? 10_000;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 60_000;
    this.connect();
  }

  request(command: string, payload: unknown): Promise<Result<unknown>> {
    const id = this.nextId++;
    const frame = JSON.stringify({ id, command, payload });
    return new Promise<Result<unknown>>((resolve) => {
      const ws = this.socket;
      if (ws?.readyState === OPEN) {
        this.sendNow(ws, id, frame, resolve);
        return;
      }
      const timer = this.timers.setTimeout(() => {
        this.queue = this.queue.filter((q) => q.id !== id);
        resolve(disconnected('Not connected to the host'));
      }, this.queueTimeoutMs);
      this.queue.push({ frame, id, resolve, timer });
    });
  }

  on(event: string, listener: (payload: unknown) => void): () => void {
    let set = this.eventListeners.get(event);
    if (!set) {
      set = new Set();
      this.eventListeners.set(event, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
  }

  onStatus(listener: (s: ConnectionStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Simulates a cut connection: the socket goes away at once and the transport reconnects. */
  dropSocket(): void {
    const ws = this.socket;
    if (!ws) return;
    this.lose(ws);
    ws.close();
  }

  dispose(): void {
    this.disposed = true;
    if (this.retryTimer !== undefined) this.timers.clearTimeout(this.retryTimer);
    const ws = this.socket;
    if (ws) {
      this.lose(ws);
      ws.close();
    }
    for (const q of this.queue) {
      this.timers.clearTimeout(q.timer);
      q.resolve(disconnected('Transport closed'));
    }
    this.queue = [];
  }

  /** Sends on an open socket; an answer that does not come in time drops the socket. */
  private sendNow(ws: SocketLike, id: number, frame: string, resolve: Resolve, timeoutMs = this.requestTimeoutMs): void {
    const timer = this.timers.setTimeout(() => {
      // A dead link that never closes: losing it answers everything in flight `disconnected`.
      if (this.inflight.has(id) && this.socket === ws) this.dropSocket();
    }, timeoutMs);
    this.inflight.set(id, { resolve, timer });
    try {
      ws.send(frame);
    } catch {
      // A socket that cannot send is gone; losing it answers this request `disconnected`.
      this.lose(ws);
    }
  }

  /** Checks an open link now and then: `host:info`, which must answer in time. */
  private scheduleHeartbeat(ws: SocketLike): void {
    if (this.heartbeatIntervalMs <= 0 || this.disposed) return;
    this.heartbeatTimer = this.timers.setTimeout(() => {
      this.heartbeatTimer = undefined;
      if (this.socket !== ws || ws.readyState !== OPEN) return;
      const id = this.nextId++;
      const frame = JSON.stringify({ id, command: 'host:info', payload: {} });
      this.sendNow(
        ws,
        id,
        frame,
        (r) => {
          if (r.ok || r.error.code !== 'disconnected') this.scheduleHeartbeat(ws);
        },
        this.heartbeatTimeoutMs,
      );
    }, this.heartbeatIntervalMs);
  }

  private connect(): void {
    this.retryTimer = undefined;
    if (this.disposed) return;
    let ws: SocketLike;
    try {
      ws = this.createSocket(this.options.url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = ws;
    ws.onopen = () => {
      if (this.socket !== ws) return;
      this.backoff = FIRST_BACKOFF_MS;
      const isReconnect = this.hasOpened;
      this.hasOpened = true;
      this.setStatus('open');
      this.scheduleHeartbeat(ws);
      // Listeners re-subscribe (sessions:switch) before queued requests go out, so a queued
      // prompt retry reaches a session this window already watches again.
      if (isReconnect) for (const l of [...this.reconnectListeners]) safeCall(l);
      this.flushQueue();
    };
    ws.onclose = () => this.lose(ws);
    ws.onerror = () => {
      /* a close event always follows */
    };
    ws.onmessage = (ev) => {
      if (this.socket === ws) this.handleFrame(ev.data);
    };
  }

  private lose(ws: SocketLike): void {
    if (this.socket !== ws) return;
    this.socket = undefined;
    ws.onopen = ws.onclose = ws.onerror = ws.onmessage = null;
    if (this.heartbeatTimer !== undefined) {
      this.timers.clearTimeout(this.heartbeatTimer);
      this.heartbeatTimer = undefined;
    }
    const pending = [...this.inflight.values()];
    this.inflight.clear();
    for (const p of pending) {
      this.timers.clearTimeout(p.timer);
      p.resolve(disconnected('Connection to the host was lost'));
    }
    if (this.disposed) return;
    this.setStatus('reconnecting');
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.disposed || this.retryTimer !== undefined) return;
    const delay = this.backoff;
    this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
    this.retryTimer = this.timers.setTimeout(() => this.connect(), delay);
  }

  private flushQueue(): void {
    const queued = this.queue;
    this.queue = [];
    for (const q of queued) {
      const ws = this.socket;
      if (ws?.readyState === OPEN) {
        this.timers.clearTimeout(q.timer);
        this.sendNow(ws, q.id, q.frame, q.resolve);
      } else {
        this.queue.push(q);
      }
    }
  }

  private handleFrame(data: unknown): void {
    let frame: unknown;
    try {
      frame = JSON.parse(typeof data === 'string' ? data : String(data));
    } catch {
      return;
    }
    if (typeof frame !== 'object' || frame === null) return;
    const f = frame as { type?: unknown; id?: unknown; result?: unknown; event?: unknown; payload?: unknown };
    if (f.type === 'response' && typeof f.id === 'number') {
      const p = this.inflight.get(f.id);
      if (!p) return;
      this.inflight.delete(f.id);
      this.timers.clearTimeout(p.timer);
      p.resolve(f.result as Result<unknown>);
    } else if (f.type === 'event' && typeof f.event === 'string') {
      const set = this.eventListeners.get(f.event);
      if (set) for (const l of [...set]) safeCall(() => l(f.payload));
    }
  }

  private setStatus(status: ConnectionStatus): void {
    if (this.status === status) return;
    this.status = status;
    for (const l of [...this.statusListeners]) safeCall(() => l(status));
  }
}

function safeCall(fn: () => void): void {
  try {
    fn();
  } catch (err) {
    // One broken listener must not stop the others or the transport.
    console.error('[switchboard] listener failed', err);
  }
}

/** Builds the contract's `Api` over a transport: one function per command, as the preload does. */
export function apiOverTransport(t: WsTransport): Api {
  const api: Record<string, unknown> = {
    on: (event: EventName, listener: (payload: unknown) => void) => t.on(event, listener),
    onReconnect: (listener: () => void) => t.onReconnect(listener),
  };
  for (const name of commandNameList) api[name] = (req: unknown) => t.request(name, req ?? {});
  return api as unknown as Api;
}
