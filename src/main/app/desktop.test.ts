import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../shared/errors';
import { captureLogger, type LogEntry } from '../test-support/capture-logger';
import { startDesktop, type DesktopWindows, type ShellPorts } from './desktop';
import { SHUTDOWN_CAP_MS } from './lifecycle';
import type { MenuActions } from './menu';
import { StartProblem } from './start-failure';

const A = '0b0e6c1e-1f5a-4a43-9d2c-6f3f1a2b3c4d';

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (err: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Electron's `app` as the composition drives it; `quit()` runs `before-quit` as Electron does. */
class FakeApp extends EventEmitter {
  readonly ready = deferred<void>();
  readonly exits: number[] = [];
  locked = true;
  quits = 0;
  requestSingleInstanceLock(): boolean {
    return this.locked;
  }
  whenReady(): Promise<void> {
    return this.ready.promise;
  }
  quit(): void {
    this.quits++;
    const event = { defaultPrevented: false, preventDefault: () => (event.defaultPrevented = true) };
    this.emit('before-quit', event);
    if (!event.defaultPrevented) this.exits.push(0);
  }
  exit(code = 0): void {
    this.exits.push(code);
  }
}

/** Records what the composition did, in order, across every part. */
class FakeWindows implements DesktopWindows {
  count = 0;
  constructor(private readonly steps: string[]) {}
  restore(): void {
    this.steps.push('windows.restore');
    this.count++;
  }
  open(): void {
    this.steps.push('windows.open');
    this.count++;
  }
  openSession(sessionId: string): void {
    this.steps.push(`windows.openSession ${sessionId}`);
  }
  focusLatest(): void {
    this.steps.push('windows.focusLatest');
  }
  quitting(): void {
    this.steps.push('windows.quitting');
  }
}

function setup(options: { platform?: NodeJS.Platform; badgeStart?: () => Promise<void> } = {}) {
  const app = new FakeApp();
  const steps: string[] = [];
  const entries: LogEntry[] = [];
  const errorBoxes: Array<{ title: string; message: string }> = [];
  const hostStart = deferred<{ shutdown(): Promise<void> }>();
  const host = {
    shutdown: async () => {
      steps.push('host.shutdown');
    },
  };
  let shell: ShellPorts | undefined;
  let menu: MenuActions | undefined;
  const windows = new FakeWindows(steps);
  const desktop = startDesktop({
    app,
    platform: options.platform ?? 'linux',
    log: captureLogger(entries),
    proc: new EventEmitter() as never,
    showErrorBox: (title, message) => {
      steps.push('errorBox');
      errorBoxes.push({ title, message });
    },
    secure: () => steps.push('secure'),
    startHost: (ports) => {
      steps.push('host.start');
      shell = ports;
      return hostStart.promise;
    },
    createTransport: (h) => {
      steps.push('transport');
      expect(h).toBe(host);
      return { dispose: () => steps.push('transport.dispose') };
    },
    createWindows: () => {
      steps.push('windows');
      return windows;
    },
    createBadge: () => ({
      start: options.badgeStart ?? (async () => void steps.push('badge.start')),
      dispose: () => steps.push('badge.dispose'),
    }),
    setMenu: (actions) => {
      steps.push('menu');
      menu = actions;
    },
  });
  /** The app becomes ready and the host starts. */
  const startAll = async (): Promise<void> => {
    app.ready.resolve();
    hostStart.resolve(host);
    await desktop.started;
  };
  return {
    app,
    steps,
    entries,
    errorBoxes,
    hostStart,
    host,
    windows,
    desktop,
    startAll,
    shell: () => shell,
    menu: () => menu,
  };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('starting the desktop app', () => {
  it('opens the first windows after the host has started, restoring the saved ones', async () => {
    const t = setup();
    expect(t.steps).toEqual([]);
    t.app.ready.resolve();
    await vi.runAllTimersAsync();
    expect(t.steps).toEqual(['secure', 'host.start']);
    t.hostStart.resolve(t.host);
    await t.desktop.started;
    expect(t.steps).toEqual(['secure', 'host.start', 'transport', 'windows', 'badge.start', 'menu', 'windows.restore']);
    expect(t.app.exits).toEqual([]);
  });

  it('quits at once, starting nothing, when another instance holds the lock', async () => {
    const app = new FakeApp();
    app.locked = false;
    const startHost = vi.fn();
    const desktop = startDesktop({ ...minimalDeps(), app, startHost });
    app.ready.resolve();
    await desktop.started;
    expect(app.quits).toBe(1);
    expect(app.exits).toEqual([0]);
    expect(startHost).not.toHaveBeenCalled();
    expect(app.listenerCount('before-quit')).toBe(0);
  });

  it('shows the dialog startFailureDialog titles and exits 1, opening no window, when the host fails to start', async () => {
    const t = setup();
    t.app.ready.resolve();
    t.hostStart.reject(new AppError('already_exists', 'Another Switchboard uses /data (pid 42)'));
    await t.desktop.started;
    expect(t.errorBoxes).toEqual([{ title: 'Switchboard is already running', message: 'Another Switchboard uses /data (pid 42)' }]);
    expect(t.app.exits).toEqual([1]);
    expect(t.steps).toEqual(['secure', 'host.start', 'errorBox']);
    expect(t.entries).toContainEqual({ level: 'error', msg: 'host failed to start', fields: { error: 'AppError: Another Switchboard uses /data (pid 42)' } });
  });

  it("shows a start problem of the shell's own (the missing SQLite build) with its title", async () => {
    const t = setup();
    t.app.ready.resolve();
    t.hostStart.reject(new StartProblem('Switchboard cannot open its database', 'The SQLite module built for Electron is missing'));
    await t.desktop.started;
    expect(t.errorBoxes).toEqual([{ title: 'Switchboard cannot open its database', message: 'The SQLite module built for Electron is missing' }]);
    expect(t.app.exits).toEqual([1]);
  });

  it('reports a failure after the host started and exits 1', async () => {
    const app = new FakeApp();
    const entries: LogEntry[] = [];
    const errorBoxes: string[] = [];
    const desktop = startDesktop({
      ...minimalDeps(),
      app,
      log: captureLogger(entries),
      showErrorBox: (title, message) => errorBoxes.push(`${title}: ${message}`),
      createWindows: () => {
        throw new Error('no display');
      },
    });
    app.ready.resolve();
    await desktop.started;
    expect(errorBoxes).toEqual(['Switchboard could not start: no display']);
    expect(app.exits).toEqual([1]);
    expect(entries).toContainEqual({ level: 'error', msg: 'startup failed', fields: { error: 'Error: no display' } });
  });

  it('logs a dock badge that cannot start and opens the windows all the same', async () => {
    const t = setup({ badgeStart: () => Promise.reject(new Error('no host client')) });
    await t.startAll();
    await vi.runAllTimersAsync();
    expect(t.steps).toContain('windows.restore');
    expect(t.entries).toContainEqual({ level: 'warn', msg: 'the dock badge could not start', fields: { error: 'Error: no host client' } });
  });

  it("opens a window from the menu's New Window", async () => {
    const t = setup();
    await t.startAll();
    t.menu()?.newWindow();
    expect(t.steps.at(-1)).toBe('windows.open');
  });
});

describe('quitting', () => {
  it('stops the windows, then the badge, then the transport, then the host, and exits 0', async () => {
    const t = setup();
    await t.startAll();
    t.steps.length = 0;
    t.app.quit();
    await vi.runAllTimersAsync();
    expect(t.steps).toEqual(['windows.quitting', 'badge.dispose', 'transport.dispose', 'host.shutdown']);
    expect(t.app.exits).toEqual([0]);
  });

  it('waits for a host still starting, shuts it down and opens no window', async () => {
    const t = setup();
    t.app.ready.resolve();
    await vi.runAllTimersAsync();
    t.app.quit();
    await vi.advanceTimersByTimeAsync(SHUTDOWN_CAP_MS - 1);
    expect(t.app.exits).toEqual([]); // the host is still starting: the quit waits for it
    t.hostStart.resolve(t.host);
    await t.desktop.started;
    await vi.runAllTimersAsync();
    expect(t.steps).toEqual(['secure', 'host.start', 'host.shutdown']);
    expect(t.app.exits).toEqual([0]);
  });

  it('exits without a dialog when the host it waited for failed to start', async () => {
    const t = setup();
    t.app.ready.resolve();
    await vi.runAllTimersAsync();
    t.app.quit();
    t.hostStart.reject(new Error('disk full'));
    await vi.runAllTimersAsync();
    expect(t.steps).toEqual(['secure', 'host.start']);
    expect(t.app.exits).toEqual([0]);
    expect(t.entries).toContainEqual({ level: 'warn', msg: 'host failed to start while quitting', fields: { error: 'Error: disk full' } });
  });

  it('starts nothing when the quit came before the app was ready', async () => {
    const t = setup();
    t.app.quit();
    await vi.runAllTimersAsync();
    t.app.ready.resolve();
    await t.desktop.started;
    expect(t.steps).toEqual([]);
    expect(t.app.exits).toEqual([0]);
  });

  it('quits when the last window closes, except on macOS', async () => {
    const linux = setup({ platform: 'linux' });
    await linux.startAll();
    linux.app.emit('window-all-closed');
    expect(linux.app.quits).toBe(1);

    const mac = setup({ platform: 'darwin' });
    await mac.startAll();
    mac.app.emit('window-all-closed');
    expect(mac.app.quits).toBe(0);
  });
});

describe('windows on request', () => {
  it('a second launch focuses the latest window and opens another', async () => {
    const t = setup();
    await t.startAll();
    t.steps.length = 0;
    t.app.emit('second-instance');
    expect(t.steps).toEqual(['windows.focusLatest', 'windows.open']);
  });

  it('a second launch while starting leaves it to the first window on its way', async () => {
    const t = setup();
    t.app.emit('second-instance');
    await t.startAll();
    expect(t.steps.filter((s) => s.startsWith('windows.'))).toEqual(['windows.restore']);
  });

  it('the dock icon opens a window when none is open, and only then', async () => {
    const t = setup();
    await t.startAll();
    t.app.emit('activate');
    expect(t.steps.filter((s) => s === 'windows.open')).toEqual([]);
    t.windows.count = 0;
    t.app.emit('activate');
    expect(t.steps.filter((s) => s === 'windows.open')).toEqual(['windows.open']);
  });

  it("the host's openWindow refuses clearly before the windows exist, then shows the session's window", async () => {
    const t = setup();
    t.app.ready.resolve();
    await vi.runAllTimersAsync();
    const shell = t.shell();
    expect(shell).toBeDefined();
    expect(() => shell?.openWindow(A)).toThrow(expect.objectContaining({ code: 'invalid_state', message: expect.stringMatching(/windows are not ready/) }));
    t.hostStart.resolve(t.host);
    await t.desktop.started;
    shell?.openWindow(A);
    expect(t.steps.at(-1)).toBe(`windows.openSession ${A}`);
    expect(t.desktop.openWindow).toBe(shell?.openWindow);
  });
});

/** Parts that do nothing, for compositions a test drives only in part. */
function minimalDeps() {
  return {
    app: new FakeApp(),
    platform: 'linux' as const,
    log: captureLogger([]),
    proc: new EventEmitter() as never,
    showErrorBox: () => {},
    secure: () => {},
    startHost: async () => ({ shutdown: async () => {} }),
    createTransport: () => ({ dispose: () => {} }),
    createWindows: (): DesktopWindows => new FakeWindows([]),
    createBadge: () => ({ start: async () => {}, dispose: () => {} }),
    setMenu: () => {},
  };
}
