/**
 * Electron IPC adapter: a thin channel layer between renderer windows and the host (VS Code
 * style). The host never sees `ipcMain`; this module never looks inside a payload (the host
 * validates it against the contract). It only decides *who* may call, and keeps exactly one
 * host client per window document.
 *
 * It imports nothing from `electron`: it takes `ipcMain`- and `webContents`-shaped objects so
 * the sender checks and the client lifecycle are unit-tested with fakes.
 */
import { commandNames, eventChannel, commandChannel, type Result } from '../../shared/contract';
import { toWireError } from '../../shared/errors';
import type { ClientHandle, HostPort } from '../host/host-port';
import type { Disposable } from '../util/lifecycle';

/** The parts of Electron's `WebFrameMain` the sender check reads. */
export interface FrameLike {
  readonly url: string;
  readonly parent: FrameLike | null;
  readonly processId: number;
  readonly routingId: number;
}

/** The parts of `IpcMainInvokeEvent` the sender check reads. */
export interface InvokeEventLike {
  readonly sender: { readonly id: number };
  /** Null when the frame navigated or was destroyed after it sent the message. */
  readonly senderFrame: FrameLike | null;
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

export interface NavigationDetailsLike {
  readonly url: string;
  readonly isMainFrame: boolean;
  readonly isSameDocument: boolean;
}

/** The parts of Electron's `WebContents` the transport uses. */
export interface WebContentsLike {
  readonly id: number;
  readonly mainFrame: FrameLike;
  isDestroyed(): boolean;
  send(channel: string, ...args: unknown[]): void;
  on(event: 'destroyed', listener: () => void): unknown;
  on(event: 'render-process-gone', listener: (event: unknown, details: { reason: string }) => void): unknown;
  on(event: 'did-start-navigation', listener: (details: NavigationDetailsLike) => void): unknown;
}

export interface TransportLog {
  warn(message: string, fields?: Record<string, unknown>): void;
  debug?(message: string, fields?: Record<string, unknown>): void;
}

export interface ElectronIpcTransportOptions {
  ipcMain: IpcMainLike;
  host: HostPort;
  /** True when `url` is our renderer document (see {@link rendererUrlMatcher}). */
  isRendererUrl(url: string): boolean;
  log?: TransportLog;
}

interface WindowEntry {
  readonly webContents: WebContentsLike;
  readonly label: string;
  client: ClientHandle | undefined;
  /** A command arrived on `client`: a navigation must replace it (the new page starts clean). */
  used: boolean;
  gone: boolean;
}

/**
 * Builds the "is this our renderer?" predicate from the URL the window loaded: for `file:` the
 * exact document path (query and hash ignored), for the dev server its origin.
 */
export function rendererUrlMatcher(loadedUrl: string): (url: string) => boolean {
  const expected = new URL(loadedUrl);
  if (expected.protocol === 'file:') {
    return (url) => {
      const actual = safeUrl(url);
      return actual !== undefined && actual.protocol === 'file:' && actual.host === expected.host && actual.pathname === expected.pathname;
    };
  }
  if (expected.protocol === 'http:' || expected.protocol === 'https:') {
    return (url) => safeUrl(url)?.origin === expected.origin;
  }
  throw new Error(`unsupported renderer URL: ${loadedUrl}`);
}

function safeUrl(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

function isMainFrameOf(frame: FrameLike, webContents: WebContentsLike): boolean {
  if (frame.parent !== null) return false;
  if (frame === webContents.mainFrame) return true;
  // WebFrameMain wrappers are not guaranteed to be the same JS object across calls; the
  // (process, routing) pair identifies the frame.
  const main = webContents.mainFrame;
  return frame.processId === main.processId && frame.routingId === main.routingId;
}

function unauthorized(message: string): Result<never> {
  return { ok: false, error: { code: 'unauthorized', message } };
}

export class ElectronIpcTransport implements Disposable {
  private readonly windows = new Map<number, WindowEntry>();
  private windowCount = 0;
  private disposed = false;

  constructor(private readonly options: ElectronIpcTransportOptions) {
    for (const name of commandNames) {
      options.ipcMain.handle(commandChannel(name), (event, payload) => this.handleCommand(name, event, payload));
    }
  }

  /** Number of windows attached and not yet destroyed (for tests and logs). */
  get windowCountAlive(): number {
    return this.windows.size;
  }

  /** The host client id currently serving `webContentsId`, if any (for tests and logs). */
  clientIdOf(webContentsId: number): string | undefined {
    return this.windows.get(webContentsId)?.client?.id;
  }

  /**
   * Registers a window this app created. Only attached windows may call the host; each gets
   * one host client, replaced when its page reloads and disposed when it goes away.
   */
  attach(webContents: WebContentsLike, label?: string): Disposable {
    if (this.disposed) throw new Error('transport disposed');
    const existing = this.windows.get(webContents.id);
    if (existing) return { dispose: () => this.detach(existing) };

    const entry: WindowEntry = {
      webContents,
      label: label ?? `window ${++this.windowCount}`,
      client: undefined,
      used: false,
      gone: false,
    };
    this.windows.set(webContents.id, entry);
    this.connect(entry);

    webContents.on('destroyed', () => this.detach(entry));
    webContents.on('render-process-gone', (_event, details) => {
      this.options.log?.warn('renderer process gone', { window: entry.label, reason: details.reason });
      this.disconnect(entry);
    });
    webContents.on('did-start-navigation', (details) => {
      // Only a new document of *our* renderer replaces the client. A navigation elsewhere is
      // cancelled by the app's will-navigate guard, which runs after this event: replacing
      // the client then would silently drop the still-open page's subscriptions.
      if (!details.isMainFrame || details.isSameDocument || !this.options.isRendererUrl(details.url)) return;
      if (entry.client !== undefined && !entry.used) return; // nothing subscribed yet
      this.disconnect(entry);
      this.connect(entry);
    });

    return { dispose: () => this.detach(entry) };
  }

  /** Removes every handler and disposes every client. Idempotent. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const name of commandNames) this.options.ipcMain.removeHandler(commandChannel(name));
    for (const entry of [...this.windows.values()]) this.detach(entry);
  }

  private async handleCommand(name: string, event: InvokeEventLike, payload: unknown): Promise<Result<unknown>> {
    // Read senderFrame first and synchronously: Electron nulls it once the frame navigates.
    const frame = event.senderFrame;
    const entry = this.windows.get(event.sender.id);
    if (this.disposed) return { ok: false, error: { code: 'shutting_down', message: 'Switchboard is shutting down' } };
    if (entry === undefined || entry.gone || entry.webContents.isDestroyed()) {
      this.options.log?.warn('ipc from an unknown webContents', { command: name, webContentsId: event.sender.id });
      return unauthorized('the sender is not a Switchboard window');
    }
    if (frame === null || !isMainFrameOf(frame, entry.webContents)) {
      this.options.log?.warn('ipc from a frame that is not the main frame', { command: name, window: entry.label });
      return unauthorized('only the main frame of a Switchboard window may call the host');
    }
    if (!this.options.isRendererUrl(frame.url)) {
      this.options.log?.warn('ipc from a foreign document', { command: name, window: entry.label, url: frame.url });
      return unauthorized('the sender is not the Switchboard renderer');
    }
    const client = entry.client ?? this.connect(entry);
    entry.used = true;
    try {
      return await this.options.host.dispatch(client.id, name, payload);
    } catch (err) {
      // HostPort.dispatch promises never to throw; a bug there must still answer the window.
      return { ok: false, error: toWireError(err) };
    }
  }

  private connect(entry: WindowEntry): ClientHandle {
    const { webContents } = entry;
    const client = this.options.host.connect({
      label: entry.label,
      send: (event, payload) => {
        if (webContents.isDestroyed()) return;
        try {
          webContents.send(eventChannel(event), payload);
        } catch (err) {
          this.options.log?.warn('could not send an event to a window', { window: entry.label, event, error: String(err) });
        }
      },
    });
    entry.client = client;
    entry.used = false;
    return client;
  }

  private disconnect(entry: WindowEntry): void {
    const client = entry.client;
    entry.client = undefined;
    entry.used = false;
    client?.dispose();
  }

  private detach(entry: WindowEntry): void {
    if (entry.gone) return;
    entry.gone = true;
    this.disconnect(entry);
    if (this.windows.get(entry.webContents.id) === entry) this.windows.delete(entry.webContents.id);
  }
}
