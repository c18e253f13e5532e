/**
 * The real window in Chromium, served by the headless host: the only place window figures
 * can come from. Timings are taken inside the page (performance.now at the input event, a
 * requestAnimationFrame after the DOM shows the result), so the DevTools protocol's own
 * latency between the benchmark and the browser is not counted. Sessions are started as a
 * person starts them: the New session dialog, its preselected agent and folder, Start.
 */
import { chromium, type Browser, type Page } from '@playwright/test';
import { chromiumExecutable } from '../../e2e/support/browser';

export async function launchBrowser(): Promise<Browser> {
  const executablePath = chromiumExecutable();
  return chromium.launch({
    headless: true,
    ...(executablePath ? { executablePath } : {}),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

/**
 * Opens the window at the host's page URL and waits until it is usable: booted (its message box
 * shows once the host's settings, sessions and recent folders are in) and New session enabled.
 * New session is enabled during the boot too, but a dialog opened then has no folder yet: on a
 * folder of 50,000 sessions the boot takes seconds.
 */
export async function openWindow(browser: Browser, url: string, init?: () => void): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  // Runs in the page before its own scripts (a probe of its WebSocket, say).
  if (init) await page.addInitScript(init);
  await page.goto(url);
  await page.getByRole('combobox', { name: 'Message' }).waitFor();
  await page.getByRole('button', { name: 'New session' }).waitFor();
  await page.waitForFunction(() => [...document.querySelectorAll('button')].some((b) => b.textContent?.includes('New session') && !b.disabled));
  return page;
}

const sidebarCurrent = (page: Page) => page.locator('nav[aria-label="Sessions"] [aria-current="page"]');

/** The id of the session the window shows (the sidebar's current entry). */
export async function currentSessionId(page: Page): Promise<string> {
  const id = await sidebarCurrent(page).getAttribute('data-session-id');
  if (!id) throw new Error('no current session in the sidebar');
  return id;
}

/**
 * New session as a person starts one (the dialog, its preselected agent and folder, Start);
 * waits until the dialog is gone, the new session is current and its message box takes input.
 * Resolves with the new session's id.
 */
export async function newSession(page: Page): Promise<string> {
  // Read at once: a locator would wait for a current entry that a fresh window does not have.
  const before = await page.evaluate(() => document.querySelector('nav[aria-label="Sessions"] [aria-current="page"]')?.getAttribute('data-session-id') ?? null);
  await page.getByRole('button', { name: 'New session' }).click();
  const dialog = page.getByRole('dialog', { name: 'New session' });
  const start = dialog.getByRole('button', { name: 'Start' });
  await start.waitFor();
  // The dialogs are native <dialog>s opened modal (no role attribute); older ones had role="dialog".
  await page
    .waitForFunction(() => {
      const button = [...document.querySelectorAll('dialog[open] button, [role="dialog"] button')].find((b) => b.textContent === 'Start');
      return button instanceof HTMLButtonElement && !button.disabled;
    })
    .catch(async (err: unknown) => {
      // The button's title says why it is disabled: that is what the failure must say.
      throw new Error(`New session: Start stayed disabled (${(await start.getAttribute('title').catch(() => null)) ?? 'no reason given'}): ${err instanceof Error ? err.message : String(err)}`);
    });
  await start.click();
  await dialog.waitFor({ state: 'detached' });
  await page.waitForFunction(
    (prev) => {
      const cur = document.querySelector('nav[aria-label="Sessions"] [aria-current="page"]');
      return cur !== null && cur.getAttribute('data-session-id') !== prev;
    },
    before,
  );
  await page.getByRole('combobox', { name: 'Message' }).waitFor();
  return currentSessionId(page);
}

/** Types a prompt and sends it with Enter, as a person does. */
export async function sendPrompt(page: Page, text: string): Promise<void> {
  const box = page.getByRole('combobox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
}

/** Clicks a session in the sidebar and waits until it is the current one. */
export async function openSession(page: Page, sessionId: string): Promise<void> {
  await page.locator(`nav[aria-label="Sessions"] [data-session-id="${sessionId}"]`).click();
  await page.locator(`nav[aria-label="Sessions"] [aria-current="page"][data-session-id="${sessionId}"]`).waitFor();
}

/** Waits until no turn runs in the current session. */
export async function turnOver(page: Page, timeoutMs = 60_000): Promise<void> {
  await page.getByRole('status').filter({ hasText: 'Running' }).waitFor({ state: 'detached', timeout: timeoutMs });
}
