import type { Locator, Page } from '@playwright/test';
import { expect, messageBox, newSession, openApp, send, sidebar, test, transcript } from './support/fixtures';

/** Whether the focus is inside `box` (the focused element, or the box itself). */
const focusInside = (box: Locator) => box.evaluate((el) => el.contains(document.activeElement));

/**
 * Tab and Shift+Tab, each more times than the dialog has stops: the focus never leaves it, and
 * going all the way round comes back to where it started.
 */
async function expectTrapped(page: Page, dialog: Locator): Promise<void> {
  await expect.poll(() => focusInside(dialog)).toBe(true);
  const stops = await dialog.evaluate(
    (el) =>
      [...el.querySelectorAll<HTMLElement>('a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])')].filter(
        (e) => e.getClientRects().length > 0,
      ).length,
  );
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let i = 0; i < stops + 2; i++) {
      await page.keyboard.press(key);
      expect(await focusInside(dialog), `${key} #${i + 1} left the dialog`).toBe(true);
    }
  }
}

/** Focuses `opener`, opens the dialog with `key`, checks the trap, closes with Escape: the focus is back on the opener. */
async function checkDialog(page: Page, opener: Locator, key: string, dialog: Locator): Promise<void> {
  await opener.focus();
  await page.keyboard.press(key);
  await expect(dialog).toBeVisible();
  await expectTrapped(page, dialog);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();
}

test.describe('dialogs keep the focus and give it back', () => {
  test('New session, Settings, Switch session, the shortcuts sheet, Export and the Delete confirmation', async ({ page, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    await send(page, 'focus me');
    await expect(transcript(page)).toContainText('Echo: focus me');

    await checkDialog(page, page.getByRole('button', { name: 'New session' }), 'Enter', page.getByRole('dialog', { name: 'New session' }));
    await checkDialog(page, page.getByRole('button', { name: 'Settings' }), 'Enter', page.getByRole('dialog', { name: 'Settings' }));
    await checkDialog(page, messageBox(page), 'Control+k', page.getByRole('dialog', { name: 'Switch session' }));
    await checkDialog(page, page.getByRole('button', { name: 'Keyboard shortcuts' }), 'Enter', page.getByRole('dialog', { name: 'Keyboard shortcuts' }));
    await checkDialog(page, page.getByRole('button', { name: 'Export…' }), 'Enter', page.getByRole('dialog', { name: 'Export session' }));
    const confirm = page.getByRole('alertdialog');
    await checkDialog(page, page.getByRole('button', { name: 'Delete', exact: true }), 'Enter', confirm);
    // The confirmation opens on Cancel: Enter pressed by habit deletes nothing.
    await page.getByRole('button', { name: 'Delete', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(confirm).toHaveCount(0);
    await expect(sidebar(page).getByRole('link')).toHaveCount(1);
  });

  test('the page behind a dialog is inert: the window shortcuts wait until it closes', async ({ page, host }) => {
    await openApp(page, host.url());
    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    await expect(settings).toBeVisible();
    await page.keyboard.press('Control+k');
    await expect(page.getByRole('dialog', { name: 'Switch session' })).toHaveCount(0);
    // A press beside the dialog closes it like Escape.
    await page.mouse.click(5, 5);
    await expect(settings).toHaveCount(0);
  });

  test("a sidebar entry's menu: arrows wrap, Home and End, letters jump, Escape gives the focus back", async ({ page, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    await send(page, 'menu keys');
    const entry = sidebar(page).locator('[aria-current="page"]');
    await entry.focus();
    await page.keyboard.press('Shift+F10');
    const menu = page.getByRole('menu');
    const item = (name: string) => menu.getByRole('menuitem', { name });
    await expect(item('Open in new window')).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await expect(item('Delete…')).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(item('Open in new window')).toBeFocused();
    await page.keyboard.press('End');
    await expect(item('Delete…')).toBeFocused();
    await page.keyboard.press('Home');
    await page.keyboard.press('a');
    await expect(item('Archive')).toBeFocused();
    // Letters typed together are one word ("ar" would match nothing); End starts a new one, and it wraps.
    await page.keyboard.press('End');
    await page.keyboard.press('r');
    await expect(item('Rename')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(menu).toHaveCount(0);
    await expect(entry).toBeFocused();
    // Tab closes it too, back on the entry.
    await page.keyboard.press('ContextMenu');
    await expect(item('Open in new window')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(menu).toHaveCount(0);
    await expect(entry).toBeFocused();
  });
});
