import { armProbe, probeTimes } from '../bench/lib/page-probes';
import { expect, messageBox, newSession, openApp, test } from './support/fixtures';

/** How long the broken-on-purpose run keeps the agent's text from being painted once it is in the page. */
const HIDDEN_MS = 400;

// The window figures of `npm run bench` (first text, first paint, reopen) stand on this probe: it
// must read the text's paint, and a paint that comes late must read late.
test.describe("the benchmark's paint probe (bench/lib/page-probes.ts)", () => {
  test('reads the paint of the first text after Enter', async ({ page, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    await armProbe(page, 'keydown', 'History: ');
    await messageBox(page).fill('/history');
    await messageBox(page).press('Enter');
    const t = await probeTimes(page);
    expect(t.paintedMs).toBeGreaterThan(0);
    expect(t.paintedMs).toBeLessThan(5_000);
    expect(t.nextFrameMs).toBeGreaterThan(0);
  });

  test('broken on purpose: text laid out on screen but not painted for a while reads that while', async ({ page, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    // The transcript keeps its place and size but is not painted until HIDDEN_MS after the
    // agent's text entered the page (however long the agent took to send it).
    await page.evaluate((hiddenMs) => {
      const style = document.createElement('style');
      style.textContent = '[role="log"] { visibility: hidden }';
      document.head.append(style);
      const seen = new MutationObserver(() => {
        if (!document.querySelector('[role="log"]')?.textContent?.includes('History: ')) return;
        seen.disconnect();
        setTimeout(() => style.remove(), hiddenMs);
      });
      seen.observe(document.body, { childList: true, subtree: true, characterData: true });
    }, HIDDEN_MS);
    await armProbe(page, 'keydown', 'History: ');
    await messageBox(page).fill('/history');
    await messageBox(page).press('Enter');
    const t = await probeTimes(page);
    expect(t.paintedMs).toBeGreaterThanOrEqual(HIDDEN_MS);
    // The frame-based reading (where the text's box is) cannot see it: it reads the frame after
    // the text came in, most of HIDDEN_MS before the paint. That is why it is not the figure.
    expect(t.paintedMs - t.nextFrameMs).toBeGreaterThan(HIDDEN_MS / 2);
  });

  test('fails rather than reads zero when the text never gets a paint of its own', async ({ page, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    await messageBox(page).fill('/history');
    await messageBox(page).press('Enter');
    await expect(page.getByRole('log', { name: 'Transcript' })).toContainText('History: ');
    // The text is already on screen: no element holding it is painted for the first time after the click.
    await armProbe(page, 'click', 'History: ');
    await page.getByRole('log', { name: 'Transcript' }).click();
    await expect(probeTimes(page)).rejects.toThrow(/Element Timing reported no paint/);
  });
});
