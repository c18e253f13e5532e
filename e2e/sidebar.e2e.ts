import type { Page } from '@playwright/test';
import { expect, messageBox, newSession, openApp, send, sidebar, test, transcript } from './support/fixtures';
import { readStore } from './support/store';

const entries = (page: Page) => sidebar(page).getByRole('link');
const entry = (page: Page, title: RegExp) => sidebar(page).getByRole('link', { name: title });
const header = (page: Page) => page.locator('header.session-header');

/** Starts a session and sends `text`, waiting for the echo (the title follows the first prompt). */
async function sessionWith(page: Page, text: string): Promise<void> {
  await newSession(page);
  await send(page, text);
  await expect(transcript(page)).toContainText(`Echo: ${text}`);
}

/** Moves the pointer off the sidebar, onto the transcript. */
async function pointerAway(page: Page): Promise<void> {
  const box = await transcript(page).boundingBox();
  if (!box) throw new Error('no transcript on screen');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
}

test.describe('the sidebar', () => {
  test('orders by last activity, but holds still while the pointer is over it', async ({ page, host }) => {
    await openApp(page, host.url());
    await sessionWith(page, 'alpha first');
    await sessionWith(page, 'bravo first');
    await expect(entries(page).first()).toHaveAccessibleName(/bravo first/);

    // A prompt in the older session moves it to the top.
    await entry(page, /alpha first/).click();
    await pointerAway(page);
    await messageBox(page).focus();
    await send(page, 'alpha again');
    await expect(transcript(page)).toContainText('Echo: alpha again');
    await expect(entries(page).first()).toHaveAccessibleName(/alpha first/);

    // With the pointer over the list, activity elsewhere does not move the entries under it…
    await entry(page, /bravo first/).click();
    await entry(page, /bravo first/).hover();
    await messageBox(page).focus();
    await send(page, 'bravo again');
    await expect(transcript(page)).toContainText('Echo: bravo again');
    await expect(entries(page).first()).toHaveAccessibleName(/alpha first/);
    // …and the new order lands once it leaves.
    await pointerAway(page);
    await expect(entries(page).first()).toHaveAccessibleName(/bravo first/);
  });

  test('groups by working folder, collapsibly, and shows agent, state and time on each entry', async ({ page, host }) => {
    await openApp(page, host.url());
    await sessionWith(page, 'grouped one');
    const group = sidebar(page).getByRole('button', { name: /\(1\)$/ });
    await expect(group).toHaveAttribute('aria-expanded', 'true');
    await expect(entry(page, /grouped one/)).toContainText(/Demo agent|demo/i);
    await expect(entry(page, /grouped one/)).toContainText('Idle');
    await expect(entry(page, /grouped one/)).toContainText('just now');
    await group.click();
    await expect(group).toHaveAttribute('aria-expanded', 'false');
    await expect(entries(page)).toHaveCount(0);
    await group.click();
    await expect(entries(page)).toHaveCount(1);
  });

  test('the filter narrows by title, folder and agent as you type', async ({ page, host }) => {
    await openApp(page, host.url());
    await sessionWith(page, 'Release notes');
    await sessionWith(page, 'Fix flaky test');
    await sessionWith(page, 'release checklist');
    const filter = page.getByRole('searchbox', { name: 'Filter sessions' });
    await filter.fill('RELEASE');
    await expect(entries(page)).toHaveCount(2);
    await filter.fill('release check');
    await expect(entries(page)).toHaveCount(1);
    await expect(entries(page).first()).toHaveAccessibleName(/release checklist/);
    await filter.fill('no such session');
    await expect(entries(page)).toHaveCount(0);
    await expect(sidebar(page).getByRole('status')).toContainText('No session matches');
    await filter.press('Escape');
    await expect(entries(page)).toHaveCount(3);
  });

  test("rename: Enter saves, Escape cancels, and the agent's later titles do not replace the name", async ({ page, host }) => {
    await openApp(page, host.url());
    await sessionWith(page, 'to be renamed');
    await page.getByRole('button', { name: 'Rename' }).click();
    const name = page.getByRole('textbox', { name: 'Session name' });
    await expect(name).toBeFocused();
    await name.fill('Never mind');
    await name.press('Escape');
    await expect(header(page).getByRole('heading')).toHaveText('to be renamed');

    await page.getByRole('button', { name: 'Rename' }).click();
    await name.fill('Quarterly report');
    await name.press('Enter');
    await expect(header(page).getByRole('heading')).toHaveText('Quarterly report');
    await expect(entry(page, /Quarterly report/)).toBeVisible();

    await send(page, '/title Agent chose this');
    await expect(transcript(page)).toContainText(/title/i);
    await page.reload();
    await expect(header(page).getByRole('heading')).toHaveText('Quarterly report');
    await expect(entry(page, /Agent chose this/)).toHaveCount(0);
  });

  test('archive, restore and delete from the context menu', async ({ page, host }) => {
    await openApp(page, host.url());
    await sessionWith(page, 'keep me');
    await sessionWith(page, 'throw me away');

    await entry(page, /keep me/).click({ button: 'right' });
    const menu = page.getByRole('menu');
    await menu.getByRole('menuitem', { name: 'Archive' }).click();
    await expect(entry(page, /keep me/)).toHaveCount(0);
    const archived = sidebar(page).getByRole('button', { name: /Archived \(1\)/ });
    await expect(archived).toHaveAttribute('aria-expanded', 'false');
    await archived.click();
    await entry(page, /keep me/).click({ button: 'right' });
    await menu.getByRole('menuitem', { name: 'Restore' }).click();
    await expect(archived).toHaveCount(0);
    await expect(entry(page, /keep me/)).toBeVisible();

    await entry(page, /throw me away/).click({ button: 'right' });
    await menu.getByRole('menuitem', { name: /Delete/ }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText('throw me away');
    await confirm.getByRole('button', { name: 'Delete for good' }).click();
    await expect(entry(page, /throw me away/)).toHaveCount(0);
    await page.reload();
    await expect(entry(page, /keep me/)).toBeVisible();
    await expect(entries(page)).toHaveCount(1);
  });

  test('a draft is kept across switching, a reload and a host restart, and goes when sent', async ({ page, host }) => {
    await openApp(page, host.url());
    await sessionWith(page, 'draft target');
    await messageBox(page).fill('half a thought');
    const stored = () =>
      readStore(host.dataDir, (db) => (db.prepare(`SELECT text FROM drafts`).get() as { text: string } | undefined)?.text);
    await expect.poll(stored).toBe('half a thought');

    await sessionWith(page, 'elsewhere');
    await expect(messageBox(page)).toHaveValue('');
    await entry(page, /draft target/).click();
    await expect(messageBox(page)).toHaveValue('half a thought');

    await page.reload();
    await expect(messageBox(page)).toHaveValue('half a thought');

    // A new host is a new address (port and token): the session comes from the hash.
    const { hash } = new URL(page.url());
    await host.restart();
    await openApp(page, `${host.url()}${hash}`);
    await expect(messageBox(page)).toHaveValue('half a thought');
    await messageBox(page).press('Enter');
    await expect(transcript(page)).toContainText('Echo: half a thought');
    await expect.poll(stored).toBeUndefined();
  });

  test('the address carries the session: a new tab opens it directly, and Open in new window opens one', async ({ page, context, host }) => {
    await openApp(page, host.url());
    await sessionWith(page, 'addressed one');
    const addressed = new URL(page.url()).hash;
    expect(addressed).toMatch(/^#\/session\/[0-9a-f-]{36}$/);
    await sessionWith(page, 'addressed two');
    expect(new URL(page.url()).hash).not.toBe(addressed);

    const other = await context.newPage();
    await openApp(other, `${host.url()}${addressed}`);
    await expect(entry(other, /addressed one/)).toHaveAttribute('aria-current', 'page');
    await expect(transcript(other)).toContainText('Echo: addressed one');
    await other.close();

    const opened = context.waitForEvent('page');
    await entry(page, /addressed one/).click({ button: 'right' });
    await page.getByRole('menu').getByRole('menuitem', { name: 'Open in new window' }).click();
    const tab = await opened;
    await expect(entry(tab, /addressed one/)).toHaveAttribute('aria-current', 'page');
    expect(new URL(tab.url()).hash).toBe(addressed);
    await tab.close();
  });
});

test('each session keeps its scroll position while switching', async ({ page, host }) => {
  await openApp(page, host.url());
  await newSession(page);
  for (let i = 1; i <= 20; i++) await send(page, `line ${i} of a long talk`);
  await expect(transcript(page)).toContainText('Echo: line 20 of a long talk');
  const first = transcript(page).getByText('line 1 of a long talk', { exact: true });
  await expect(first).not.toBeInViewport();
  await transcript(page).evaluate((el) => el.scrollTo({ top: 0 }));
  await expect(first).toBeInViewport();

  await sessionWith(page, 'somewhere else');
  await entry(page, /line 1 of a long talk/).click();
  await expect(transcript(page)).toContainText('line 2 of a long talk');
  await expect(first).toBeInViewport();
  // A session never scrolled up opens at its newest message, as before.
  await entry(page, /somewhere else/).click();
  await expect(transcript(page).getByText('Echo: somewhere else')).toBeInViewport();
});
