/**
 * Renderer windows. Each is a view on the one host: the transport gives it its own host client
 * for as long as its page lives. Windows come back after a restart where they were, showing
 * what they showed (`window-state.ts`), and a page that crashes or hangs is reloaded
 * (`renderer-recovery.ts`).
 */
import { BrowserWindow, dialog, screen } from 'electron';
import type { Logger } from '../util/log';
import type { ElectronIpcTransport } from '../transport/electron-ipc';
import { installRendererRecovery } from './renderer-recovery';
import { secureWebPreferences } from './web-preferences';
import { fitToDisplays, loadWindowStates, WindowStateKeeper, type Rect, type WindowState } from './window-state';

export interface WindowManagerOptions {
  preloadPath: string;
  /** `file://…/out/renderer/index.html`, or the dev-server URL under `electron-vite dev`. */
  rendererUrl: string;
  isRendererUrl(url: string): boolean;
  /** `<data dir>/windows.json` */
  stateFile: string;
  transport: ElectronIpcTransport;
  log: Logger;
}

const DEFAULT_SIZE = { width: 1280, height: 820 };

/** Work areas of every screen, the primary one first. */
function workAreas(): Rect[] {
  const primary = screen.getPrimaryDisplay();
  return [primary, ...screen.getAllDisplays().filter((d) => d.id !== primary.id)].map((d) => d.workArea);
}

export class WindowManager {
  private readonly windows = new Set<BrowserWindow>();
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

  /**
   * Opens a window. `location` (`?…#…`) is the renderer address part that picks what it shows
   * (the renderer's own format, e.g. a session); a saved `state` brings back bounds too.
   */
  open(what: { state?: WindowState; location?: string } = {}): BrowserWindow {
    const { preloadPath, transport, log } = this.options;
    const label = `window ${++this.opened}`;
    const focused = BrowserWindow.getFocusedWindow();
    const bounds = what.state
      ? fitToDisplays(what.state.bounds, workAreas())
      : {
          ...DEFAULT_SIZE,
          // Cascade new windows so a second one is visibly new.
          ...(focused ? { x: focused.getBounds().x + 32, y: focused.getBounds().y + 32 } : {}),
        };
    const win = new BrowserWindow({
      title: 'Switchboard',
      ...bounds,
      minWidth: 640,
      minHeight: 420,
      show: false,
      webPreferences: secureWebPreferences(preloadPath),
    });
    this.windows.add(win);
    if (what.state?.maximized) win.maximize();
    if (what.state?.fullScreen) win.setFullScreen(true);
    win.once('ready-to-show', () => win.show());

    this.keeper.track(win);
    const changed = (): void => this.keeper.changed(win);
    for (const event of ['resize', 'move', 'maximize', 'unmaximize', 'enter-full-screen', 'leave-full-screen'] as const) {
      win.on(event as 'resize', changed);
    }
    // The renderer keeps its session in the address (replaceState / hash): in-page navigations.
    win.webContents.on('did-navigate-in-page', changed);
    win.on('close', () => this.keeper.closing(win));
    win.on('closed', () => this.windows.delete(win));

    installRendererRecovery(win, {
      label,
      log,
      reportCrash: (reason) => {
        void dialog.showMessageBox(win, {
          type: 'warning',
          message: 'This window stopped working and was reloaded.',
          detail: `Reason: ${reason}. Your sessions kept running in the background; nothing was lost.`,
          buttons: ['OK'],
        });
      },
      askReloadHung: async (signal) => {
        const { response } = await dialog.showMessageBox(win, {
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
        const { response } = await dialog.showMessageBox(win, {
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
    const url = this.urlFor(what.location ?? what.state?.location ?? '');
    win.loadURL(url).catch((err: unknown) => {
      log.error('could not load the renderer', { window: label, url, error: String(err) });
    });
    return win;
  }

  /** Brings the most recent window forward (restoring it), if any. */
  focusLatest(): BrowserWindow | undefined {
    const latest = [...this.windows].at(-1);
    if (!latest) return undefined;
    if (latest.isMinimized()) latest.restore();
    latest.show();
    latest.focus();
    return latest;
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
