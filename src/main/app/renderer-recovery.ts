/**
 * A window whose page crashed or hung is reported and reloaded. The sessions it showed live in
 * the host, not in the page: their turns go on while the page is gone, and the reloaded page
 * switches back to them (the transport gave the dead page's host client up already).
 *
 * No `electron` import: the window is a small interface and the questions to the person are
 * functions, so every path is unit-tested with a fake clock.
 */
import type { Logger } from '../util/log';

/** `render-process-gone` reasons that are not a crash (the page was closed or reloaded). */
const NOT_A_CRASH: ReadonlySet<string> = new Set(['clean-exit']);

/** Pause before reloading, so a page that dies at once does not spin the CPU. */
export const RELOAD_DELAY_MS = 500;
/** More crashes than this within {@link CRASH_WINDOW_MS} stop the automatic reloads. */
export const MAX_CRASHES = 3;
export const CRASH_WINDOW_MS = 60_000;

export interface RecoverableContents {
  on(event: 'render-process-gone', listener: (event: unknown, details: { reason: string; exitCode?: number }) => void): unknown;
  isDestroyed(): boolean;
  reload(): void;
  forcefullyCrashRenderer(): void;
}

export interface RecoverableWindow {
  readonly webContents: RecoverableContents;
  on(event: 'unresponsive' | 'responsive' | 'closed', listener: () => void): unknown;
  isDestroyed(): boolean;
}

export interface RecoveryTimers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface RendererRecoveryOptions {
  label: string;
  log: Logger;
  timers?: RecoveryTimers;
  /** Tells the person the page crashed and was reloaded (non-blocking). */
  reportCrash(reason: string): void;
  /** Asks whether to reload a page that hangs; `signal` aborts when it answers again by itself. */
  askReloadHung(signal: AbortSignal): Promise<'reload' | 'wait'>;
  /** Too many crashes in a row: the person decides (true = try again). */
  askAfterCrashLoop(reason: string): Promise<boolean>;
}

const realTimers: RecoveryTimers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export function installRendererRecovery(win: RecoverableWindow, options: RendererRecoveryOptions): void {
  const { label, log } = options;
  const timers = options.timers ?? realTimers;
  let crashes: number[] = [];
  let pendingReload: unknown;
  let hang: AbortController | undefined;

  const reload = (): void => {
    pendingReload = undefined;
    if (win.isDestroyed() || win.webContents.isDestroyed()) return;
    win.webContents.reload();
  };

  win.webContents.on('render-process-gone', (_event, details) => {
    if (NOT_A_CRASH.has(details.reason)) return;
    hang?.abort(); // a hung page that crashed answers its own question
    const now = timers.now();
    crashes = [...crashes.filter((at) => now - at < CRASH_WINDOW_MS), now];
    log.error('window page crashed', { window: label, reason: details.reason, exitCode: details.exitCode, recent: crashes.length });
    if (pendingReload !== undefined) return;
    if (crashes.length > MAX_CRASHES) {
      options
        .askAfterCrashLoop(details.reason)
        .then((again) => {
          if (!again) return;
          crashes = [];
          reload();
        })
        .catch((err: unknown) => log.warn('could not ask about a crashing window', { window: label, error: String(err) }));
      return;
    }
    options.reportCrash(details.reason);
    pendingReload = timers.setTimeout(reload, RELOAD_DELAY_MS);
  });

  win.on('unresponsive', () => {
    if (hang) return;
    log.warn('window page is not responding', { window: label });
    const controller = new AbortController();
    hang = controller;
    options
      .askReloadHung(controller.signal)
      .then((answer) => {
        if (hang === controller) hang = undefined;
        if (controller.signal.aborted || answer !== 'reload') return;
        if (win.isDestroyed() || win.webContents.isDestroyed()) return;
        log.warn('reloading a window page that hung', { window: label });
        // A hung page cannot run its unload: end its process, then load a new one.
        win.webContents.forcefullyCrashRenderer();
        reload();
      })
      .catch((err: unknown) => log.warn('could not ask about a hung window', { window: label, error: String(err) }));
  });

  win.on('responsive', () => {
    if (!hang) return;
    log.info('window page responds again', { window: label });
    hang.abort();
    hang = undefined;
  });

  win.on('closed', () => {
    hang?.abort();
    if (pendingReload !== undefined) timers.clearTimeout(pendingReload);
  });
}
