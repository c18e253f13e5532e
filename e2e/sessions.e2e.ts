import type { Page } from '@playwright/test';
import { demoAgents } from './support/processes';
import { expect, newSession, openApp, running, send, sidebar, test, transcript } from './support/fixtures';

const entry = (page: Page, title: RegExp) => sidebar(page).getByRole('link', { name: title });

test.describe('sessions never lose a message', () => {
  test('switching away mid-stream and back shows the stream still going', async ({ page, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    await send(page, 'first prompt');
    await expect(transcript(page)).toContainText('Echo: first prompt');
    await send(page, '/slow 3');
    await expect(transcript(page)).toContainText('tick 2');

    await newSession(page);
    await send(page, 'elsewhere');
    await expect(transcript(page)).toContainText('Echo: elsewhere');

    await entry(page, /first prompt/).click();
    await expect(transcript(page)).toContainText('Echo: first prompt');
    await expect(transcript(page)).toContainText('Done after 3s');
    await expect(running(page)).toHaveCount(0);
    await send(page, '/history');
    await expect(transcript(page)).toContainText('History: 2 earlier prompts');
  });

  test('a session whose agent crashed answers the next prompt with its history', async ({ page, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    await send(page, 'before the crash');
    await expect(transcript(page)).toContainText('Echo: before the crash');
    await send(page, '/crash');
    await expect(transcript(page).getByRole('note')).toContainText(/exited|code 1/i);
    await expect(running(page)).toHaveCount(0);
    // A crash is an error in the sidebar; the session still wakes on the next prompt.
    await expect(sidebar(page)).toContainText('Error');

    await send(page, '/history');
    await expect(transcript(page)).toContainText('History: 2 earlier prompts');
  });

  test('after a host restart the first prompt to an old session is answered with its history', async ({ page, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    await send(page, 'one');
    await expect(transcript(page)).toContainText('Echo: one');
    await send(page, 'two');
    await expect(transcript(page)).toContainText('Echo: two');

    await host.restart();
    expect(demoAgents(host.dataDir)).toEqual([]);
    await openApp(page, host.url());
    await entry(page, /one/).click();
    await expect(transcript(page)).toContainText('Echo: two');
    await send(page, '/history');
    await expect(transcript(page)).toContainText('History: 2 earlier prompts');
  });

  test('two tabs show one transcript in one order, and a cut socket catches up exactly', async ({ page, context, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    await send(page, 'shared start');
    await expect(transcript(page)).toContainText('Echo: shared start');

    const other = await context.newPage();
    await openApp(other, host.url());
    await entry(other, /shared start/).click();
    await expect(transcript(other)).toContainText('Echo: shared start');

    // Cut the second tab's socket while the first keeps talking.
    await other.evaluate(() => (window as unknown as { __switchboardDebug: { dropSocket(): void } }).__switchboardDebug.dropSocket());
    await send(page, 'while you were away');
    await expect(transcript(page)).toContainText('Echo: while you were away');
    await send(page, '/tool Inspect');
    await expect(transcript(page)).toContainText('Inspect');

    await expect(other.getByRole('alert', { name: /Connection lost/ })).toHaveCount(0);
    await expect(transcript(other)).toContainText('Echo: while you were away');
    await expect(transcript(other)).toContainText('Inspect');
    const texts = async (p: Page) => (await transcript(p).innerText()).replace(/\s+/g, ' ').trim();
    await expect.poll(async () => (await texts(other)) === (await texts(page))).toBe(true);
    const whole = await texts(other);
    expect(whole.split('Echo: while you were away').length - 1, 'no duplicates').toBe(1);
    expect(whole.indexOf('Echo: shared start')).toBeLessThan(whole.indexOf('Echo: while you were away'));
  });
});
