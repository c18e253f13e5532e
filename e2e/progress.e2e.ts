import { expect, newSession, openApp, running, send, test, transcript } from './support/fixtures';

test.describe('visible progress and the agent log', () => {
  test('a running turn counts its seconds, Stop leaves a Stopped mark, and the Agent log shows the agent stderr', async ({ page, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    await send(page, '/slow 3');
    await expect(running(page)).toBeVisible();

    // The elapsed time ticks: it reads 1 s, then 2 s, while the turn runs.
    const elapsed = page.getByRole('timer');
    await expect(elapsed).toHaveText('· 1 s');
    await expect(elapsed).toHaveText('· 2 s');

    // A turn that ends by itself leaves no mark and no clock.
    await expect(transcript(page)).toContainText('Done after 3s');
    await expect(running(page)).toHaveCount(0);
    await expect(elapsed).toHaveCount(0);
    const stopped = transcript(page).getByRole('note').filter({ hasText: /^Stopped/ });
    await expect(stopped).toHaveCount(0);

    // One that is stopped does (a turn that would never end by itself).
    await send(page, '/hang');
    await expect(elapsed).toBeVisible();
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect(running(page)).toHaveCount(0);
    await expect(stopped).toHaveText('Stopped');

    await page.getByRole('button', { name: 'Agent log' }).click();
    const log = page.getByRole('region', { name: 'Agent log' });
    await expect(log).toBeVisible();
    // The demo agent prints this line to stderr when it starts.
    await expect(log.getByRole('log', { name: 'Agent output' })).toContainText('demo-agent ready');
    await log.getByRole('button', { name: 'Close' }).click();
    await expect(log).toHaveCount(0);
  });
});
