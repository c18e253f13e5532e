import { expect, messageBox, newSession, openApp, running, send, sidebar, test, transcript } from './support/fixtures';

test.describe('a chat with the demo agent', () => {
  test('streams the reply to a prompt', async ({ page, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    await send(page, 'hello there');
    await expect(transcript(page).getByText('hello there', { exact: true })).toBeVisible();
    await expect(transcript(page)).toContainText('Echo: hello there');
    await expect(running(page)).toHaveCount(0);
    // The title follows the first prompt.
    await expect(sidebar(page).getByRole('link', { name: /hello there/ })).toBeVisible();
  });

  test('Stop ends a turn that would never end', async ({ page, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    await send(page, '/hang');
    await expect(running(page)).toBeVisible();
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect(running(page)).toHaveCount(0);
    await send(page, 'still here?');
    await expect(transcript(page)).toContainText('Echo: still here?');
  });

  test('keeps the transcript across a page reload', async ({ page, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    await send(page, 'remember me');
    await expect(transcript(page)).toContainText('Echo: remember me');
    await page.reload();
    await expect(transcript(page)).toContainText('Echo: remember me');
    await expect(transcript(page).getByText('remember me', { exact: true })).toBeVisible();
  });

  test('shows every session and transcript after the host restarts', async ({ page, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    await send(page, 'first session');
    await expect(transcript(page)).toContainText('Echo: first session');
    await newSession(page);
    await send(page, 'second session');
    await expect(transcript(page)).toContainText('Echo: second session');

    await host.restart();
    await openApp(page, host.url());
    await expect(sidebar(page).getByRole('link', { name: /first session/ })).toBeVisible();
    await sidebar(page).getByRole('link', { name: /first session/ }).click();
    await expect(transcript(page)).toContainText('Echo: first session');
    await sidebar(page).getByRole('link', { name: /second session/ }).click();
    await expect(transcript(page)).toContainText('Echo: second session');
  });

  test('two tabs on one session both see the reply stream live', async ({ page, context, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    await send(page, 'shared');
    await expect(transcript(page)).toContainText('Echo: shared');

    const other = await context.newPage();
    await openApp(other, host.url());
    await sidebar(other).getByRole('link', { name: /shared/ }).click();
    await expect(transcript(other)).toContainText('Echo: shared');

    await send(page, '/slow 2');
    await expect(running(other)).toBeVisible();
    await expect(transcript(other)).toContainText('tick');
    await expect(transcript(page)).toContainText('Done after 2s');
    await expect(transcript(other)).toContainText('Done after 2s');
    await expect(messageBox(other)).toBeEnabled();
  });

  test('a prompt keeps its row from Enter to stored: the row is not mounted again', async ({ page, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    // Marks the row of the prompt while it is being sent (the first one seen), before any later
    // task can replace it: a MutationObserver's callback runs before the next frame from the host.
    await page.evaluate(() => {
      const w = window as unknown as { sentRow?: Element; sentRowSeen?: boolean };
      const observer = new MutationObserver(() => {
        const row = document.querySelector('[role="log"] .row-user.is-pending');
        if (!row || w.sentRow) return;
        w.sentRow = row;
        observer.disconnect();
      });
      observer.observe(document.body, { childList: true, subtree: true });
    });
    await send(page, 'one row from start to end');
    await expect(transcript(page)).toContainText('Echo: one row from start to end');
    const stored = transcript(page).locator('.row-user', { hasText: 'one row from start to end' });
    await expect(stored).toHaveCount(1);
    await expect(stored).not.toHaveClass(/is-pending/);
    // The element shown while sending is the stored row's: same node, now without "Sending…".
    expect(await stored.evaluate((el) => (window as unknown as { sentRow?: Element }).sentRow === el)).toBe(true);
  });

  test('follows new rows and a growing answer at the bottom, and leaves a view scrolled up alone', async ({ page, host }) => {
    await page.setViewportSize({ width: 900, height: 560 });
    await openApp(page, host.url());
    await newSession(page);
    const log = transcript(page);
    const fromEnd = () => log.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    for (let i = 1; i <= 8; i++) {
      await send(page, `turn ${i} of a transcript taller than its window`);
      await expect(log).toContainText(`Echo: turn ${i} of a transcript`);
      await expect(running(page)).toHaveCount(0);
      // The newest row is in view: the log is at its end (within a pixel or two of rounding).
      await expect.poll(fromEnd).toBeLessThan(3);
    }
    expect(await log.evaluate((el) => el.scrollHeight > el.clientHeight * 1.5)).toBe(true);
    // An answer that grows in place (one bubble, line after line) stays in view as it grows.
    await send(page, '/markdown 6 200');
    await expect(running(page)).toHaveCount(0, { timeout: 30_000 });
    await expect.poll(fromEnd).toBeLessThan(3);
    // Scrolled up, the view stays where the person left it while more comes.
    await log.evaluate((el) => el.scrollTo({ top: 0 }));
    await expect.poll(() => log.evaluate((el) => el.scrollTop)).toBe(0);
    await send(page, 'one more while scrolled up');
    await expect(running(page)).toHaveCount(0);
    await page.waitForTimeout(300);
    expect(await log.evaluate((el) => el.scrollTop)).toBeLessThan(5);
    expect(await fromEnd()).toBeGreaterThan(200);
  });
});
