/**
 * Issue 23, when something goes wrong anyway: an error nothing catches in the real `serve`
 * (a preload throws one on SIGUSR2) is logged to a crash log, every window says so and copies
 * the log's text with Copy details; too many in a minute and serve exits 70, and the next start
 * says it restarted.
 */
import type { Page } from '@playwright/test';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, newSession, openApp, send, test, transcript } from './support/fixtures';
import { startServe, tempDataDir, type ServeProcess } from './support/serve';

const preload = resolve(import.meta.dirname, 'support/throw-on-signal.mjs');
const banner = (page: Page) => page.getByRole('alert', { name: 'Unexpected error' });

test('an uncaught error: every window says the host went on, and Copy details copies the redacted crash log', async ({ page, context }) => {
  const dir = tempDataDir();
  let serve: ServeProcess | undefined;
  try {
    serve = await startServe(dir.path, [], { NODE_OPTIONS: `--import ${preload}` });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: serve.origin });
    await openApp(page, serve.url);
    await newSession(page);
    await send(page, 'hello before the error');
    await expect(transcript(page)).toContainText('Echo: hello before the error');

    serve.child.kill('SIGUSR2');
    await expect(banner(page)).toContainText('Switchboard hit an unexpected error (Error: e2e: thrown on SIGUSR2 (1))');
    await expect(banner(page)).toContainText('and went on');
    // The host went on: the session still answers.
    await send(page, 'still there?');
    await expect(transcript(page)).toContainText('Echo: still there?');

    await banner(page).getByRole('button', { name: 'Copy details' }).click();
    await expect(banner(page).getByRole('status')).toContainText(/Copied \(crash-.*\.log\)/);
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain('Switchboard crash log');
    expect(copied).toMatch(/versions: Switchboard \S+, Node /);
    expect(copied).toContain('error: Error: e2e: thrown on SIGUSR2 (1)');
    expect(copied).toContain('hello before the error');
    expect(copied).not.toContain(serve.token);

    // A window opened afterwards is told too (host:info), and Dismiss hides it.
    const later = await context.newPage();
    await openApp(later, serve.url);
    await expect(banner(later)).toContainText('e2e: thrown on SIGUSR2 (1)');
    await banner(later).getByRole('button', { name: 'Dismiss' }).click();
    await expect(banner(later)).toHaveCount(0);
    expect(await serve.stop()).toBe(0);
  } finally {
    if (serve) await serve.stop();
    dir.cleanup();
  }
});

test('errors faster than five a minute: serve exits 70, and the next start says it restarted', async ({ page }) => {
  const dir = tempDataDir();
  let serve: ServeProcess | undefined;
  try {
    serve = await startServe(dir.path, [], { NODE_OPTIONS: `--import ${preload}` });
    const exited = new Promise<number | null>((r) => serve!.child.once('exit', (code) => r(code)));
    // One at a time (signals sent together may arrive as one): each leaves its crash log.
    const crashLogs = () => readdirSync(join(dir.path, 'logs')).filter((n) => n.startsWith('crash-')).length;
    for (let i = 1; i <= 6; i++) {
      serve.child.kill('SIGUSR2');
      await expect.poll(crashLogs).toBe(i);
    }
    expect(await exited).toBe(70);
    expect(serve.stderr()).toContain('too many unexpected errors');

    serve = await startServe(dir.path);
    await openApp(page, serve.url);
    await expect(banner(page)).toContainText('Switchboard restarted after an unexpected error (Error: e2e: thrown on SIGUSR2 (6))');
    expect(await serve.stop()).toBe(0);
  } finally {
    if (serve) await serve.stop();
    dir.cleanup();
  }
});
