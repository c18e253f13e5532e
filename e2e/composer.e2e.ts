import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, messageBox, newSession, openApp, running, test, transcript } from './support/fixtures';

// 1×1 PNG: 68 bytes.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

const commands = (page: Page) => page.getByRole('listbox', { name: 'Commands' });
const toSend = (page: Page) => page.getByRole('list', { name: 'Attachments to send' });

test.describe('the composer sends more than text', () => {
  test('typing / offers the agent’s commands; arrows and Enter complete one, which then sends', async ({ page, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    const box = messageBox(page);
    await box.pressSequentially('/');
    await expect(box).toHaveAttribute('aria-expanded', 'true');
    const slow = commands(page).getByRole('option', { name: /\/slow/ });
    await expect(slow).toContainText('seconds');
    await expect(slow).toContainText('Stream a tick every 100 ms');

    // Filtered as you type: /p puts the commands that start with it first, in the agent's order
    // (/permission, /plan, /pace); commands that merely contain it follow.
    await box.pressSequentially('p');
    const starts = async () => (await commands(page).getByRole('option').allTextContents()).map((t) => t.split(' ')[0]).slice(0, 3);
    await expect.poll(starts).toEqual(['/permission', '/plan', '/pace']);
    await expect(commands(page).getByRole('option', { name: /\/permission/ })).toHaveAttribute('aria-selected', 'true');
    await box.press('ArrowDown');
    const plan = commands(page).getByRole('option', { name: /\/plan/ });
    await expect(plan).toHaveAttribute('aria-selected', 'true');
    await expect(box).toHaveAttribute('aria-activedescendant', (await plan.getAttribute('id')) ?? 'missing');
    await box.press('Enter');
    await expect(box).toHaveValue('/plan ');
    await expect(commands(page)).toHaveCount(0);
    await expect(box).toHaveAttribute('aria-expanded', 'false');

    await box.press('Enter');
    await expect(box).toHaveValue('');
    await expect(transcript(page).getByRole('region', { name: 'Plan' })).toBeVisible();
    await expect(running(page)).toHaveCount(0);

    // Escape closes the list and keeps what was typed.
    await box.pressSequentially('/sl');
    await expect(commands(page)).toBeVisible();
    await box.press('Escape');
    await expect(commands(page)).toHaveCount(0);
    await expect(box).toHaveValue('/sl');
  });

  test('images attached with the Attach button and by paste reach the agent and show as chips', async ({ page, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    await page.getByLabel('Attach files').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: PNG });
    await expect(toSend(page).getByRole('listitem')).toContainText('dot.png');
    await messageBox(page).fill('what is this?');
    await messageBox(page).evaluate((el, base64) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], 'pasted.png', { type: 'image/png' }));
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, PNG.toString('base64'));
    await expect(toSend(page).getByRole('listitem')).toHaveCount(2);
    // A paste of files leaves the typed text alone.
    await expect(messageBox(page)).toHaveValue('what is this?');
    await messageBox(page).press('Enter');
    await expect(toSend(page)).toHaveCount(0);
    await expect(transcript(page)).toContainText('Received image image/png 68 bytes; image image/png 68 bytes.');
    const chips = transcript(page).getByRole('list', { name: 'Attachments' });
    await expect(chips.getByRole('img', { name: 'dot.png' })).toBeVisible();
    await expect(chips.getByRole('img', { name: 'pasted.png' })).toBeVisible();
  });

  test('a text file dropped on the composer is embedded; one removed before sending is not sent', async ({ page, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    const drop = (name: string, text: string) =>
      messageBox(page).evaluate(
        (el, file) => {
          const data = new DataTransfer();
          data.items.add(new File([file.text], file.name, { type: file.name.endsWith('.bin') ? 'application/octet-stream' : 'text/plain' }));
          el.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
          el.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
        },
        { name, text },
      );
    // A file that cannot be attached says why and leaves what was typed alone.
    await messageBox(page).fill('keep me');
    await drop('blob.bin', 'a\u0000b');
    await expect(page.getByRole('alert')).toContainText('blob.bin is not a text file, an image or audio');
    await expect(messageBox(page)).toHaveValue('keep me');
    await drop('notes.txt', 'hello notes');
    await drop('other.txt', 'not this one');
    await expect(toSend(page).getByRole('listitem')).toHaveCount(2);
    await page.getByRole('button', { name: 'Remove other.txt' }).click();
    await expect(toSend(page).getByRole('listitem')).toHaveCount(1);
    await messageBox(page).press('Enter');
    await expect(transcript(page)).toContainText('Received resource attachment:///notes.txt (11 characters of text).');
    await expect(transcript(page)).toContainText('Echo: keep me');
    await expect(transcript(page)).not.toContainText('other.txt');
  });

  test('typing @ offers the session folder’s files; the chosen one is sent as a file', async ({ page, host }) => {
    const folder = join(host.dataDir, 'project');
    mkdirSync(join(folder, 'docs'), { recursive: true });
    writeFileSync(join(folder, 'docs', 'guide.md'), '# Guide\n');
    await openApp(page, host.url());
    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    await settings.getByLabel('Default working folder').fill(folder);
    await settings.getByRole('button', { name: 'Save' }).click();
    await expect(settings).toContainText('Saved');
    await settings.getByRole('button', { name: 'Done' }).click();
    await newSession(page);

    const box = messageBox(page);
    await box.pressSequentially('read @gui');
    const files = page.getByRole('listbox', { name: 'Files' });
    await expect(files.getByRole('option')).toHaveText(['docs/guide.md']);
    await box.press('Tab');
    await expect(box).toHaveValue('read @docs/guide.md ');
    await box.press('Enter');
    await expect(transcript(page)).toContainText(/Received resource file:\/\/\S+\/project\/docs\/guide\.md \(8 characters of text\)\./);
  });
});
