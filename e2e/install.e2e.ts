import { expect, openApp, test } from './support/fixtures';

test.describe('the served app can be installed', () => {
  test('links a manifest served with its type, registers a service worker that caches the shell and never the token', async ({ page, context, host }) => {
    await openApp(page, host.url());
    const manifest = await page.request.get(`${host.current.origin}/manifest.webmanifest`);
    expect(manifest.status()).toBe(200);
    expect(manifest.headers()['content-type']).toBe('application/manifest+json; charset=utf-8');
    expect(((await manifest.json()) as { name: string }).name).toBe('Switchboard');
    const icon = await page.request.get(`${host.current.origin}/icons/icon-192.png`);
    expect(icon.headers()['content-type']).toBe('image/png');

    const worker = await page.evaluate(() => navigator.serviceWorker.ready.then((r) => r.active?.scriptURL));
    expect(worker).toBe(`${host.current.origin}/sw.js`);
    // Controlled from the next load on: the shell is cached as it is fetched.
    await page.reload();
    await expect(page.getByRole('button', { name: 'New session' })).toBeEnabled();
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) for (const r of await (await caches.open(name)).keys()) urls.push(r.url);
      return urls;
    });
    expect(cached).toContain(`${host.current.origin}/`);
    expect(cached.some((u) => u.includes('/assets/'))).toBe(true);
    expect(cached.filter((u) => /token|\/ws/i.test(u))).toEqual([]);
    for (const name of await page.evaluate(() => caches.keys())) {
      const stored = await page.evaluate(async (n) => {
        const cache = await caches.open(n);
        const bodies: string[] = [];
        for (const r of await cache.keys()) bodies.push((await (await cache.match(r))?.text()) ?? '');
        return bodies.join('\n');
      }, name);
      expect(stored).not.toContain(host.current.token);
    }

    // Offline (the host away): the window still opens, to its shell, and says so.
    await context.setOffline(true);
    await page.reload();
    await expect(page.getByRole('alert', { name: 'Connection lost — reconnecting…' })).toBeVisible();
    await context.setOffline(false);
  });
});
