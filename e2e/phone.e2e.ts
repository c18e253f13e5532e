import type { Locator, Page } from '@playwright/test';
import { expect, messageBox, openApp, sidebar, test, transcript } from './support/fixtures';

const WIDTH = 390;
const HEIGHT = 844;
test.use({ viewport: { width: WIDTH, height: HEIGHT }, hasTouch: true, isMobile: true });

/** Types a message and taps Send (what a phone's keyboard leaves to a thumb). */
async function sendByTap(page: Page, text: string): Promise<void> {
  await messageBox(page).tap();
  await messageBox(page).fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).tap();
  await expect(messageBox(page)).toHaveValue('');
}

/** Starts a session with the top bar's New button and the dialog's Start, by taps. */
async function newSessionByTap(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'New session' }).tap();
  const dialog = page.getByRole('dialog', { name: 'New session' });
  await dialog.getByRole('button', { name: 'Start' }).tap();
  await expect(dialog).toHaveCount(0);
  await expect(transcript(page)).toBeVisible();
}

async function box(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not on screen');
  return b;
}

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

test.describe('a phone-sized window (390×844, touch)', () => {
  test('the sidebar is a drawer opened by Sessions, the transcript has the width, the header actions are a menu', async ({ page, host }) => {
    await openApp(page, host.url());
    await expect(sidebar(page)).toBeHidden();
    await newSessionByTap(page);
    await sendByTap(page, 'a message from the phone about /home/person/projects/switchboard/src/main/store/search-index.ts');
    await expect(transcript(page)).toContainText('Echo: a message from the phone');
    // The transcript takes the window's width, not a column squeezed beside the sidebar.
    expect((await box(transcript(page))).width).toBeGreaterThan(WIDTH - 20);
    expect(await noSidewaysScroll(page)).toBe(true);

    await newSessionByTap(page);
    await sendByTap(page, 'a second one');
    await expect(transcript(page)).toContainText('Echo: a second one');

    const sessions = page.getByRole('button', { name: 'Sessions', exact: true });
    await sessions.tap();
    await expect(sessions).toHaveAttribute('aria-expanded', 'true');
    await expect(sidebar(page)).toBeVisible();
    await expect.poll(() => sidebar(page).evaluate((el) => el.contains(document.activeElement))).toBe(true);
    // Choosing a session closes the drawer and shows it.
    await sidebar(page).getByRole('link', { name: /a message from the phone/ }).tap();
    await expect(sidebar(page)).toBeHidden();
    await expect(transcript(page)).toContainText('Echo: a message from the phone');
    // Escape closes it too, back on the Sessions button; so does a tap beside it.
    await sessions.tap();
    await expect(sidebar(page)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(sidebar(page)).toBeHidden();
    await expect(sessions).toBeFocused();
    await sessions.tap();
    await page.locator('.drawer-scrim').tap({ position: { x: WIDTH - 10, y: HEIGHT / 2 } });
    await expect(sidebar(page)).toBeHidden();

    // The header's actions are one menu.
    await expect(page.getByRole('button', { name: 'Close session' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Session actions' }).tap();
    const menu = page.getByRole('menu', { name: 'Session actions' });
    await expect(menu.getByRole('menuitem')).toHaveText(['Rename', 'Fork', 'Export…', 'Agent log', 'Close session', 'Archive', 'Delete…']);
    await menu.getByRole('menuitem', { name: 'Rename' }).tap();
    await expect(page.getByRole('textbox', { name: 'Session name' })).toBeFocused();
    await page.keyboard.type('Renamed on the phone');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Renamed on the phone' })).toBeVisible();
  });

  test('a permission request: Allow and Reject are large and in the bottom half, within a thumb', async ({ page, host }) => {
    await openApp(page, host.url());
    await sendByTap(page, '/permission Edit config');
    const request = page.getByRole('dialog', { name: 'Edit config' });
    await expect(request).toBeVisible();
    for (const name of ['Allow once', 'Reject once']) {
      const b = await box(request.getByRole('button', { name, exact: true }));
      expect(b.height, name).toBeGreaterThanOrEqual(44);
      expect(b.y, name).toBeGreaterThan(HEIGHT / 2);
      expect(b.y + b.height, name).toBeLessThanOrEqual(HEIGHT);
    }
    await request.getByRole('button', { name: 'Allow once', exact: true }).tap();
    await expect(transcript(page)).toContainText('Permission outcome: allow_once');
  });

  test('the composer stays on screen when the on-screen keyboard takes half the window', async ({ page, host }) => {
    await openApp(page, host.url());
    expect(await page.locator('meta[name="viewport"]').getAttribute('content')).toContain('interactive-widget=resizes-content');
    await sendByTap(page, 'before the keyboard');
    await messageBox(page).tap();
    // What resizes-content does when the keyboard opens: the layout viewport shrinks.
    await page.setViewportSize({ width: WIDTH, height: 420 });
    await expect(messageBox(page)).toBeInViewport();
    await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeInViewport();
    const send = await box(page.getByRole('button', { name: 'Send', exact: true }));
    expect(send.y + send.height).toBeLessThanOrEqual(420);
  });
});
