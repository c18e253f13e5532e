/**
 * The served app's service worker (built to `/sw.js`, registered by `register.ts` in a browser
 * only). It caches the app shell and nothing else: see `cache-policy.ts`.
 *
 * Typed by hand, narrowly: the renderer's TypeScript project has the DOM's types, not a
 * worker's, and this file needs only these few.
 */
import { cachePolicy, MAX_CACHED_FILES, SHELL_CACHE, SHELL_URLS } from './cache-policy';

interface ExtendableEvent extends Event {
  waitUntil(work: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(response: Promise<Response>): void;
}
interface NotificationEvent extends ExtendableEvent {
  readonly notification: Notification;
}
interface WindowClient {
  focus(): Promise<WindowClient>;
  postMessage(message: unknown): void;
}
interface WorkerScope {
  readonly location: { readonly origin: string };
  readonly clients: {
    claim(): Promise<void>;
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly WindowClient[]>;
    openWindow(url: string): Promise<WindowClient | null>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (e: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (e: FetchEvent) => void): void;
  addEventListener(type: 'notificationclick', listener: (e: NotificationEvent) => void): void;
}

/** The page's message for a pressed notification (components/notifications/notify.ts). */
const OPEN_SESSION_MESSAGE = 'switchboard:open-session';
const SESSION_ID = /^[0-9a-f-]{36}$/i;

const scope = self as unknown as WorkerScope;

scope.addEventListener('install', (e) => {
  // One by one: a file that cannot be fetched now (the page without its cookie) is fetched on first use instead.
  e.waitUntil(
    caches
      .open(SHELL_CACHE)
      .then((cache) => Promise.allSettled(SHELL_URLS.map((url) => cache.add(url))))
      .then(() => scope.skipWaiting()),
  );
});

scope.addEventListener('activate', (e) => {
  e.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n !== SHELL_CACHE).map((n) => caches.delete(n))))
      .then(() => scope.clients.claim()),
  );
});

/** Keeps the cache bounded: each build brings new file names. */
async function trim(cache: Cache): Promise<void> {
  const keys = await cache.keys();
  const files = keys.filter((r) => new URL(r.url).pathname !== '/');
  for (const old of files.slice(0, Math.max(0, files.length - MAX_CACHED_FILES))) await cache.delete(old);
}

async function networkFirst(request: Request, key: string): Promise<Response> {
  const cache = await caches.open(SHELL_CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && response.type === 'basic') await cache.put(key, response.clone());
    return response;
  } catch (err) {
    const cached = await cache.match(key);
    if (cached) return cached;
    throw err;
  }
}

async function cacheFirst(request: Request, key: string): Promise<Response> {
  const cache = await caches.open(SHELL_CACHE);
  const cached = await cache.match(key);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok && response.type === 'basic') {
    await cache.put(key, response.clone());
    await trim(cache);
  }
  return response;
}

scope.addEventListener('fetch', (e) => {
  const policy = cachePolicy(e.request.method, e.request.url, scope.location.origin);
  if (policy.kind === 'network-first') e.respondWith(networkFirst(e.request, policy.key));
  else if (policy.kind === 'cache-first') e.respondWith(cacheFirst(e.request, policy.key));
  // Anything else is not answered here: the browser fetches it as if there were no worker.
});

// A notification shown from here (a phone's browser shows them only through a worker) was
// pressed: the open window shows its session, else a new one opens at it.
scope.addEventListener('notificationclick', (e) => {
  e.notification.close();
  const data = e.notification.data as { sessionId?: unknown } | null;
  const sessionId = typeof data?.sessionId === 'string' && SESSION_ID.test(data.sessionId) ? data.sessionId : undefined;
  e.waitUntil(
    scope.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(async (windows) => {
      const open = windows[0];
      if (!open) return void (await scope.clients.openWindow(sessionId ? `/#/session/${sessionId}` : '/'));
      if (sessionId) open.postMessage({ type: OPEN_SESSION_MESSAGE, sessionId });
      await open.focus();
    }),
  );
});
