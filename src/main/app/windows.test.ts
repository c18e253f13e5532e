import { EventEmitter } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { captureLogger, type LogEntry } from '../test-support/capture-logger';
import { tempDir } from '../test-support/temp-dir';
import type { WebContentsLike } from '../transport/electron-ipc';
import { RELOAD_DELAY_MS } from './renderer-recovery';
import type { MessageBox, ShellWindow, ShellWindowOptions, WindowPort } from './window-port';
import { WINDOW_STATE_FILE, type Rect, type WindowState } from './window-state';
import { CASCADE_PX, DEFAULT_SIZE, WindowManager } from './windows';

const RENDERER = 'file:///opt/switchboard/out/renderer/index.html';
const A = '0b0e6c1e-1f5a-4a43-9d2c-6f3f1a2b3c4d';
const B = '7d1f0a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
const SCREEN: Rect = { x: 0, y: 0, width: 1920, height: 1050 };

let nextId = 1;

/** A window's page as Electron drives it: its address, loads, in-page switches and crashes. */
class FakeContents extends EventEmitter {
  readonly id = nextId++;
  readonly mainFrame = { url: '', parent: null, processId: 1, routingId: this.id };
  url = '';
  reloads = 0;
  killed = 0;
  isDestroyed(): boolean {
    return false;
  }
  send(): void {}
  getURL(): string {
    return this.url;
  }
  reload(): void {
    this.reloads++;
  }
  forcefullyCrashRenderer(): void {
    this.killed++;
  }
  /** The page finished loading `url` (a new document). */
  loaded(url: string): void {
    this.url = url;
    this.emit('did-navigate', {}, url);
  }
  /** The renderer switched session with replaceState (`#/session/<id>`). */
  switchTo(sessionId: string, isMainFrame = true): void {
    const url = `${this.url.split('#')[0]}#/session/${sessionId}`;
    if (isMainFrame) this.url = url;
    this.emit('did-navigate-in-page', {}, url, isMainFrame);
  }
}

class FakeWindow extends EventEmitter {
  readonly webContents = new FakeContents();
  readonly calls: string[] = [];
  minimized = false;
  maximized = false;
  fullScreen = false;
  loadedUrl: string | undefined;
  loadResult: Promise<void> = Promise.resolve();
  constructor(
    readonly options: ShellWindowOptions,
    private readonly bounds: Rect,
  ) {
    super();
  }
  show(): void {
    this.calls.push('show');
  }
  focus(): void {
    this.calls.push('focus');
  }
  restore(): void {
    this.calls.push('restore');
    this.minimized = false;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  maximize(): void {
    this.maximized = true;
  }
  setFullScreen(flag: boolean): void {
    this.fullScreen = flag;
  }
  isMaximized(): boolean {
    return this.maximized;
  }
  isFullScreen(): boolean {
    return this.fullScreen;
  }
  getBounds(): Rect {
    return this.bounds;
  }
  getNormalBounds(): Rect {
    return this.bounds;
  }
  isDestroyed(): boolean {
    return false;
  }
  loadURL(url: string): Promise<void> {
    this.loadedUrl = url;
    return this.loadResult;
  }
  /** The person closes the window. */
  close(): void {
    this.emit('close');
    this.emit('closed');
  }
}

class FakeWindowPort implements WindowPort {
  readonly created: FakeWindow[] = [];
  readonly boxes: Array<{ parent: ShellWindow; box: MessageBox }> = [];
  focused: Rect | undefined;
  answer = 0;
  /** The next window `create` makes fails to load its page. */
  failNextLoad = false;
  create(options: ShellWindowOptions): ShellWindow {
    const { width, height, x = 100, y = 100 } = options.bounds;
    const win = new FakeWindow(options, { x, y, width, height });
    if (this.failNextLoad) {
      win.loadResult = Promise.reject(new Error('ERR_FILE_NOT_FOUND'));
      this.failNextLoad = false;
    }
    this.created.push(win);
    return win;
  }
  workAreas(): Rect[] {
    return [SCREEN];
  }
  focusedBounds(): Rect | undefined {
    return this.focused;
  }
  showMessageBox(parent: ShellWindow, box: MessageBox): Promise<number> {
    this.boxes.push({ parent, box });
    return Promise.resolve(this.answer);
  }
}

const dirs: Array<{ cleanup(): void }> = [];

function setup() {
  const dir = tempDir();
  dirs.push(dir);
  const port = new FakeWindowPort();
  const attached: Array<{ webContents: WebContentsLike; label: string; loadedYet: boolean }> = [];
  const entries: LogEntry[] = [];
  const stateFile = join(dir.path, WINDOW_STATE_FILE);
  const windows = new WindowManager({
    port,
    preloadPath: '/opt/switchboard/out/preload/index.cjs',
    rendererUrl: RENDERER,
    isRendererUrl: (url) => url.split('#')[0]?.split('?')[0] === RENDERER,
    stateFile,
    transport: {
      attach: (webContents, label) => {
        attached.push({ webContents, label, loadedYet: port.created.at(-1)?.loadedUrl !== undefined });
        return { dispose: () => {} };
      },
    },
    log: captureLogger(entries),
  });
  /** The window at `index`, as the fake made it. */
  const win = (index: number): FakeWindow => {
    const found = port.created[index];
    if (!found) throw new Error(`no window ${index}`);
    return found;
  };
  return { windows, port, attached, entries, stateFile, win };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  for (const dir of dirs.splice(0)) dir.cleanup();
});

describe('opening a window', () => {
  it('opens a hidden, sandboxed window, gives its page a host client before it loads, and shows it when ready', () => {
    const { windows, attached, win } = setup();
    windows.open();
    const first = win(0);
    expect(first.options.webPreferences).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false, preload: '/opt/switchboard/out/preload/index.cjs' });
    expect(first.options.bounds).toEqual(DEFAULT_SIZE);
    expect(attached).toEqual([{ webContents: first.webContents, label: 'window 1', loadedYet: false }]);
    expect(first.loadedUrl).toBe(RENDERER);
    expect(first.calls).toEqual([]);
    first.emit('ready-to-show');
    expect(first.calls).toEqual(['show']);
    expect(windows.count).toBe(1);
  });

  it('cascades a new window from the focused one, so it is visibly new', () => {
    const { windows, port, win } = setup();
    port.focused = { x: 200, y: 150, width: 900, height: 700 };
    windows.open();
    expect(win(0).options.bounds).toEqual({ ...DEFAULT_SIZE, x: 200 + CASCADE_PX, y: 150 + CASCADE_PX });
  });

  it('loads a location only on our renderer document, the plain renderer otherwise', () => {
    const { windows, win } = setup();
    windows.open({ location: `#/session/${A}` });
    windows.open({ location: '//evil.example/#x' });
    expect(win(0).loadedUrl).toBe(`${RENDERER}#/session/${A}`);
    expect(win(1).loadedUrl).toBe(RENDERER);
  });

  it('logs a page that fails to load, with the window and address', async () => {
    const { windows, port, entries } = setup();
    port.failNextLoad = true;
    windows.open();
    await vi.runAllTimersAsync();
    expect(entries).toContainEqual({
      level: 'error',
      msg: 'could not load the renderer',
      fields: { window: 'window 1', url: RENDERER, error: 'Error: ERR_FILE_NOT_FOUND' },
    });
  });

  it('forgets a window once it is closed', () => {
    const { windows, win } = setup();
    windows.open();
    windows.open();
    win(0).close();
    expect(windows.count).toBe(1);
  });
});

describe('one window per session', () => {
  it('brings the window already showing a session forward instead of opening a second one', () => {
    const { windows, port, win } = setup();
    const first = windows.openSession(A);
    expect(win(0).loadedUrl).toBe(`${RENDERER}#/session/${A}`);
    windows.open();
    win(0).minimized = true;
    win(0).calls.length = 0;

    expect(windows.openSession(A)).toBe(first);
    expect(port.created).toHaveLength(2);
    expect(win(0).calls).toEqual(['restore', 'show', 'focus']);
  });

  it('knows the session of a window whose page has not loaded yet', () => {
    const { windows, port } = setup();
    windows.openSession(A);
    windows.openSession(A);
    expect(port.created).toHaveLength(1);
  });

  it('follows a switch inside a window: the old session gets a new window, the new one finds this window', () => {
    const { windows, port, win } = setup();
    const first = windows.openSession(A);
    win(0).webContents.loaded(`${RENDERER}#/session/${A}`);
    win(0).webContents.switchTo(B);

    expect(windows.windowOf(B)).toBe(first);
    expect(windows.windowOf(A)).toBeUndefined();
    expect(windows.openSession(B)).toBe(first);
    expect(port.created).toHaveLength(1);
    windows.openSession(A);
    expect(port.created).toHaveLength(2);
    expect(win(1).loadedUrl).toBe(`${RENDERER}#/session/${A}`);
  });

  it('ignores navigations in a frame inside the page', () => {
    const { windows, win } = setup();
    const first = windows.openSession(A);
    win(0).webContents.switchTo(B, false);
    expect(windows.windowOf(A)).toBe(first);
  });

  it('reads the session of a window the person opened plainly once its page shows one', () => {
    const { windows, port, win } = setup();
    const plain = windows.open();
    expect(windows.windowOf(A)).toBeUndefined();
    win(0).webContents.loaded(RENDERER);
    win(0).webContents.switchTo(A);
    expect(windows.openSession(A)).toBe(plain);
    expect(port.created).toHaveLength(1);
  });

  it('opens a new window for a session whose window was closed', () => {
    const { windows, port, win } = setup();
    windows.openSession(A);
    win(0).close();
    windows.openSession(A);
    expect(port.created).toHaveLength(2);
    expect(windows.count).toBe(1);
  });
});

describe('focusLatest', () => {
  it('restores and focuses the most recently opened window', () => {
    const { windows, win } = setup();
    windows.open();
    const latest = windows.open();
    win(1).minimized = true;
    expect(windows.focusLatest()).toBe(latest);
    expect(win(1).calls).toEqual(['restore', 'show', 'focus']);
    expect(win(0).calls).toEqual([]);
  });

  it('answers undefined when no window is open', () => {
    expect(setup().windows.focusLatest()).toBeUndefined();
  });
});

describe('restore and quit', () => {
  const saved = (overrides: Partial<WindowState>): WindowState => ({
    bounds: { x: 40, y: 40, width: 1000, height: 700 },
    maximized: false,
    fullScreen: false,
    location: '',
    ...overrides,
  });

  it('opens one plain window when nothing was saved', () => {
    const { windows, port, win } = setup();
    windows.restore();
    expect(port.created).toHaveLength(1);
    expect(win(0).loadedUrl).toBe(RENDERER);
  });

  it('brings back every saved window: bounds fitted to the screens, maximized, full screen, its session', () => {
    const { windows, port, stateFile, win } = setup();
    const states = [
      saved({ location: `#/session/${A}`, maximized: true }),
      // Saved on a monitor that is gone: centred on today's screen.
      saved({ bounds: { x: 5000, y: 5000, width: 800, height: 600 }, fullScreen: true }),
    ];
    writeFileSync(stateFile, JSON.stringify({ version: 1, windows: states }));
    windows.restore();

    expect(port.created).toHaveLength(2);
    expect(win(0).options.bounds).toEqual({ x: 40, y: 40, width: 1000, height: 700 });
    expect(win(0).maximized).toBe(true);
    expect(win(0).loadedUrl).toBe(`${RENDERER}#/session/${A}`);
    expect(win(1).options.bounds).toEqual({ x: 560, y: 225, width: 800, height: 600 });
    expect(win(1).fullScreen).toBe(true);
    // A restored window counts as showing its session.
    windows.openSession(A);
    expect(port.created).toHaveLength(2);
  });

  it('saves every open window with the session it shows now when quitting', () => {
    const { windows, stateFile, win } = setup();
    windows.openSession(A);
    windows.open();
    win(0).webContents.loaded(`${RENDERER}#/session/${A}`);
    win(0).webContents.switchTo(B);
    win(1).webContents.loaded(RENDERER);
    windows.quitting();
    const file = JSON.parse(readFileSync(stateFile, 'utf8')) as { windows: WindowState[] };
    expect(file.windows.map((w) => w.location)).toEqual([`#/session/${B}`, '']);
  });
});

describe('a page that crashes or hangs', () => {
  it('tells the person in a box on that window and reloads the page', async () => {
    const { windows, port, win } = setup();
    const first = windows.open();
    win(0).webContents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 1 });
    expect(port.boxes).toEqual([{ parent: first, box: expect.objectContaining({ type: 'warning', message: 'This window stopped working and was reloaded.' }) }]);
    await vi.advanceTimersByTimeAsync(RELOAD_DELAY_MS);
    expect(win(0).webContents.reloads).toBe(1);
  });

  it('asks before reloading a hung page and reloads it on "Reload"', async () => {
    const { windows, port, win } = setup();
    windows.open();
    port.answer = 0;
    win(0).emit('unresponsive');
    await vi.runAllTimersAsync();
    expect(port.boxes.map((b) => b.box.buttons)).toEqual([['Reload', 'Keep waiting']]);
    expect(port.boxes[0]?.box.signal).toBeInstanceOf(AbortSignal);
    expect(win(0).webContents.killed).toBe(1);
    expect(win(0).webContents.reloads).toBe(1);
  });

  it('keeps waiting on a hung page when the person says so', async () => {
    const { windows, port, win } = setup();
    windows.open();
    port.answer = 1;
    win(0).emit('unresponsive');
    await vi.runAllTimersAsync();
    expect(win(0).webContents.reloads).toBe(0);
  });

  it('logs a crash notice that could not be shown', async () => {
    const { windows, port, win, entries } = setup();
    windows.open();
    port.showMessageBox = () => Promise.reject(new Error('no display'));
    win(0).webContents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 1 });
    await vi.runAllTimersAsync();
    expect(entries).toContainEqual({ level: 'warn', msg: 'could not tell about a crashed window', fields: { window: 'window 1', error: 'Error: no display' } });
  });
});
