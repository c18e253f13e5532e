import type { Page } from '@playwright/test';
import { MARKDOWN_END } from '../src/agents/demo/markdown-doc';
import { expect, messageBox, newSession, openApp, send, sidebar, test, transcript } from './support/fixtures';

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** Every control of the window's frame is on screen and usable at this size. */
async function frameWorks(page: Page): Promise<void> {
  expect(await noSidewaysScroll(page)).toBe(true);
  for (const name of ['Sessions', 'New session', 'Session actions', 'Send']) {
    await expect(page.getByRole('button', { name, exact: true })).toBeInViewport();
  }
  await expect(page.getByRole('searchbox', { name: 'Search transcripts' })).toBeInViewport();
  await expect(messageBox(page)).toBeInViewport();
  await page.getByRole('button', { name: 'Sessions', exact: true }).click();
  await expect(sidebar(page).getByRole('link').first()).toBeInViewport();
  await page.keyboard.press('Escape');
}

test.describe('the window at any size (WCAG reflow)', () => {
  test('320 px wide: nothing scrolls sideways, nothing overlaps, every control is there; a table scrolls as a whole', async ({ page, host }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openApp(page, host.url());
    await newSession(page);
    await send(page, '/markdown 2 500');
    await expect(transcript(page)).toContainText(MARKDOWN_END);
    await expect(page.getByRole('button', { name: 'Stop' })).toHaveCount(0);
    await page.setViewportSize({ width: 320, height: 640 });
    await frameWorks(page);
    // The selects of the header are never wider than the window, and say their whole choice.
    const mode = page.getByRole('combobox', { name: 'Mode', exact: true });
    if (await mode.count()) {
      const width = await mode.evaluate((el) => el.getBoundingClientRect().right);
      expect(width).toBeLessThanOrEqual(320);
      expect(await mode.getAttribute('title')).toBeTruthy();
    }
    // No cell breaks its words into a letter a line.
    const cells = transcript(page).locator('td');
    if (await cells.count()) expect(await cells.first().evaluate((el) => el.getBoundingClientRect().width)).toBeGreaterThan(30);
  });

  test('200% zoom of a 1280×800 window (640×400 CSS px) loses no function', async ({ page, host }) => {
    await page.setViewportSize({ width: 640, height: 400 });
    await openApp(page, host.url());
    await send(page, 'zoomed in');
    await expect(transcript(page)).toContainText('Echo: zoomed in');
    await frameWorks(page);
  });

  test("the header's Mode select shows its whole label on a desktop", async ({ page, host }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openApp(page, host.url());
    await newSession(page);
    await send(page, '/mode bypass');
    const mode = page.getByRole('combobox', { name: 'Mode', exact: true });
    await expect(mode).toHaveAttribute('title', /⚠/);
    // field-sizing: the box fits the chosen label, so nothing is cut.
    const fits = await mode.evaluate((el: HTMLSelectElement) => {
      const probe = document.createElement('span');
      probe.style.font = getComputedStyle(el).font;
      probe.textContent = el.selectedOptions[0]?.text ?? '';
      document.body.append(probe);
      const need = probe.getBoundingClientRect().width;
      probe.remove();
      return el.getBoundingClientRect().width >= need;
    });
    expect(fits).toBe(true);
  });
});

test.describe('what the person asked the system for', () => {
  test('reduced motion: the running dot does not pulse', async ({ page, host }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await openApp(page, host.url());
    await newSession(page);
    await send(page, '/hang');
    const dot = sidebar(page).locator('.running-dot');
    await expect(dot).toBeVisible();
    expect(await dot.evaluate((el) => parseFloat(getComputedStyle(el).animationDuration))).toBeLessThan(0.01);
  });

  test('forced colours: the current session and the focused menu item are outlined, not only tinted', async ({ page, host }) => {
    await page.emulateMedia({ forcedColors: 'active' });
    await openApp(page, host.url());
    await newSession(page);
    await send(page, 'high contrast');
    const entry = sidebar(page).locator('[aria-current="page"]');
    expect(await entry.evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe('none');
    await entry.focus();
    await page.keyboard.press('Shift+F10');
    const item = page.getByRole('menuitem', { name: 'Open in new window' });
    await expect(item).toBeFocused();
    expect(await item.evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe('none');
  });
});
