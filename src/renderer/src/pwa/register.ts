/**
 * Registers the app-shell service worker (`/sw.js`, see `sw.ts`) where it belongs: a browser
 * tab of `switchboard serve` in a secure context (localhost, or https in front of it). Never in
 * the desktop app, whose window loads its files from disk.
 */
export function registerServiceWorker(env: { desktop: boolean; nav: Navigator; secure: boolean; protocol: string }): boolean {
  if (env.desktop || !env.secure || !/^https?:$/.test(env.protocol) || !('serviceWorker' in env.nav)) return false;
  env.nav.serviceWorker.register('/sw.js', { scope: '/' }).catch((err: unknown) => {
    // Only the offline shell is lost: the window works the same without it.
    console.warn('[switchboard] the service worker could not be registered', err);
  });
  return true;
}
