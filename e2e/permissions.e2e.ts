import type { Page } from '@playwright/test';
import { pendingPermissions } from './support/store';
import { expect, newSession, openApp, running, send, sidebar, test, transcript } from './support/fixtures';

const dialog = (page: Page, title: string) => page.getByRole('dialog', { name: title });

test.describe('permission requests always get an answer', () => {
  test('two tabs both show the request; the first answer wins and the other closes', async ({ page, context, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    await send(page, 'hello');
    await expect(transcript(page)).toContainText('Echo: hello');
    const other = await context.newPage();
    await openApp(other, host.url());
    await sidebar(other).getByRole('link', { name: /hello/ }).click();
    await expect(transcript(other)).toContainText('Echo: hello');

    await send(page, '/permission Edit config');
    await expect(dialog(page, 'Edit config')).toBeVisible();
    await expect(dialog(other, 'Edit config')).toBeVisible();
    // It shows the kind, the file it touches and the diff.
    await expect(dialog(other, 'Edit config')).toContainText(/edit/i);
    await expect(dialog(other, 'Edit config')).toContainText('greeting.txt');
    await expect(dialog(other, 'Edit config')).toContainText('+Hello, Switchboard');
    await dialog(other, 'Edit config').getByRole('button', { name: 'Allow once', exact: true }).click();

    await expect(dialog(page, 'Edit config')).toHaveCount(0);
    await expect(dialog(other, 'Edit config')).toHaveCount(0);
    await expect(transcript(page)).toContainText('Permission outcome: allow_once');
    await expect(running(page)).toHaveCount(0);
    const whole = await transcript(page).innerText();
    expect(whole.split('Permission outcome:').length - 1).toBe(1);
  });

  test('with no window watching, the request is denied at the deadline and the turn ends', async ({ page, context, host }) => {
    await host.restart(['--permission-timeout-ms', '1500']);
    await openApp(page, host.url());
    await newSession(page);
    await send(page, '/permission Delete build');
    await expect(dialog(page, 'Delete build')).toBeVisible();
    expect(pendingPermissions(host.dataDir)).toBe(1);
    await page.close();
    // Nobody watches now; a window opened before the deadline would (rightly) keep it waiting.
    await expect.poll(() => pendingPermissions(host.dataDir), { timeout: 10_000 }).toBe(0);

    const later = await context.newPage();
    await openApp(later, host.url());
    await sidebar(later).getByRole('link', { name: /permission Delete build/ }).click();
    await expect(transcript(later)).toContainText('Permission outcome: reject_once');
    await expect(transcript(later)).toContainText(/denied automatically/i);
    await expect(dialog(later, 'Delete build')).toHaveCount(0);
    await expect(running(later)).toHaveCount(0);
  });

  test('switching away and back shows the pending request again, and it can be answered', async ({ page, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    await send(page, '/permission Write notes');
    await expect(dialog(page, 'Write notes')).toBeVisible();

    await newSession(page);
    await expect(dialog(page, 'Write notes')).toHaveCount(0);
    await expect(sidebar(page).getByRole('link', { name: /permission Write notes/ })).toContainText('Waiting for permission');
    await expect(page).toHaveTitle(/^\(1\) /);

    await sidebar(page).getByRole('link', { name: /permission Write notes/ }).click();
    await expect(dialog(page, 'Write notes')).toBeVisible();
    await dialog(page, 'Write notes').getByRole('button', { name: 'Reject once', exact: true }).click();
    await expect(transcript(page)).toContainText('Permission outcome: reject_once');
    await expect(page).toHaveTitle('Switchboard');
  });
});
