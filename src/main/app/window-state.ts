/**
 * Windows come back after a restart with their size, position and session. What each window
 * showed is the part of its address after the document (`?…#…`): the renderer keeps its
 * session there, so restoring the address restores the session as it is, whatever else the
 * renderer keeps in it. (`sessionLocation` and `sessionOfUrl` read and write the session part
 * with the spelling the renderer shares, for the window manager.)
 *
 * Saved to `<data dir>/windows.json` (atomically) when a window moves, resizes or switches,
 * debounced, and at quit. No `electron` import: windows and displays are small interfaces.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { hashFor, sessionFromHash } from '../../shared/session-address';
import { writeFileAtomicSync } from '../util/atomic-file';
import type { Logger } from '../util/log';

export const WINDOW_STATE_FILE = 'windows.json';
export const SAVE_DEBOUNCE_MS = 1000;
/** At least this much of a restored window must be on a screen, or it is moved onto one. */
export const MIN_VISIBLE_PX = 64;

const Rect = z.object({ x: z.number().int(), y: z.number().int(), width: z.number().int().positive(), height: z.number().int().positive() });
export type Rect = z.infer<typeof Rect>;

const WindowState = z.object({
  bounds: Rect,
  maximized: z.boolean(),
  fullScreen: z.boolean(),
  /** `search + hash` of the renderer address, e.g. `#/session/abc`; '' for none. */
  location: z.string().max(2048),
});
export type WindowState = z.infer<typeof WindowState>;

const WindowStateFile = z.object({ version: z.literal(1), windows: z.array(WindowState).max(32) });

export function loadWindowStates(file: string, log: Logger): WindowState[] {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') log.warn('could not read the saved windows', { file, error: String(err) });
    return [];
  }
  try {
    return WindowStateFile.parse(JSON.parse(raw)).windows;
  } catch (err) {
    // A damaged file costs the layout, never the start.
    log.warn('the saved windows file is not valid; opening one window', { file, error: String(err) });
    return [];
  }
}

export function saveWindowStates(file: string, windows: readonly WindowState[]): void {
  writeFileAtomicSync(file, `${JSON.stringify({ version: 1, windows }, null, 2)}\n`);
}

/**
 * The address part that makes the renderer show a session (`#/session/<id>`, spelled in
 * `src/shared/session-address.ts`): a window opened for one session starts on it.
 */
export function sessionLocation(sessionId: string): string {
  return hashFor(sessionId);
}

/** The session a window's address (`file:///…/index.html#/session/<id>`) shows, if any. */
export function sessionOfUrl(url: string): string | undefined {
  try {
    return sessionFromHash(new URL(url).hash);
  } catch {
    return undefined; // not an address (a window that has loaded nothing yet): no session
  }
}

/** The renderer address part to keep: what follows the document, nothing else. */
export function locationOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.search}${parsed.hash}`;
  } catch {
    return '';
  }
}

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  return {
    width: Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x),
    height: Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y),
  };
}

/**
 * Bounds that fit the screens of today: a window saved on a monitor that is gone, or mostly off
 * screen, is centred on the primary work area; one larger than its screen shrinks to fit.
 */
export function fitToDisplays(bounds: Rect, workAreas: readonly Rect[]): Rect {
  const primary = workAreas[0];
  if (!primary) return bounds;
  const home = workAreas.find((area) => {
    const o = overlap(bounds, area);
    return o.width >= MIN_VISIBLE_PX && o.height >= MIN_VISIBLE_PX;
  });
  const area = home ?? primary;
  const width = Math.min(bounds.width, area.width);
  const height = Math.min(bounds.height, area.height);
  if (home) {
    // Keep the title bar reachable: never above the work area's top edge.
    return { x: bounds.x, y: Math.max(bounds.y, area.y), width, height };
  }
  return {
    x: area.x + Math.round((area.width - width) / 2),
    y: area.y + Math.round((area.height - height) / 2),
    width,
    height,
  };
}

/** The parts of a `BrowserWindow` the keeper reads. */
export interface TrackedWindow {
  getNormalBounds(): Rect;
  isMaximized(): boolean;
  isFullScreen(): boolean;
  readonly webContents: { getURL(): string };
}

/**
 * Keeps the saved list in step with the open windows. A window the person closes while others
 * stay open is forgotten; the last one closed, and every window open at quit, is remembered.
 */
export class WindowStateKeeper {
  private readonly open = new Map<TrackedWindow, WindowState>();
  /** Windows that closed but will come back (the last one closed, or closed by quitting). */
  private readonly kept: WindowState[] = [];
  private quitting = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly file: string,
    private readonly log: Logger,
  ) {}

  track(win: TrackedWindow): void {
    this.open.set(win, this.snapshot(win));
    this.kept.length = 0; // a window is open again: what closed before is not coming back
    this.scheduleSave();
  }

  /** Something about `win` changed (bounds, maximized, its session). */
  changed(win: TrackedWindow): void {
    if (!this.open.has(win)) return;
    this.open.set(win, this.snapshot(win));
    this.scheduleSave();
  }

  /** `win` is about to close (its state is still readable). */
  closing(win: TrackedWindow): void {
    if (!this.open.has(win)) return;
    const state = this.snapshot(win);
    this.open.delete(win);
    if (this.quitting || this.open.size === 0) this.kept.push(state);
    this.scheduleSave();
  }

  /** Quit begins: every window still open comes back next time. Saves at once. */
  quit(): void {
    this.quitting = true;
    for (const win of this.open.keys()) this.open.set(win, this.snapshot(win));
    this.flush();
  }

  current(): WindowState[] {
    return [...this.kept, ...this.open.values()];
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    try {
      saveWindowStates(this.file, this.current());
    } catch (err) {
      this.log.warn('could not save the window layout', { file: this.file, error: String(err) });
    }
  }

  private scheduleSave(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), SAVE_DEBOUNCE_MS);
    this.timer.unref();
  }

  private snapshot(win: TrackedWindow): WindowState {
    const b = win.getNormalBounds();
    return {
      bounds: { x: Math.round(b.x), y: Math.round(b.y), width: Math.max(1, Math.round(b.width)), height: Math.max(1, Math.round(b.height)) },
      maximized: win.isMaximized(),
      fullScreen: win.isFullScreen(),
      location: locationOf(win.webContents.getURL()),
    };
  }
}
