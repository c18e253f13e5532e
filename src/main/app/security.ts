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
}

function openExternally(url: string, log: Logger): void {
  if (!isExternalLink(url)) return;
  shell.openExternal(url).catch((err: unknown) => log.warn('could not open a link externally', { url, error: String(err) }));
}

/** Guards one webContents: it may show our renderer only, and never opens windows. */
export function guardWebContents(contents: WebContents, options: SecurityOptions): void {
  const { isRendererUrl, log } = options;
  contents.on('will-navigate', (event) => {
    if (isRendererUrl(event.url)) return;
    event.preventDefault();
    openExternally(event.url, log);
  });
  contents.on('will-redirect', (event) => {
    if (isRendererUrl(event.url)) return;
    event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    openExternally(url, log);
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
}

/** Applies the guards to every webContents the app ever creates, windows or not. */
export function installGlobalGuards(app: App, options: SecurityOptions): void {
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, options));
}
