import { EventEmitter } from 'node:events';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../util/log';
import { ALLOWED_PERMISSIONS, RENDERER_CSP } from './csp';
import { GESTURE_WINDOW_MS, guardWebContents, installSessionSecurity, type SecurityOptions } from './security';
import { secureWebPreferences } from './web-preferences';

const openExternal = vi.hoisted(() => vi.fn(async (_url: string) => undefined));
vi.mock('electron', () => ({ shell: { openExternal } }));

const OURS = 'file:///app/out/renderer/index.html';

/** A webContents as far as the guards use it. */
class FakeContents extends EventEmitter {
  openHandler: ((details: { url: string }) => { action: string }) | undefined;
  url = OURS;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.openHandler = handler;
  }
  getURL(): string {
    return this.url;
  }
  /** Emits a cancellable event the way Electron does; true when the guard prevented it. */
  navigate(name: 'will-navigate' | 'will-redirect' | 'will-attach-webview', url: string): boolean {
    let prevented = false;
    this.emit(name, { url, preventDefault: () => (prevented = true) });
    return prevented;
  }
  input(type: string): void {
    this.emit('input-event', {}, { type });
  }
}

function setup() {
  let clock = 10_000;
  const options: SecurityOptions = {
    isRendererUrl: (url) => url.split('#')[0]?.split('?')[0] === OURS,
    sendCspHeader: true,
    log: silentLogger,
    now: () => clock,
  };
  const contents = new FakeContents();
  guardWebContents(contents as never, options);
  return { contents, options, advance: (ms: number) => (clock += ms) };
}

describe('window settings', () => {
  const prefs = secureWebPreferences('/app/out/preload/index.cjs');
  it('isolates the preload from the page (contextIsolation)', () => expect(prefs.contextIsolation).toBe(true));
  it('runs the renderer in the OS sandbox', () => expect(prefs.sandbox).toBe(true));
  it('gives the page no Node, in workers and subframes neither', () => {
    expect(prefs.nodeIntegration).toBe(false);
    expect(prefs.nodeIntegrationInWorker).toBe(false);
    expect(prefs.nodeIntegrationInSubFrames).toBe(false);
  });
  it('keeps web security on and insecure content off', () => {
    expect(prefs.webSecurity).toBe(true);
    expect(prefs.allowRunningInsecureContent).toBe(false);
  });
  it('has no webview tag and does not navigate to a dropped file', () => {
    expect(prefs.webviewTag).toBe(false);
    expect(prefs.navigateOnDragDrop).toBe(false);
  });
  it('loads the preload it was given', () => expect(prefs.preload).toBe('/app/out/preload/index.cjs'));
});

describe('content security policy', () => {
  const directives = new Map(
    RENDERER_CSP.split(';').map((part) => {
      const [name, ...values] = part.trim().split(/\s+/);
      return [name ?? '', values] as const;
    }),
  );
  it('runs only our own scripts: no inline script, no eval', () => {
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(RENDERER_CSP).not.toContain('unsafe-eval');
    expect(directives.get('script-src')).not.toContain("'unsafe-inline'");
  });
  it('allows no plugins, no base tag and no form posts', () => {
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
    expect(directives.get('form-action')).toEqual(["'none'"]);
  });
  it('falls back to self for everything else (frames included)', () => expect(directives.get('default-src')).toEqual(["'self'"]));
  it("takes a service worker and a web app manifest only from the app's own origin", () => {
    expect(directives.get('worker-src')).toEqual(["'self'"]);
    expect(directives.get('manifest-src')).toEqual(["'self'"]);
  });
});

describe('navigation and new windows', () => {
  beforeEach(() => openExternal.mockClear());

  it('lets the window load our renderer and nothing else', () => {
    const { contents } = setup();
    expect(contents.navigate('will-navigate', `${OURS}#/session/x`)).toBe(false);
    expect(contents.navigate('will-navigate', 'https://evil.example/')).toBe(true);
    expect(contents.navigate('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(contents.navigate('will-redirect', 'https://evil.example/')).toBe(true);
  });

  it('denies every window.open', () => {
    const { contents } = setup();
    expect(contents.openHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    expect(contents.openHandler?.({ url: OURS })).toEqual({ action: 'deny' });
  });

  it('refuses webviews', () => {
    const { contents } = setup();
    expect(contents.navigate('will-attach-webview', 'https://example.com/')).toBe(true);
  });

  it('opens an http(s) link in the system browser right after a click', () => {
    const { contents, advance } = setup();
    contents.input('mouseUp');
    advance(20);
    contents.openHandler?.({ url: 'https://example.com/docs' });
    expect(openExternal).toHaveBeenCalledWith('https://example.com/docs');
  });

  it('opens a link the person followed with the keyboard', () => {
    const { contents } = setup();
    contents.input('rawKeyDown');
    expect(contents.navigate('will-navigate', 'http://example.com/')).toBe(true);
    expect(openExternal).toHaveBeenCalledWith('http://example.com/');
  });

  it('opens nothing without a click, or long after one', () => {
    const { contents, advance } = setup();
    contents.openHandler?.({ url: 'https://example.com/' });
    contents.input('mouseDown');
    advance(GESTURE_WINDOW_MS + 1);
    contents.navigate('will-navigate', 'https://example.com/');
    contents.input('mouseMove');
    contents.openHandler?.({ url: 'https://example.com/' });
    expect(openExternal).not.toHaveBeenCalled();
  });

  it('never opens a link that is not http(s), even after a click', () => {
    const { contents } = setup();
    for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,<script>x</script>', 'smb://host/s']) {
      contents.input('mouseUp');
      contents.openHandler?.({ url });
      contents.navigate('will-navigate', url);
    }
    expect(openExternal).not.toHaveBeenCalled();
  });
});

describe('permission requests', () => {
  type RequestHandler = (contents: { getURL(): string }, permission: string, callback: (granted: boolean) => void) => void;
  type CheckHandler = (contents: { getURL(): string } | null, permission: string) => boolean;
  function session() {
    const handlers: { request?: RequestHandler; check?: CheckHandler; device?: () => boolean; headers?: unknown } = {};
    const ses = {
      webRequest: { onHeadersReceived: (fn: unknown) => (handlers.headers = fn) },
      setPermissionRequestHandler: (fn: RequestHandler) => (handlers.request = fn),
      setPermissionCheckHandler: (fn: CheckHandler) => (handlers.check = fn),
      setDevicePermissionHandler: (fn: () => boolean) => (handlers.device = fn),
    };
    installSessionSecurity(ses as never, setup().options);
    return handlers;
  }
  const ask = (request: RequestHandler | undefined, url: string, permission: string): boolean => {
    let answer: boolean | undefined;
    request?.({ getURL: () => url }, permission, (granted) => (answer = granted));
    return answer ?? false;
  };

  it('denies every permission but notifications and writing the clipboard (Copy buttons) to our renderer', () => {
    const { request, check } = session();
    for (const permission of ['media', 'geolocation', 'clipboard-read', 'midi', 'pointerLock', 'openExternal', 'fullscreen']) {
      expect(ask(request, OURS, permission), permission).toBe(false);
      expect(check?.({ getURL: () => OURS }, permission), permission).toBe(false);
    }
    expect([...ALLOWED_PERMISSIONS]).toEqual(['notifications', 'clipboard-sanitized-write']);
    expect(ask(request, OURS, 'notifications')).toBe(true);
    expect(ask(request, OURS, 'clipboard-sanitized-write')).toBe(true);
  });

  it('denies even notifications to a page that is not ours', () => {
    const { request, check } = session();
    expect(ask(request, 'https://evil.example/', 'notifications')).toBe(false);
    expect(check?.({ getURL: () => 'https://evil.example/' }, 'notifications')).toBe(false);
    expect(check?.(null, 'notifications')).toBe(false);
  });

  it('never grants a device (USB, serial, HID, Bluetooth)', () => {
    expect(session().device?.()).toBe(false);
  });

  it('sends the CSP as a response header', () => {
    const { headers } = session();
    let sent: Record<string, string[]> | undefined;
    (headers as (d: unknown, cb: (r: { responseHeaders: Record<string, string[]> }) => void) => void)(
      { responseHeaders: { 'X-Other': ['1'] } },
      (r) => (sent = r.responseHeaders),
    );
    expect(sent?.['Content-Security-Policy']).toEqual([RENDERER_CSP]);
    expect(sent?.['X-Other']).toEqual(['1']);
  });
});
