/**
 * Stand-ins for Electron's `ipcMain`, `WebContents` and `WebFrameMain`, and a host that records
 * what reaches it: the IPC transport's sender checks and client lifecycle without Electron.
 */
import type { Result } from '../../shared/contract';
import type { ClientHandle, ClientSink, HostPort } from '../host/host-port';
import type { FrameLike, InvokeEventLike, IpcMainLike, NavigationDetailsLike, WebContentsLike } from '../transport/electron-ipc';

/** The renderer document a packaged app loads. */
export const RENDERER = 'file:///opt/switchboard/out/renderer/index.html';

export type Handler = (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>;

export class FakeIpcMain implements IpcMainLike {
  readonly handlers = new Map<string, Handler>();
  handle(channel: string, listener: Handler): void {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  invoke(channel: string, event: InvokeEventLike, payload: unknown): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`no handler for ${channel}`);
    return handler(event, payload);
  }
}

export class FakeFrame implements FrameLike {
  constructor(
    public url: string,
    readonly parent: FrameLike | null = null,
    readonly processId = 1,
    readonly routingId = 1,
  ) {}
}

let nextWebContentsId = 1;

export class FakeWebContents implements WebContentsLike {
  readonly id = nextWebContentsId++;
  readonly mainFrame: FakeFrame;
  readonly sent: Array<{ channel: string; payload: unknown }> = [];
  private destroyed = false;
  private readonly listeners = new Map<string, Array<(...args: never[]) => void>>();

  constructor(url = RENDERER) {
    this.mainFrame = new FakeFrame(url, null, 7, this.id);
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  send(channel: string, payload: unknown): void {
    if (this.destroyed) throw new Error('Object has been destroyed');
    this.sent.push({ channel, payload });
  }
  on(event: string, listener: (...args: never[]) => void): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  private emit(event: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(event) ?? []) (listener as (...a: unknown[]) => void)(...args);
  }
  navigate(details: Partial<NavigationDetailsLike> = {}): void {
    this.emit('did-start-navigation', { url: RENDERER, isMainFrame: true, isSameDocument: false, ...details });
  }
  crash(): void {
    this.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 1 });
  }
  destroy(): void {
    this.destroyed = true;
    this.emit('destroyed');
  }
  /** An invoke event as Electron builds it for a message from `frame` (default: our main frame). */
  event(frame: FrameLike | null = this.mainFrame): InvokeEventLike {
    return { sender: this, senderFrame: frame };
  }
}

export class FakeHost implements HostPort {
  readonly clients = new Map<string, { sink: ClientSink; disposed: boolean }>();
  readonly calls: Array<{ clientId: string; command: string; payload: unknown }> = [];
  private count = 0;
  connect(sink: ClientSink): ClientHandle {
    const id = `c${++this.count}`;
    const record = { sink, disposed: false };
    this.clients.set(id, record);
    return {
      id,
      dispose: () => {
        record.disposed = true;
      },
    };
  }
  dispatch(clientId: string, command: string, payload: unknown): Promise<Result<unknown>> {
    this.calls.push({ clientId, command, payload });
    return Promise.resolve({ ok: true, value: { clientId, command } });
  }
  live(): string[] {
    return [...this.clients].filter(([, c]) => !c.disposed).map(([id]) => id);
  }
}
