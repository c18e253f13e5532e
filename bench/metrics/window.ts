/**
 * Window figures in Chromium on the headless host, timed inside the page:
 * first_paint_ms_100k — click a 100,000-event session in the sidebar → the frame in which its
 * last message is on screen (the page is reloaded before each click, so nothing is cached);
 * first_text_ms_new_session — with the agent already running, in a just-created session, the
 * Enter that sends a prompt → the frame in which the agent's first text is on screen.
 */
import type { Page } from '@playwright/test';
import { tempDataDir } from '../../e2e/support/serve';
import { launchBrowser, newSession, openWindow, sendPrompt } from '../lib/browser';
import { startHost } from '../lib/host';
import { seedSessions } from '../lib/seed';
import { median, medianOf } from '../lib/stats';
import type { BenchContext, BenchGroup, Metric } from '../lib/types';

/**
 * Resolves (in the page) with ms from the next `trigger` event to the first frame whose
 * transcript contains `needle` in an element on screen. A string, not a function: see
 * stream-window.ts.
 */
const armProbe = (trigger: 'click' | 'keydown', needle: string): string => `(() => {
  window.__probe = new Promise((resolve) => {
    let t0 = -1;
    document.addEventListener(${JSON.stringify(trigger)}, (e) => {
      if (t0 < 0 && (e.type === 'click' || e.key === 'Enter')) t0 = performance.now();
    }, { capture: true });
    const needle = ${JSON.stringify(needle)};
    const onScreen = () => {
      const log = document.querySelector('[role="log"]');
      if (!log || !(log.textContent ?? '').includes(needle)) return false;
      const walker = document.createTreeWalker(log, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (!(n.textContent ?? '').includes(needle)) continue;
        const r = n.parentElement.getBoundingClientRect();
        if (r.bottom > 0 && r.top < innerHeight && r.height > 0) return true;
      }
      return false;
    };
    const tick = () => (t0 >= 0 && onScreen() ? resolve(performance.now() - t0) : requestAnimationFrame(tick));
    requestAnimationFrame(tick);
  });
})()`;

const probeResult = (page: Page): Promise<number> => page.evaluate(() => (window as unknown as { __probe: Promise<number> }).__probe);

export const windowMetrics: BenchGroup = {
  names: ['first_paint_ms_100k', 'first_text_ms_new_session'],

  async run(ctx: BenchContext): Promise<Metric[]> {
    const metrics: Metric[] = [];
    const browser = await launchBrowser();
    try {
      if (ctx.wants('first_paint_ms_100k')) {
        const size = ctx.quick ? 10_000 : 100_000;
        const dir = tempDataDir();
        const [small, big] = seedSessions(dir.path, [30, size]);
        const host = await startHost([], dir.path);
        try {
          const page = await openWindow(browser, host.serve.url);
          const reps = ctx.quick ? 3 : 9;
          const entry = (id: string) => page.locator(`nav[aria-label="Sessions"] [data-session-id="${id}"]`);
          const { median: value } = await medianOf(2, reps, async () => {
            // Leave the big session, so the reloaded window does not open on it by itself.
            await entry(small!.id).click();
            await page.locator(`nav[aria-label="Sessions"] [aria-current="page"][data-session-id="${small!.id}"]`).waitFor();
            await page.reload();
            const link = entry(big!.id);
            await link.waitFor();
            if (await page.evaluate((text) => document.body.textContent?.includes(text), big!.lastText)) throw new Error('first paint: the big session is on screen before the click');
            await page.evaluate(armProbe('click', big!.lastText));
            await link.click();
            return probeResult(page);
          });
          metrics.push({ name: 'first_paint_ms_100k', value, unit: 'ms', target: 150, better: 'lower', detail: `${big!.events} events, page reloaded before each click, median of ${reps}` });
        } finally {
          await host.stop();
          dir.cleanup();
        }
      }
      if (ctx.wants('first_text_ms_new_session')) {
        const host = await startHost();
        try {
          const page = await openWindow(browser, host.serve.url);
          // The agent process is up before the measured sessions: "on a running agent".
          await newSession(page);
          const reps = ctx.quick ? 3 : 9;
          const ready: number[] = [];
          const { median: value } = await medianOf(2, reps, async () => {
            const t0 = performance.now();
            await newSession(page);
            ready.push(performance.now() - t0);
            // `/history` answers with text at once; a plain prompt's echo waits 20 ms by design.
            await page.evaluate(armProbe('keydown', 'History: '));
            await sendPrompt(page, '/history');
            return probeResult(page);
          });
          metrics.push({
            name: 'first_text_ms_new_session',
            value,
            unit: 'ms',
            target: 50,
            better: 'lower',
            detail: `Enter → first text, median of ${reps}; New session click → message box ready ${median(ready).toFixed(0)} ms (as driven over CDP)`,
          });
        } finally {
          await host.stop();
        }
      }
      return metrics;
    } finally {
      await browser.close();
    }
  },
};
