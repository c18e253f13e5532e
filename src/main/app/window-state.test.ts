import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../util/log';
import { tempDir } from '../test-support/temp-dir';
import {
  fitToDisplays,
  loadWindowStates,
  locationOf,
  SAVE_DEBOUNCE_MS,
  sessionLocation,
  sessionOfUrl,
  WINDOW_STATE_FILE,
  WindowStateKeeper,
  type Rect,
  type TrackedWindow,
} from './window-state';

class FakeWindow implements TrackedWindow {
  maximized = false;
  fullScreen = false;
  constructor(
    public bounds: Rect,
    public url = 'file:///app/out/renderer/index.html',
  ) {}
  getNormalBounds(): Rect {
    return this.bounds;
  }
  isMaximized(): boolean {
    return this.maximized;
  }
  isFullScreen(): boolean {
    return this.fullScreen;
  }
  get webContents() {
    return { getURL: () => this.url };
  }
}

const screen: Rect = { x: 0, y: 0, width: 1920, height: 1050 };

describe('fitToDisplays', () => {
  it('keeps a window that is on a screen where it was', () => {
    const b = { x: 100, y: 80, width: 1200, height: 800 };
    expect(fitToDisplays(b, [screen])).toEqual(b);
  });

  it('keeps a window on a second screen that is still there', () => {
    const right: Rect = { x: 1920, y: 0, width: 2560, height: 1400 };
    const b = { x: 2000, y: 100, width: 1200, height: 800 };
    expect(fitToDisplays(b, [screen, right])).toEqual(b);
  });

  it('centres on the primary screen a window whose monitor is gone', () => {
    expect(fitToDisplays({ x: 3000, y: 200, width: 1000, height: 700 }, [screen])).toEqual({ x: 460, y: 175, width: 1000, height: 700 });
  });

  it('moves a window that shows only a sliver', () => {
    const fitted = fitToDisplays({ x: 1900, y: 100, width: 800, height: 600 }, [screen]);
    expect(fitted.x + fitted.width).toBeLessThanOrEqual(1920);
  });

  it('shrinks a window larger than its screen and keeps its title bar reachable', () => {
    const fitted = fitToDisplays({ x: 10, y: -40, width: 4000, height: 3000 }, [screen]);
    expect(fitted).toEqual({ x: 10, y: 0, width: 1920, height: 1050 });
  });
});

describe('sessionLocation', () => {
  it("is the renderer's session route, which locationOf keeps across a restart", () => {
    const id = '0b0e6c1e-1f5a-4a43-9d2c-6f3f1a2b3c4d';
    expect(sessionLocation(id)).toBe(`#/session/${id}`);
    expect(locationOf(`file:///app/index.html${sessionLocation(id)}`)).toBe(`#/session/${id}`);
  });

  it('is read back from a window address by sessionOfUrl, which finds no session in anything else', () => {
    const id = '0b0e6c1e-1f5a-4a43-9d2c-6f3f1a2b3c4d';
    expect(sessionOfUrl(`http://127.0.0.1:5173/?token=t${sessionLocation(id)}`)).toBe(id);
    expect(sessionOfUrl('file:///app/index.html')).toBeUndefined();
    expect(sessionOfUrl('file:///app/index.html#/session/not-an-id')).toBeUndefined();
    expect(sessionOfUrl('')).toBeUndefined();
  });
});

describe('locationOf', () => {
  it('keeps the query and hash of the renderer address', () => {
    expect(locationOf('file:///app/index.html?session=s1#x')).toBe('?session=s1#x');
    expect(locationOf('file:///app/index.html#/session/abc')).toBe('#/session/abc');
    expect(locationOf('file:///app/index.html')).toBe('');
    expect(locationOf('not a url')).toBe('');
  });
});

describe('WindowStateKeeper', () => {
  let dir: string;
  let file: string;
  let cleanup: () => void;
  beforeEach(() => {
    vi.useFakeTimers();
    ({ path: dir, cleanup } = tempDir('window-state-'));
    file = join(dir, WINDOW_STATE_FILE);
  });
  afterEach(() => {
    vi.useRealTimers();
    cleanup();
  });

  it('saves every open window, debounced, and reads them back', () => {
    const keeper = new WindowStateKeeper(file, silentLogger);
    const a = new FakeWindow({ x: 10, y: 20, width: 900, height: 700 }, 'file:///app/index.html#/session/a');
    const b = new FakeWindow({ x: 50, y: 60, width: 1000, height: 750 });
    keeper.track(a);
    keeper.track(b);
    a.bounds = { x: 30, y: 40, width: 910, height: 710 };
    a.url = 'file:///app/index.html#/session/a2';
    keeper.changed(a);
    expect(loadWindowStates(file, silentLogger)).toEqual([]); // not yet written
    vi.advanceTimersByTime(SAVE_DEBOUNCE_MS);
    expect(loadWindowStates(file, silentLogger)).toEqual([
      { bounds: { x: 30, y: 40, width: 910, height: 710 }, maximized: false, fullScreen: false, location: '#/session/a2' },
      { bounds: { x: 50, y: 60, width: 1000, height: 750 }, maximized: false, fullScreen: false, location: '' },
    ]);
  });

  it('forgets a window closed while others stay open, remembers the last one closed', () => {
    const keeper = new WindowStateKeeper(file, silentLogger);
    const a = new FakeWindow({ x: 0, y: 0, width: 800, height: 600 }, 'file:///app/index.html#/session/a');
    const b = new FakeWindow({ x: 100, y: 100, width: 800, height: 600 }, 'file:///app/index.html#/session/b');
    keeper.track(a);
    keeper.track(b);
    keeper.closing(a);
    keeper.closing(b);
    vi.advanceTimersByTime(SAVE_DEBOUNCE_MS);
    expect(loadWindowStates(file, silentLogger).map((w) => w.location)).toEqual(['#/session/b']);
  });

  it('remembers every window open at quit, with maximized and full-screen flags, at once', () => {
    const keeper = new WindowStateKeeper(file, silentLogger);
    const a = new FakeWindow({ x: 0, y: 0, width: 800, height: 600 });
    const b = new FakeWindow({ x: 100, y: 100, width: 800, height: 600 });
    keeper.track(a);
    keeper.track(b);
    b.maximized = true;
    a.fullScreen = true;
    keeper.quit();
    keeper.closing(a); // windows close after quit began: still remembered
    const saved = loadWindowStates(file, silentLogger);
    expect(saved).toHaveLength(2);
    expect(saved.map((w) => [w.maximized, w.fullScreen])).toEqual([
      [false, true],
      [true, false],
    ]);
  });

  it('a damaged or foreign file costs the layout, never the start', () => {
    writeFileSync(file, '{"version":1,"windows":[{"bounds":"nope"}]}');
    expect(loadWindowStates(file, silentLogger)).toEqual([]);
    writeFileSync(file, 'not json');
    expect(loadWindowStates(file, silentLogger)).toEqual([]);
    expect(loadWindowStates(join(dir, 'missing.json'), silentLogger)).toEqual([]);
  });

  it('writes atomically: no temporary file is left', () => {
    const keeper = new WindowStateKeeper(file, silentLogger);
    keeper.track(new FakeWindow({ x: 0, y: 0, width: 800, height: 600 }));
    keeper.flush();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ version: 1 });
    expect(readdirSync(dir)).toEqual([WINDOW_STATE_FILE]);
  });
});

