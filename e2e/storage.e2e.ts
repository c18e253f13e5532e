/**
 * Issue 23, room to grow: Settings → Storage in the real window over `serve` shows what the
 * database holds, takes a backup, cleans up archived sessions after a count and a confirmation
 * (every window drops them), and asks for a compaction that the next start does.
 */
import type { Page } from '@playwright/test';
import { expect, newSession, openApp, send, sidebar, test, transcript } from './support/fixtures';

const storage = (page: Page) => page.getByRole('dialog', { name: 'Settings' }).getByRole('region', { name: 'Storage' });
const entry = (page: Page, name: RegExp) => sidebar(page).getByRole('link', { name });

async function sessionWith(page: Page, text: string): Promise<void> {
  await newSession(page);
  await send(page, text);
  await expect(transcript(page)).toContainText(`Echo: ${text}`);
}

async function openStorage(page: Page) {
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('dialog', { name: 'Settings' }).getByRole('tab', { name: 'Storage' }).click();
  const section = storage(page);
  await expect(section.getByText('Database', { exact: true })).toBeVisible();
  return section;
}

test('Settings → Storage: figures, Back up now, Clean up with a count and a confirmation, Compact at the next start', async ({ page, context, host }) => {
  await openApp(page, host.url());
  await sessionWith(page, 'keep me');
  await sessionWith(page, 'old news');
  await entry(page, /old news/).click({ button: 'right' });
  await page.getByRole('menu').getByRole('menuitem', { name: 'Archive' }).click();
  await expect(sidebar(page).getByRole('button', { name: /Archived \(1\)/ })).toBeVisible();
  const other = await context.newPage();
  await openApp(other, host.url());
  await expect(sidebar(other).getByRole('button', { name: /Archived \(1\)/ })).toBeVisible();

  const section = await openStorage(page);
  await expect(section).toContainText('2 sessions, 1 archived');
  await expect(section).toContainText('Search index');
  const largest = section.getByRole('table', { name: 'Largest sessions' });
  await expect(largest).toContainText('keep me');
  await expect(largest).toContainText(/old news.*\(archived\)/);

  await expect(section).toContainText('No backups yet.');
  await section.getByRole('button', { name: 'Back up now' }).click();
  await expect(section.getByRole('list', { name: 'Backups' }).getByRole('listitem')).toHaveCount(1);

  await section.getByRole('spinbutton', { name: /Delete archived sessions last used more than/ }).fill('0');
  await section.getByRole('button', { name: 'Clean up…' }).click();
  const confirm = section.getByRole('alertdialog', { name: 'Confirm clean-up' });
  await expect(confirm).toContainText('This deletes 1 archived session');
  await confirm.getByRole('button', { name: 'Delete 1 session' }).click();
  await expect(section.getByRole('status').filter({ hasText: 'Deleted 1 session.' })).toBeVisible();
  await expect(section).toContainText('1 session, 0 archived');
  // Every window drops it; the kept one stays.
  await expect(sidebar(other).getByRole('button', { name: /Archived/ })).toHaveCount(0);
  await expect(entry(other, /keep me/)).toBeVisible();

  await section.getByRole('button', { name: 'Compact' }).click();
  await expect(section.getByRole('status').filter({ hasText: 'Compaction asked for' })).toBeVisible();
  // serve cannot restart itself: no Restart now.
  await expect(section.getByRole('button', { name: 'Restart now' })).toHaveCount(0);

  await other.close();
  await host.restart();
  await openApp(page, host.url());
  const after = await openStorage(page);
  // The start compacted: nothing is asked for any more, and what was kept is there.
  await expect(after.getByRole('button', { name: 'Compact' })).toBeVisible();
  await expect(after).toContainText('1 session, 0 archived');
  await page.keyboard.press('Escape');
  await entry(page, /keep me/).click();
  await expect(transcript(page)).toContainText('Echo: keep me');
});
