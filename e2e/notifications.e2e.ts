import { expect, newSession, openApp, send, test, transcript } from './support/fixtures';

interface Watched {
  __asked: number;
  __shown: [string, string][];
}

test.describe('notifications in the browser', () => {
  test('are asked for only on the press of Turn on notifications, then tell when a watched turn ends out of sight', async ({ page, host }) => {
    // A stand-in for the browser's notifications, counting what the page asks and shows; the
    // person looks at another window (the document has no focus).
    await page.addInitScript(() => {
      const w = window as unknown as Watched & { Notification: unknown };
      w.__asked = 0;
      w.__shown = [];
      let permission: NotificationPermission = 'default';
      w.Notification = class {
        static get permission() {
          return permission;
        }
        static requestPermission() {
          w.__asked++;
          permission = 'granted';
          return Promise.resolve(permission);
        }
        onclick: (() => void) | null = null;
        constructor(title: string, options: NotificationOptions) {
          w.__shown.push([title, options.body ?? '']);
        }
        close() {}
      };
      document.hasFocus = () => false;
    });
    const watched = () => page.evaluate(() => ({ asked: (window as unknown as Watched).__asked, shown: (window as unknown as Watched).__shown }));
    await openApp(page, host.url());
    await newSession(page);
    await send(page, 'before asking');
    await expect(transcript(page)).toContainText('Echo: before asking');
    // Not asked at load, and nothing shown while not allowed.
    expect(await watched()).toEqual({ asked: 0, shown: [] });

    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    await settings.getByRole('button', { name: 'Turn on notifications' }).click();
    await expect(settings).toContainText('On: this browser tells you');
    expect((await watched()).asked).toBe(1);
    await page.keyboard.press('Escape');

    await send(page, 'after asking');
    await expect(transcript(page)).toContainText('Echo: after asking');
    await expect.poll(async () => (await watched()).shown.map(([title]) => title)).toEqual(['The agent finished']);
    await send(page, '/permission Edit config');
    await expect.poll(async () => (await watched()).shown.map(([title]) => title)).toEqual(['The agent finished', 'Permission needed']);
  });
});
