import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { startServe, tempDataDir, type ServeProcess } from './serve';

export interface HostFixture {
  dataDir: string;
  current: ServeProcess;
  url(): string;
  /** Stops `serve` (SIGTERM) and starts a new one on the same data dir. */
  restart(extraArgs?: string[]): Promise<ServeProcess>;
}

/** `host`: a real `switchboard serve` on a temp data dir, per test. Options via `serveArgs`. */
export const test = base.extend<{ serveArgs: string[]; host: HostFixture; contractGuard: void }>({
  serveArgs: [[], { option: true }],
  // Every page checks what the host answers and pushes against the contract (api/contract-check.ts)
  // and logs a violation: any spec whose pages logged one fails, naming it.
  contractGuard: [
    async ({ context }, use) => {
      const violations: string[] = [];
      context.on('console', (message) => {
        if (message.text().includes('does not match the contract')) violations.push(message.text());
      });
      await use();
      expect(violations, 'answers or events that break the contract').toEqual([]);
    },
    { auto: true },
  ],
  host: async ({ serveArgs }, use) => {
    const dir = tempDataDir();
    const fixture: HostFixture = {
      dataDir: dir.path,
      current: await startServe(dir.path, serveArgs),
      url: () => fixture.current.url,
      async restart(extraArgs = serveArgs) {
        await fixture.current.stop();
        fixture.current = await startServe(dir.path, extraArgs);
        return fixture.current;
      },
    };
    await use(fixture);
    const code = await fixture.current.stop();
    dir.cleanup();
    expect(code, `serve should exit cleanly; its stderr:\n${fixture.current.stderr()}`).toBe(0);
  },
});

export { expect };

export const transcript = (page: Page) => page.getByRole('log', { name: 'Transcript' });
export const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Sessions' });
export const messageBox = (page: Page) => page.getByRole('combobox', { name: 'Message' });

export async function openApp(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.getByRole('button', { name: 'New session' })).toBeEnabled();
}

export const newSessionDialog = (page: Page) => page.getByRole('dialog', { name: 'New session' });

/**
 * Starts a session through the New session dialog (the agent and folder it preselects unless
 * given) and waits until the window shows it.
 */
export async function newSession(page: Page, choice: { agent?: string; folder?: string } = {}): Promise<void> {
  const before = await sidebar(page).getByRole('link').count();
  await page.getByRole('button', { name: 'New session' }).click();
  const dialog = newSessionDialog(page);
  if (choice.agent !== undefined) await dialog.getByRole('combobox', { name: 'Agent' }).selectOption({ label: choice.agent });
  if (choice.folder !== undefined) await dialog.getByRole('textbox', { name: 'Folder' }).fill(choice.folder);
  await dialog.getByRole('button', { name: 'Start' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(sidebar(page).locator('[aria-current="page"]')).toHaveCount(1);
  await expect.poll(() => sidebar(page).getByRole('link').count()).toBeGreaterThan(before);
  // Its transcript, or what stands in its place when the agent needs a sign-in (which may come first).
  await expect(transcript(page).or(page.getByRole('region', { name: 'Sign in' })).filter({ visible: true }).first()).toBeVisible();
}

export async function send(page: Page, text: string): Promise<void> {
  await messageBox(page).fill(text);
  await messageBox(page).press('Enter');
  await expect(messageBox(page)).toHaveValue('');
}

/** Code blocks are highlighted lazily: waits until every one that names a language is. */
export async function codeHighlighted(answer: Locator): Promise<void> {
  await expect(answer.locator('pre > code[class*="language-"]:not(.hljs)')).toHaveCount(0);
}

export const running = (page: Page) => page.getByRole('status').filter({ hasText: 'Running' });
