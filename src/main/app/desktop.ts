/**
 * The desktop app's composition, in the order it must happen: one instance per data dir; quit
 * handling before anything can need it; the host started once the app is ready; then the
 * transport, the windows, the dock badge and the menu on that host. Quitting undoes it in
 * reverse: windows first (no command starts, the layout is saved), then the badge and the
 * transport let go of the host, then the host ends turns, sessions and agents.
 *
 * Every dependency is a port (`main.ts` passes Electron's), so the whole order is tested in
 * plain Node with fakes (`desktop.test.ts`).
 */
import { AppError } from '../../shared/errors';
import type { Disposable } from '../util/lifecycle';
import type { Logger } from '../util/log';
import { installQuitHandling, type QuitApp } from './lifecycle';
import type { MenuActions } from './menu';
import { startFailureDialog } from './start-failure';

/** Electron's `app`, as far as the composition drives it. */
export type DesktopApp = QuitApp & {
  requestSingleInstanceLock(): boolean;
  whenReady(): Promise<unknown>;
  on(event: 'second-instance', listener: () => void): unknown;
  on(event: 'window-all-closed', listener: () => void): unknown;
  on(event: 'activate', listener: () => void): unknown;
};

/** The host, as the shell holds it: something the transport and badge use, stopped at quit. */
export interface DesktopHost {
  shutdown(): Promise<void>;
}

/** The window manager (`windows.ts`), as the composition uses it. */
export interface DesktopWindows {
  readonly count: number;
  /** The windows of the last run, or one new window. */
  restore(): void;
  open(): unknown;
  /** Brings the window showing `sessionId` forward, or opens one on it. */
  openSession(sessionId: string): unknown;
  focusLatest(): unknown;
  /** Quit begins: the layout is saved with every window still open. */
  quitting(): void;
}

/** What the shell gives the host: the host never imports Electron. */
export interface ShellPorts {
  /** `windows:open`: the session's window, brought forward or opened. */
  openWindow(sessionId: string): void;
}

export interface DesktopDeps<H extends DesktopHost, T extends Disposable> {
  app: DesktopApp;
  platform: NodeJS.Platform;
  log: Logger;
  /** Where signals arrive (tests pass an emitter). */
  proc?: Pick<NodeJS.Process, 'on'>;
  showErrorBox(title: string, message: string): void;
  /** Guards every page the app will show; runs once the app is ready, before anything else. */
  secure(): void;
  /** Starts the host; a `StartProblem` it throws is shown with its own title. */
  startHost(shell: ShellPorts): Promise<H>;
  createTransport(host: H): T;
  createWindows(transport: T): DesktopWindows;
  createBadge(host: H): { start(): Promise<void>; dispose(): void };
  setMenu(actions: MenuActions): void;
}

export interface Desktop extends ShellPorts {
  /** Settles when the start has finished, failed (dialog shown, exit 1) or given way to a quit. */
  readonly started: Promise<void>;
}

export function startDesktop<H extends DesktopHost, T extends Disposable>(deps: DesktopDeps<H, T>): Desktop {
  const { app, log } = deps;
  // Filled in as startup progresses; the quit and second-instance handlers exist before them.
  const parts: {
    windows?: DesktopWindows;
    transport?: T;
    badge?: { dispose(): void };
    host?: Promise<H | undefined>;
  } = {};

  const openWindow = (sessionId: string): void => {
    // The host starts before the windows; a window asking this early is not one of ours yet.
    if (!parts.windows) throw new AppError('invalid_state', 'The desktop windows are not ready yet; try again in a moment');
    parts.windows.openSession(sessionId);
  };

  if (!app.requestSingleInstanceLock()) {
    // The running instance gets 'second-instance' and opens a window; nothing to do here.
    app.quit();
    return { openWindow, started: Promise.resolve() };
  }

  const quitPhase = installQuitHandling({
    app,
    log,
    // SIGHUP: the terminal that ran `npm start` went away.
    signals: deps.platform === 'win32' ? ['SIGINT', 'SIGTERM'] : ['SIGINT', 'SIGTERM', 'SIGHUP'],
    ...(deps.proc ? { proc: deps.proc } : {}),
    shutdown: async () => {
      // Windows first: no command starts during the shutdown and every window is detached,
      // the same path a closed window takes. Then the host ends turns, sessions and agents.
      parts.windows?.quitting();
      parts.badge?.dispose();
      parts.transport?.dispose();
      const host = await parts.host;
      await host?.shutdown();
    },
  });

  app.on('second-instance', () => {
    if (!parts.windows) return; // still starting: the first window is on its way
    parts.windows.focusLatest();
    parts.windows.open();
  });
  app.on('window-all-closed', () => {
    if (deps.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (parts.windows?.count === 0) parts.windows.open();
  });

  const fail = (what: string, err: unknown): void => {
    log.error(what, { error: String(err) });
    const { title, message } = startFailureDialog(err);
    deps.showErrorBox(title, message);
    app.exit(1);
  };

  const start = async (): Promise<void> => {
    await app.whenReady();
    if (quitPhase() !== 'running') return; // quit before ready: nothing was started
    deps.secure();

    const starting = deps.startHost({ openWindow });
    // Quit waits on this; a start that failed is reported just below (log and dialog), not here.
    parts.host = starting.catch(() => undefined);
    let host: H;
    try {
      host = await starting;
    } catch (err) {
      // Quitting already: the quit goes on (and exits), no dialog to stand in its way.
      if (quitPhase() !== 'running') log.warn('host failed to start while quitting', { error: String(err) });
      else fail('host failed to start', err);
      return;
    }
    if (quitPhase() !== 'running') return; // quit while starting: the quit handler stops the host

    const transport = deps.createTransport(host);
    parts.transport = transport;
    const windows = deps.createWindows(transport);
    parts.windows = windows;
    const badge = deps.createBadge(host);
    parts.badge = badge;
    badge.start().catch((err: unknown) => log.warn('the dock badge could not start', { error: String(err) }));
    deps.setMenu({ newWindow: () => windows.open() });
    windows.restore();
  };

  const started = start().catch((err: unknown) => fail('startup failed', err));
  return { openWindow, started };
}
