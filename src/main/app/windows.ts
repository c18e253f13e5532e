/**
 * Renderer windows. Each is a view on the one host: the transport gives it its own host client
 * for as long as its page lives.
 */
import { BrowserWindow } from 'electron';
import type { Logger } from '../util/log';
import type { ElectronIpcTransport } from '../transport/electron-ipc';
import { secureWebPreferences } from './web-preferences';

export interface WindowManagerOptions {
  preloadPath: string;
  /** `file://…/out/renderer/index.html`, or the dev-server URL under `electron-vite dev`. */
  rendererUrl: string;
  transport: ElectronIpcTransport;
  log: Logger;
}

export class WindowManager {
  private readonly windows = new Set<BrowserWindow>();
  private opened = 0;

  constructor(private readonly options: WindowManagerOptions) {}

  get count(): number {
    return this.windows.size;
  }

  open(): BrowserWindow {
    const { preloadPath, rendererUrl, transport, log } = this.options;
    const label = `window ${++this.opened}`;
    const focused = BrowserWindow.getFocusedWindow();
    const win = new BrowserWindow({
      title: 'Switchboard',
      width: 1280,
      height: 820,
      minWidth: 640,
      minHeight: 420,
      // Cascade new windows so a second one is visibly new.
      ...(focused ? { x: focused.getBounds().x + 32, y: focused.getBounds().y + 32 } : {}),
      show: false,
      webPreferences: secureWebPreferences(preloadPath),
    });
    this.windows.add(win);
    win.on('closed', () => this.windows.delete(win));
    win.once('ready-to-show', () => win.show());

    // Before the first load: the page may call the host as soon as its scripts run.
    transport.attach(win.webContents, label);
    win.webContents.on('preload-error', (_event, path, error) => {
      log.error('preload failed', { window: label, path, error: String(error) });
    });
    win.loadURL(rendererUrl).catch((err: unknown) => {
      log.error('could not load the renderer', { window: label, url: rendererUrl, error: String(err) });
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
}
