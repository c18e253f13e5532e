import { seedSessions } from '../bench/lib/seed';
import { startServe } from './support/serve';
import { expect, openApp, sidebar, test, transcript } from './support/fixtures';

const NEEDLE = 'quokkafjord';
const EVENTS = 100_002;
/** Turn 400 of 33,334: its answer is event 1,200, about 98,800 events before the newest. */
const NEEDLE_TURN = 399;

/**
 * Search over a transcript far longer than any page: the hit is found in SQLite's index and
 * opened on the page around it, not by loading the transcript up to it.
 */
test.describe('transcript search', () => {
  test('finds a word deep in a 100,000-event transcript and opens the session scrolled to it', async ({ page, host }) => {
    test.setTimeout(180_000);
    await host.current.stop();
    const [long] = seedSessions(host.dataDir, [EVENTS, 30], (session, turn) =>
      session === 0 && turn === NEEDLE_TURN ? `The ${NEEDLE} migration plan, step by step.` : undefined,
    );
    host.current = await startServe(host.dataDir);
    await openApp(page, host.url());

    const box = page.getByRole('searchbox', { name: 'Search transcripts' });
    await expect(box).toHaveAttribute('id', 'search-transcripts');
    await box.fill(NEEDLE);
    const results = page.getByRole('region', { name: 'Search results' });
    const group = results.getByRole('region', { name: long!.title });
    await expect(group).toBeVisible();
    await expect(group.locator('mark')).toHaveText([NEEDLE]);
    await expect(results.getByRole('button')).toHaveCount(1);

    await group.getByRole('button', { name: new RegExp(NEEDLE) }).click();
    await expect(sidebar(page).locator('[aria-current="page"]')).toContainText(long!.title);
    const hit = transcript(page).locator('[data-search-target]');
    await expect(hit).toContainText(`The ${NEEDLE} migration plan`);
    await expect(hit).toBeInViewport();
    // Only the page around the hit was loaded: the newest message is not in the DOM.
    await expect(transcript(page)).not.toContainText(long!.lastText);

    await page.getByRole('button', { name: 'Jump to latest' }).click();
    await expect(transcript(page).getByText(long!.lastText)).toBeInViewport();
    await expect(page.getByRole('button', { name: 'Jump to latest' })).toHaveCount(0);
  });

  test('searches text that looks like query syntax as text, and says when nothing matches', async ({ page, host }) => {
    await openApp(page, host.url());
    const box = page.getByRole('searchbox', { name: 'Search transcripts' });
    await box.fill('NEAR( "unclosed * OR');
    await expect(page.getByRole('region', { name: 'Search results' }).getByText('No matches.')).toBeVisible();
    await box.press('Escape');
    await expect(box).toHaveValue('');
  });
});
