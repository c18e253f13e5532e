/**
 * Everything that keeps the renderer in its box: the CSP header, navigation and window-open
 * guards for every webContents, and permission requests (only notifications, only ours).
 */
import { shell, type App, type Session, type WebContents } from 'electron';
import type { Logger } from '../util/log';
import { ALLOWED_PERMISSIONS, isExternalLink, RENDERER_CSP } from './csp';

export interface SecurityOptions {
  /** True when `url` is our renderer document. */
  isRendererUrl(url: string): boolean;
  /** The dev server needs inline scripts and its own socket; the meta tag still applies there. */
  sendCspHeader: boolean;
  log: Logger;
  /** Milliseconds clock (tests pass a fake one). */
  now?: () => number;
}

/**
 * A link opens in the system browser only this soon after the person clicked or pressed a key
 * in the window: a click's navigation arrives within a few milliseconds, while a page that
 * tried to open links on its own (it cannot run scripts, but defence in depth) gets nothing.
 */
export const GESTURE_WINDOW_MS = 1000;

/** Input that a person makes: a click, a tap or a key (Enter on a focused link). */
const GESTURE_INPUTS: ReadonlySet<string> = new Set(['mouseDown', 'mouseUp', 'rawKeyDown', 'keyDown', 'gestureTap']);

/** Guards one webContents: it may show our renderer only, and never opens windows. */
export function guardWebContents(contents: WebContents, options: SecurityOptions): void {
  const { isRendererUrl, log } = options;
  const now = options.now ?? Date.now;
  let lastGestureAt = Number.NEGATIVE_INFINITY;
  contents.on('input-event', (_event, input) => {
    if (GESTURE_INPUTS.has(input.type)) lastGestureAt = now();
  });

  const openExternally = (url: string): void => {
    if (!isExternalLink(url)) {
      log.warn('refused to open a link that is not http(s)', { url: url.slice(0, 200) });
      return;
    }
    if (now() - lastGestureAt > GESTURE_WINDOW_MS) {
      log.warn('refused to open a link without a click', { url: url.slice(0, 200) });
      return;
    }
    shell.openExternal(url).catch((err: unknown) => log.warn('could not open a link externally', { url, error: String(err) }));
  };

  contents.on('will-navigate', (event) => {
    if (isRendererUrl(event.url)) return;
    event.preventDefault();
    openExternally(event.url);
  });
  contents.on('will-redirect', (event) => {
    if (isRendererUrl(event.url)) return;
    event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    openExternally(url);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

export function installSessionSecurity(ses: Session, options: SecurityOptions): void {
  const { isRendererUrl } = options;
  if (options.sendCspHeader) {
    ses.webRequest.onHeadersReceived((details, callback) => {
      callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [RENDERER_CSP] } });
    });
  }
  ses.setPermissionRequestHandler((contents, permission, callback) => {
    callback(ALLOWED_PERMISSIONS.has(permission) && isRendererUrl(contents.getURL()));
  });
  ses.setPermissionCheckHandler((contents, permission) => {
    return ALLOWED_PERMISSIONS.has(permission) && contents !== null && isRendererUrl(contents.getURL());
  });
  // USB, serial, HID and Bluetooth devices: never.
  ses.setDevicePermissionHandler(() => false);
}

/** Applies the guards to every webContents the app ever creates, windows or not. */
export function installGlobalGuards(app: App, options: SecurityOptions): void {
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, options));
}
