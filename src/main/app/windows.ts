/**
 * Renderer windows. Each is a view on the one host: the transport gives it its own host client
 * for as long as its page lives. A session has one window: asking for a session already on
 * screen brings its window forward. Windows come back after a restart where they were, showing
 * what they showed (`window-state.ts`), and a page that crashes or hangs is reloaded
 * (`renderer-recovery.ts`). Electron stays behind the window port (`window-port.ts`).
 */
import type { WebContentsLike } from '../transport/electron-ipc';
import type { Disposable } from '../util/lifecycle';
import type { Logger } from '../util/log';
import { installRendererRecovery } from './renderer-recovery';
import { secureWebPreferences } from './web-preferences';
import { LAYOUT_EVENTS, type ShellWindow, type WindowPort } from './window-port';
import { fitToDisplays, loadWindowStates, sessionLocation, sessionOfUrl, WindowStateKeeper, type WindowState } from './window-state';

export interface WindowManagerOptions {
  port: WindowPort;
  preloadPath: string;
  /** `file://…/out/renderer/index.html`, or the dev-server URL under `electron-vite dev`. */
  rendererUrl: string;
  isRendererUrl(url: string): boolean;
  /** `<data dir>/windows.json` */
  stateFile: string;
  /** Gives each window's page its host client (the IPC transport). */
  transport: { attach(webContents: WebContentsLike, label: string): Disposable };
  log: Logger;
}

export const DEFAULT_SIZE = { width: 1280, height: 820 } as const;
export const MIN_SIZE = { width: 640, height: 420 } as const;
/** How far a new window sits from the focused one, so a second one is visibly new. */
export const CASCADE_PX = 32;

export class WindowManager {
  /** Open windows, oldest first, and the session each shows (from its address). */
  private readonly windows = new Map<ShellWindow, string | undefined>();
  private readonly keeper: WindowStateKeeper;
  private opened = 0;

  constructor(private readonly options: WindowManagerOptions) {
    this.keeper = new WindowStateKeeper(options.stateFile, options.log.child('state'));
  }

  get count(): number {
    return this.windows.size;
  }

  /** Opens the windows of the last run (or one new window). */
  restore(): void {
    const saved = loadWindowStates(this.options.stateFile, this.options.log);
    if (saved.length === 0) this.open();
    for (const state of saved) this.open({ state });
  }

  /** Saves the layout now: the app is quitting and every open window comes back. */
  quitting(): void {
    this.keeper.quit();
  }

  /** The window showing `sessionId` (the latest opened, should two show it), if any. */
  windowOf(sessionId: string): ShellWindow | undefined {
    let found: ShellWindow | undefined;
    for (const [win, shown] of this.windows) if (shown === sessionId) found = win;
    return found;
  }

  /** Shows `sessionId`: its window comes forward, or a new window opens on it. */
  openSession(sessionId: string): ShellWindow {
    const shown = this.windowOf(sessionId);
    if (shown) {
      this.bringForward(shown);
      return shown;
    }
    const win = this.open({ location: sessionLocation(sessionId) });
    win.focus();
    return win;
  }

  /**
   * Opens a window. `location` (`?…#…`) is the renderer address part that picks what it shows
   * (e.g. a session); a saved `state` brings back bounds too.
   */
  open(what: { state?: WindowState; location?: string } = {}): ShellWindow {
    const { port, preloadPath, transport, log } = this.options;
    const label = `window ${++this.opened}`;
    const focused = port.focusedBounds();
    const bounds = what.state
      ? fitToDisplays(what.state.bounds, port.workAreas())
      : { ...DEFAULT_SIZE, ...(focused ? { x: focused.x + CASCADE_PX, y: focused.y + CASCADE_PX } : {}) };
    const win = port.create({
      title: 'Switchboard',
      bounds,
      minWidth: MIN_SIZE.width,
      minHeight: MIN_SIZE.height,
      webPreferences: secureWebPreferences(preloadPath),
    });
    const url = this.urlFor(what.location ?? what.state?.location ?? '');
    // Known before the page loads, so asking for the same session again finds this window.
    this.windows.set(win, sessionOfUrl(url));
    if (what.state?.maximized) win.maximize();
    if (what.state?.fullScreen) win.setFullScreen(true);
    win.once('ready-to-show', () => win.show());

    this.keeper.track(win);
    const changed = (): void => this.keeper.changed(win);
    for (const event of LAYOUT_EVENTS) win.on(event, changed);
    // The renderer keeps its session in the address and switches with replaceState: an in-page
    // navigation is a switch, which the layout and the window's session both follow.
    win.webContents.on('did-navigate-in-page', (_event, address, isMainFrame) => {
      if (!isMainFrame) return;
      this.shows(win, address);
      changed();
    });
    win.webContents.on('did-navigate', (_event, address) => this.shows(win, address));
    win.on('close', () => this.keeper.closing(win));
    win.on('closed', () => this.windows.delete(win));

    installRendererRecovery(win, {
      label,
      log,
      reportCrash: (reason) => {
        port
          .showMessageBox(win, {
            type: 'warning',
            message: 'This window stopped working and was reloaded.',
            detail: `Reason: ${reason}. Your sessions kept running in the background; nothing was lost.`,
            buttons: ['OK'],
          })
          .catch((err: unknown) => log.warn('could not tell about a crashed window', { window: label, error: String(err) }));
      },
      askReloadHung: async (signal) => {
        const response = await port.showMessageBox(win, {
          type: 'warning',
          message: 'This window is not responding.',
          detail: 'Your sessions keep running in the background. Reloading the window loses nothing but unsent text older than a second.',
          buttons: ['Reload', 'Keep waiting'],
          defaultId: 0,
          cancelId: 1,
          signal,
        });
        return response === 0 ? 'reload' : 'wait';
      },
      askAfterCrashLoop: async (reason) => {
        const response = await port.showMessageBox(win, {
          type: 'error',
          message: 'This window keeps crashing.',
          detail: `Reason: ${reason}. Your sessions keep running in the background. Try again, or close this window and open a new one (File > New Window).`,
          buttons: ['Try again', 'Leave it'],
          defaultId: 0,
          cancelId: 1,
        });
        return response === 0;
      },
    });

    // Before the first load: the page may call the host as soon as its scripts run.
    transport.attach(win.webContents, label);
    win.webContents.on('preload-error', (_event, path, error) => {
      log.error('preload failed', { window: label, path, error: String(error) });
    });
    win.loadURL(url).catch((err: unknown) => {
      log.error('could not load the renderer', { window: label, url, error: String(err) });
    });
    return win;
  }

  /** Brings the most recent window forward (restoring it), if any. */
  focusLatest(): ShellWindow | undefined {
    const latest = [...this.windows.keys()].at(-1);
    if (latest) this.bringForward(latest);
    return latest;
  }

  private bringForward(win: ShellWindow): void {
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
  }

  private shows(win: ShellWindow, address: string): void {
    if (this.windows.has(win)) this.windows.set(win, sessionOfUrl(address));
  }

  /** The renderer address with `location` (`?…#…`) on it; anything not ours falls back to plain. */
  private urlFor(location: string): string {
    const { rendererUrl, isRendererUrl } = this.options;
    if (location === '') return rendererUrl;
    const base = new URL(rendererUrl);
    base.search = '';
    base.hash = '';
    const candidate = `${base.href}${location}`;
    return isRendererUrl(candidate) ? candidate : rendererUrl;
  }
}
