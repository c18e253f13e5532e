/**
 * What the window manager needs of Electron, and nothing more: make a window, read the screens,
 * ask the person something in a message box. `electron-windows.ts` implements it with
 * `BrowserWindow`, `screen` and `dialog`; the tests implement it with fakes, so every window
 * rule (one window per session, cascading, restoring, recovery questions) runs in plain Node.
 *
 * The window's shape is the union of what its users read: the transport (`WebContentsLike`),
 * the crash and hang recovery (`RecoverableWindow`) and the layout keeper (`TrackedWindow`).
 */
import type { WebPreferences } from 'electron';
import type { WebContentsLike } from '../transport/electron-ipc';
import type { RecoverableContents, RecoverableWindow } from './renderer-recovery';
import type { Rect, TrackedWindow } from './window-state';

/** The events after which a window's saved layout must be read again. */
export const LAYOUT_EVENTS = ['resize', 'move', 'maximize', 'unmaximize', 'enter-full-screen', 'leave-full-screen'] as const;
export type LayoutEvent = (typeof LAYOUT_EVENTS)[number];

/** A window's page, as the transport, the recovery and the window manager use it. */
export type ShellContents = WebContentsLike &
  RecoverableContents & {
    getURL(): string;
    /** Same-document navigations: the renderer's `replaceState` and hash changes. */
    on(event: 'did-navigate-in-page', listener: (event: unknown, url: string, isMainFrame: boolean) => void): unknown;
    /** A new document in the main frame (a load or a reload). */
    on(event: 'did-navigate', listener: (event: unknown, url: string) => void): unknown;
    on(event: 'preload-error', listener: (event: unknown, preloadPath: string, error: Error) => void): unknown;
  };

export type ShellWindow = RecoverableWindow &
  TrackedWindow & {
    readonly webContents: ShellContents;
    show(): void;
    focus(): void;
    restore(): void;
    isMinimized(): boolean;
    maximize(): void;
    setFullScreen(flag: boolean): void;
    getBounds(): Rect;
    loadURL(url: string): Promise<void>;
    on(event: LayoutEvent | 'close' | 'closed', listener: () => void): unknown;
    once(event: 'ready-to-show', listener: () => void): unknown;
  };

export interface ShellWindowOptions {
  title: string;
  /** Without `x`/`y` the system places the window. */
  bounds: { width: number; height: number; x?: number; y?: number };
  minWidth: number;
  minHeight: number;
  webPreferences: WebPreferences;
}

/** A question or notice in a message box attached to one window. */
export interface MessageBox {
  type: 'info' | 'warning' | 'error';
  message: string;
  detail: string;
  buttons: string[];
  defaultId?: number;
  cancelId?: number;
  /** Withdraws the box (the question answered itself). */
  signal?: AbortSignal;
}

export interface WindowPort {
  /** A new window, hidden until its page is ready to show. */
  create(options: ShellWindowOptions): ShellWindow;
  /** The work areas of every screen, the primary one first. */
  workAreas(): Rect[];
  /** Bounds of the window that has focus, if one of ours has. */
  focusedBounds(): Rect | undefined;
  /** Shows `box` on `parent`; answers the index of the button pressed. */
  showMessageBox(parent: ShellWindow, box: MessageBox): Promise<number>;
}
