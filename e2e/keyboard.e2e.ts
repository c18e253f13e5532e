import type { Page } from '@playwright/test';
import { expect, messageBox, newSession, newSessionDialog, openApp, running, sidebar, test, transcript } from './support/fixtures';

const current = (page: Page) => sidebar(page).locator('[aria-current="page"]');

/** Presses Tab until `name`d button has the focus (at most `limit` times): keyboard only. */
async function tabTo(page: Page, name: string, limit = 15): Promise<void> {
  const target = page.getByRole('button', { name, exact: true });
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`Tab never reached ${name}`);
}

/** New session from the keyboard: Enter on the button opens the dialog, Enter in it starts. */
async function startByKeyboard(page: Page): Promise<void> {
  await tabTo(page, 'New session');
  await page.keyboard.press('Enter');
  await expect(newSessionDialog(page)).toBeVisible();
  await expect(newSessionDialog(page).getByRole('button', { name: 'Start' })).toBeEnabled();
  await page.keyboard.press('Enter');
  await expect(newSessionDialog(page)).toHaveCount(0);
}

/** Types a prompt into the focused message box and sends it with Enter. */
async function typeAndSend(page: Page, text: string): Promise<void> {
  await expect(messageBox(page)).toBeFocused();
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
  await expect(messageBox(page)).toHaveValue('');
}

test.describe('by keyboard alone', () => {
  test('create, prompt, stop and switch sessions', async ({ page, host }) => {
    await openApp(page, host.url());
    await startByKeyboard(page);
    await expect(current(page)).toHaveCount(1);
    await typeAndSend(page, 'first by keyboard');
    await expect(transcript(page)).toContainText('Echo: first by keyboard');

    // Stop: Escape in the message box, and Ctrl+. anywhere.
    await typeAndSend(page, '/hang');
    await expect(running(page)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(running(page)).toHaveCount(0);
    await typeAndSend(page, '/hang');
    await expect(running(page)).toBeVisible();
    await page.keyboard.press('Control+.');
    await expect(running(page)).toHaveCount(0);

    await startByKeyboard(page);
    await expect(sidebar(page).getByRole('link')).toHaveCount(2);
    await typeAndSend(page, 'second by keyboard');
    await expect(transcript(page)).toContainText('Echo: second by keyboard');

    // Sidebar order: the second (latest activity) first. Ctrl+2 opens the other; Alt+arrows step.
    await page.keyboard.press('Control+2');
    await expect(current(page)).toHaveAccessibleName(/first by keyboard/);
    await page.keyboard.press('Alt+ArrowUp');
    await expect(current(page)).toHaveAccessibleName(/second by keyboard/);
    await page.keyboard.press('Alt+ArrowDown');
    await expect(current(page)).toHaveAccessibleName(/first by keyboard/);
    await page.keyboard.press('Control+1');
    await expect(current(page)).toHaveAccessibleName(/second by keyboard/);

    // Ctrl+J comes back to the message box from anywhere.
    await transcript(page).focus();
    await page.keyboard.press('Control+j');
    await expect(messageBox(page)).toBeFocused();
  });

  test('the quick switcher finds a session by title, folder or agent; Enter opens it', async ({ page, host }) => {
    await openApp(page, host.url());
    for (const text of ['apples and pears', 'bananas']) {
      await newSession(page);
      await typeAndSend(page, text);
      await expect(transcript(page)).toContainText(`Echo: ${text}`);
    }
    await page.keyboard.press('Control+k');
    const dialog = page.getByRole('dialog', { name: 'Switch session' });
    await expect(dialog).toBeVisible();
    await page.keyboard.type('PEARS');
    await expect(dialog.getByRole('option')).toHaveCount(1);
    await page.keyboard.press('Enter');
    await expect(dialog).toHaveCount(0);
    await expect(current(page)).toHaveAccessibleName(/apples and pears/);

    await page.keyboard.press('Control+k');
    await page.keyboard.type('demo');
    await expect(dialog.getByRole('option')).toHaveCount(2);
    await page.keyboard.press('ArrowDown');
    await expect(dialog.getByRole('option', { selected: true })).toContainText('apples and pears');
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(current(page)).toHaveAccessibleName(/apples and pears/);
  });

  test('the context menu opens with Shift+F10 and renames, all from the keyboard', async ({ page, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    await typeAndSend(page, 'menu by keys');
    await current(page).focus();
    await page.keyboard.press('Shift+F10');
    const menu = page.getByRole('menu');
    await expect(menu.getByRole('menuitem', { name: 'Open in new window' })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(menu.getByRole('menuitem', { name: 'Rename' })).toBeFocused();
    await page.keyboard.press('Enter');
    const name = page.getByRole('textbox', { name: 'Session name' });
    await expect(name).toBeFocused();
    await page.keyboard.type('Named by keys');
    await page.keyboard.press('Enter');
    await expect(current(page)).toHaveAccessibleName(/Named by keys/);
    await expect(page.getByRole('button', { name: 'Rename' })).toBeFocused();
  });

  test('? and the Keyboard shortcuts button show every shortcut', async ({ page, host }) => {
    await openApp(page, host.url());
    await page.getByRole('button', { name: 'Settings' }).focus();
    await page.keyboard.press('Shift+?');
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect(sheet).toBeVisible();
    for (const [what, keys] of [
      ['New session', 'Ctrl+N'],
      ['Switch session', 'Ctrl+K'],
      ['Search transcripts', 'Ctrl+Shift+F'],
      ['Stop the running turn', 'Ctrl+.'],
      ['Next session', 'Alt+↓'],
    ] as const) {
      await expect(sheet.getByRole('row', { name: new RegExp(what) })).toContainText(keys);
    }
    await page.keyboard.press('Escape');
    await expect(sheet).toHaveCount(0);
    // In a text field ? is a character.
    await messageBox(page).focus();
    await page.keyboard.type('?');
    await expect(messageBox(page)).toHaveValue('?');
    await expect(sheet).toHaveCount(0);
    await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
    await expect(sheet).toBeVisible();
  });
});
