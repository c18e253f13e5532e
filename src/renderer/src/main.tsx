// First: zod's configuration must precede every schema the imports below create.
import './lib/zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { connectToHost } from './api/get-api';
import { App } from './app';
import { ErrorBoundary } from './components/app-frame/error-boundary';
import { addressFor, hashFor, sessionFromHash } from './lib/address';
import { newId } from './lib/new-id';
import { downloadText } from './lib/download';
import { createAppStore } from './store/app-store';
import { watchAttention } from './store/attention';
import { notify, OPEN_SESSION_MESSAGE } from './components/notifications/notify';
import { applyTheme, rememberedTheme, setTheme } from './lib/theme';
import { followVisualViewport } from './lib/viewport';
import { registerServiceWorker } from './pwa/register';
import { bindApi } from './store/bind-api';
import { nextTask, pageClockPace } from './store/frame';
import { StoreProvider } from './store/context';
import './styles/app.css';
import './styles/navigation.css';
import './styles/workspace.css';
import './styles/adaptive.css';

const LAST_SESSION_KEY = 'switchboard.lastSession';

/** localStorage, if this page may use it. */
function localStore(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

// Before anything renders: the theme this window last showed, until the host's settings say.
applyTheme(document.documentElement, rememberedTheme(localStore()));
followVisualViewport(document.documentElement, window.visualViewport);

// The address says which session this window shows (a tab, a bookmark, a restored window);
// without one, the last session any window showed. Storage can be unavailable (privacy
// settings, opaque origins): remembering is best effort.
const lastSession = {
  get(): string | undefined {
    const addressed = sessionFromHash(window.location.hash);
    if (addressed) return addressed;
    try {
      return localStorage.getItem(LAST_SESSION_KEY) ?? undefined;
    } catch {
      return undefined;
    }
  },
  set(id: string): void {
    // Replaced, not pushed: switching sessions all day must not fill Back with every one of them.
    if (sessionFromHash(window.location.hash) !== id) window.history.replaceState(window.history.state, '', hashFor(id));
    try {
      localStorage.setItem(LAST_SESSION_KEY, id);
    } catch {
      /* best effort */
    }
  },
};

const link = connectToHost();
const store = createAppStore({
  api: link.api,
  newId,
  lastSession,
  scheduleFrame: nextTask(),
  // A dense answer streaming at 200 chunks a second kept the page's main thread busy 99% of the
  // time at one render a frame; 25 renders a second read as smooth and halve that work.
  rowsPace: pageClockPace(40),
  // In a browser a new tab at the session's address; the desktop app asks the host (windows:open).
  ...(link.desktop ? {} : { openTab: (id: string) => window.open(addressFor(window.location, id), '_blank') !== null }),
  download: downloadText,
});
bindApi(store, link.api, link.connection, link.contract);

// An address typed or pasted in this tab (or Back over an older one) switches to its session.
window.addEventListener('hashchange', () => {
  const id = sessionFromHash(window.location.hash);
  if (id && id !== store.getState().currentSessionId) void store.getState().switchSession(id);
});
// Typing saves after a pause; a reload or a closed window saves what is still waiting now.
window.addEventListener('pagehide', () => store.getState().flushDrafts());
window.addEventListener('beforeunload', () => store.getState().flushDrafts());

const openSession = (sessionId: string): void => void store.getState().switchSession(sessionId);
// A notification the service worker showed (a phone's browser) was pressed.
navigator.serviceWorker?.addEventListener('message', (e: MessageEvent<unknown>) => {
  const data = e.data as { type?: unknown; sessionId?: unknown } | null;
  if (data?.type === OPEN_SESSION_MESSAGE && typeof data.sessionId === 'string') openSession(data.sessionId);
});

watchAttention(store, {
  setTitle: (title) => {
    document.title = title;
  },
  isHidden: () => document.hidden || !document.hasFocus(),
  // A browser tab notifies once the person turned notifications on (Settings); never asked at load.
  notify: (target) =>
    notify(target, { desktop: link.desktop, openSession, worker: () => navigator.serviceWorker?.getRegistration() ?? Promise.resolve(undefined) }),
});
// The host's setting wins, in every window (pushed to all of them when one changes it).
store.subscribe((state, prev) => {
  const theme = state.settings?.theme;
  if (theme !== prev.settings?.theme) setTheme(document.documentElement, localStore(), theme ?? 'system');
});
void store.getState().start();
// A tab of `switchboard serve` can be installed and opens offline to its shell; the desktop app never registers one.
registerServiceWorker({ desktop: link.desktop, nav: navigator, secure: window.isSecureContext, protocol: window.location.protocol });

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <ErrorBoundary>
        <StoreProvider store={store}>
          <App />
        </StoreProvider>
      </ErrorBoundary>
    </StrictMode>,
  );
}
