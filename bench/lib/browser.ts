/**
 * The real window in Chromium, served by the headless host: the only place window figures
 * can come from. Timings are taken inside the page (performance.now at the input event, a
 * requestAnimationFrame after the DOM shows the result), so the DevTools protocol's own
 * latency between the benchmark and the browser is not counted.
 */
import { chromium, type Browser, type Page } from '@playwright/test';
import { chromiumExecutable } from '../../e2e/support/browser';

export async function launchBrowser(): Promise<Browser> {
  const executablePath = chromiumExecutable();
  return chromium.launch({ headless: true, ...(executablePath ? { executablePath } : {}) });
}

/** Opens the window at the host's page URL and waits until it is usable. */
export async function openWindow(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(url);
  await page.getByRole('button', { name: 'New session' }).waitFor();
  await page.waitForFunction(() => [...document.querySelectorAll('button')].some((b) => b.textContent?.includes('New session') && !b.disabled));
  return page;
}

/**
 * New session as a person starts one (the dialog, its preselected agent and folder, Start) and
 * waits until the new session's message box takes input.
 */
export async function newSession(page: Page): Promise<void> {
  const current = page.locator('nav[aria-label="Sessions"] [aria-current="page"]');
  const before = await current.getAttribute('data-session-id').catch(() => null);
  await page.getByRole('button', { name: 'New session' }).click();
  const start = page.getByRole('dialog', { name: 'New session' }).getByRole('button', { name: 'Start' });
  await start.waitFor();
  await page.waitForFunction(() => {
    const button = [...document.querySelectorAll('[role="dialog"] button')].find((b) => b.textContent === 'Start');
    return button instanceof HTMLButtonElement && !button.disabled;
  });
  await start.click();
  await page.waitForFunction(
    (prev) => {
      const cur = document.querySelector('nav[aria-label="Sessions"] [aria-current="page"]');
      return cur !== null && cur.getAttribute('data-session-id') !== prev;
    },
    before,
  );
  await page.getByRole('combobox', { name: 'Message' }).waitFor();
}

/** Types a prompt and sends it with Enter, as a person does. */
export async function sendPrompt(page: Page, text: string): Promise<void> {
  const box = page.getByRole('combobox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
}
