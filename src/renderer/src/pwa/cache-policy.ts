/**
 * What the served app's service worker may keep: the app shell only (the page, its hashed
 * scripts and styles, the manifest and icons), so the window opens at once and says "Connection
 * lost" rather than nothing when the host is away. Transcripts, sessions and everything else
 * travel over the WebSocket (`/ws`), which a service worker never sees, and the token rides in
 * the address of the first page load and of the socket: nothing with `token` in its address is
 * ever cached, nor anything that is not a same-origin GET.
 */

/** The cache's name; a new version drops the old cache when the new worker activates. */
export const SHELL_CACHE = 'switchboard-shell-v1';

/** Fetched into the cache when the worker installs. */
export const SHELL_URLS: readonly string[] = ['/', '/manifest.webmanifest', '/icons/icon.svg', '/icons/icon-192.png', '/icons/icon-512.png'];

/** At most this many scripts, styles and icons are kept; the oldest go first (each build's names differ). */
export const MAX_CACHED_FILES = 60;

export type CachePolicy =
  /** The page: from the network when it answers, else the cached shell. */
  | { kind: 'network-first'; key: string }
  /** Hashed build files and icons: they never change under the same name. */
  | { kind: 'cache-first'; key: string }
  /** Left to the network, never stored. */
  | { kind: 'none' };

const NONE: CachePolicy = { kind: 'none' };

/** How the worker treats a request to `url` (method `method`) from a page of `origin`. */
export function cachePolicy(method: string, url: string, origin: string): CachePolicy {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return NONE;
  }
  if (method !== 'GET' || u.origin !== origin) return NONE;
  // The token never lands in a cache, under any name or in any part of the address.
  if (/token/i.test(u.search) || /token/i.test(u.hash) || /token/i.test(u.pathname)) return NONE;
  if (u.pathname === '/ws' || u.pathname.startsWith('/ws/')) return NONE;
  if (u.search !== '') return NONE;
  if (u.pathname === '/' || u.pathname === '/index.html') return { kind: 'network-first', key: '/' };
  if (u.pathname.startsWith('/assets/') || u.pathname.startsWith('/icons/') || u.pathname === '/manifest.webmanifest') {
    return { kind: 'cache-first', key: u.pathname };
  }
  return NONE;
}
