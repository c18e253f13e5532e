import { MARKDOWN_END } from '../src/agents/demo/markdown-doc';
import { expect, newSession, openApp, running, send, sidebar, test, transcript } from './support/fixtures';

/**
 * A long answer is virtualised inside its message: only the segments of blocks near the view
 * are in the page, the rest are empty boxes of their height, and scrolling brings any part
 * back, from its first line to its last.
 */
test.describe('a long Markdown answer', () => {
  test('keeps only the part near the view in the page, and shows every part when scrolled to', async ({ page, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    // 100 KB of dense Markdown: about 600 sections, 3,000 blocks, in one message.
    await send(page, '/markdown 100 2000 dense');
    const log = transcript(page);
    const answer = log.locator('.row-agent .markdown').last();
    await expect(answer).toContainText(MARKDOWN_END);
    await expect(running(page)).toHaveCount(0);

    // Far from the view, whole pages of segments are one empty box each; near it, segments are
    // shown or empty boxes on their own. Most of the answer (by height) is empty boxes.
    expect(await answer.locator('[data-page]').count()).toBeGreaterThan(1);
    expect(await answer.locator('[data-page]:empty').count()).toBeGreaterThan(0);
    expect(await answer.locator('[data-segment]:not(:empty)').count()).toBeGreaterThan(0);
    const share = await answer.evaluate((el) => {
      const empty = [...el.querySelectorAll('[data-page]:empty, [data-segment]:empty')];
      return empty.reduce((px, box) => px + box.getBoundingClientRect().height, 0) / el.getBoundingClientRect().height;
    });
    expect(share).toBeGreaterThan(0.5);
    const headings = await answer.locator('h3').count();
    expect(headings).toBeGreaterThan(0);
    expect(headings).toBeLessThan(200);
    const height = await log.evaluate((el) => el.scrollHeight);

    // Up to the first line, a viewport at a time, as a reader scrolls.
    await log.evaluate(async (el) => {
      for (let i = 0; i < 2000 && el.scrollTop > 0; i++) {
        el.scrollTop = Math.max(0, el.scrollTop - el.clientHeight);
        await new Promise((r) => requestAnimationFrame(r));
      }
    });
    await expect(answer.getByRole('heading', { name: /^1 / }).first()).toBeInViewport();
    // The middle is an empty box now (the last segments and the open block stay rendered);
    // the heights kept the list about as tall as it was. Segments never shown are estimated
    // from their text (estimateHeight); with the accessible styles (tables that scroll as a
    // whole, larger targets) the measured dense answer is about 20% taller than the estimate,
    // so the bound is 30%: the list must not collapse or balloon, not match to the pixel.
    await expect(answer.getByRole('heading', { name: /^300 / })).toHaveCount(0);
    expect(Math.abs((await log.evaluate((el) => el.scrollHeight)) - height)).toBeLessThan(height * 0.3);

    // And down to the last line again.
    await log.evaluate(async (el) => {
      for (let i = 0; i < 2000 && el.scrollTop + el.clientHeight < el.scrollHeight - 1; i++) {
        el.scrollTop += el.clientHeight;
        await new Promise((r) => requestAnimationFrame(r));
      }
    });
    await expect(answer.getByText(MARKDOWN_END)).toBeInViewport();
  });

  test('reopened, fills the window in its first frame, though only the newest segments are rendered at once', async ({ page, host }) => {
    // A tall window: one segment of the answer does not cover it, so the first frame needs several.
    await page.setViewportSize({ width: 1280, height: 2400 });
    await openApp(page, host.url());
    await newSession(page);
    await send(page, '/markdown 2 2000 mixed');
    await expect(transcript(page)).toContainText(MARKDOWN_END);
    await expect(running(page)).toHaveCount(0);
    await newSession(page);
    await send(page, '/markdown 200 2000 mixed');
    await expect(transcript(page)).toContainText(MARKDOWN_END);
    await expect(running(page)).toHaveCount(0);
    const entries = sidebar(page).locator('[data-session-id]');
    await expect(entries).toHaveCount(2);
    const answerId = await sidebar(page).locator('[aria-current="page"]').getAttribute('data-session-id');
    const other = sidebar(page).locator(`[data-session-id]:not([data-session-id="${answerId}"])`);
    await other.click();
    await page.reload();
    await expect(other).toHaveAttribute('aria-current', 'page');
    await expect(transcript(page)).toContainText(MARKDOWN_END);

    // Every frame from the click on: how much of the transcript's visible area empty boxes take,
    // and how many segments of the answer are rendered, once the answer's end is on screen.
    // Recording starts before the click (the page holds the promise), and is read after it.
    type Frames = { empty: number; shown: number }[];
    await page.evaluate(
      ({ answer, end }) => {
        (window as unknown as { reopenFrames: Promise<Frames> }).reopenFrames = new Promise<Frames>((resolve) => {
          const frames: Frames = [];
          const frame = (): void => {
            const log = document.querySelector('[role="log"]');
            const message = log?.querySelector('.row-agent .markdown');
            // The long answer (the other session's is 2 KB of text), its end shown.
            const text = message?.textContent ?? '';
            if (log && message && document.querySelector(`nav [aria-current="page"][data-session-id="${answer}"]`) && text.length > 4_000 && text.includes(end)) {
              const view = log.getBoundingClientRect();
              let empty = 0;
              for (const box of log.querySelectorAll('[data-page]:empty, [data-segment]:empty')) {
                const r = box.getBoundingClientRect();
                empty += Math.max(0, Math.min(r.bottom, view.bottom) - Math.max(r.top, view.top));
              }
              frames.push({ empty, shown: message.querySelectorAll('[data-segment]:not(:empty)').length });
            }
            if (frames.length < 3) requestAnimationFrame(frame);
            else resolve(frames);
          };
          requestAnimationFrame(frame);
        });
      },
      { answer: answerId, end: MARKDOWN_END },
    );
    await sidebar(page).locator(`[data-session-id="${answerId}"]`).click();
    const frames = await page.evaluate(() => (window as unknown as { reopenFrames: Promise<Frames> }).reopenFrames);
    // Full from the first frame on: no empty box in view, ever.
    expect(frames.map((f) => f.empty)).toEqual([0, 0, 0]);
    // More than one segment was needed to fill this window, and not the whole answer was rendered.
    expect(frames[0]!.shown).toBeGreaterThan(1);
    const segments = await transcript(page).locator('.row-agent .markdown').last().locator('[data-segment]').count();
    expect(frames[0]!.shown).toBeLessThan(segments);
  });
});
