/**
 * open_ms_10k_sessions — the window opened on a data folder of 10,000 sessions and 5,000,000
 * events (bench/lib/archive.ts): navigation start → the frame after the first one that shows a
 * session entry in the sidebar, median of reloads;
 * sidebar_scroll_longest_task_ms_10k — that sidebar scrolled from its first entry to its last,
 * one viewport a frame: the longest task meanwhile (the long-task observer proved first).
 */
import type { Browser, Page } from '@playwright/test';
import { archive, type Archive } from '../lib/archive';
import { launchBrowser } from '../lib/browser';
import { startHost } from '../lib/host';
import { longest, pageNow, proveLongTasks, tasksBetween } from '../lib/page-probes';
import { medianOf } from '../lib/stats';
import type { BenchContext, BenchGroup, Metric } from '../lib/types';

/** In every new document: the first frame with a session entry on screen, then the one after it. */
const FIRST_PAINT = `(() => {
  const tick = () => {
    if (window.__sidebarSeenAt !== undefined) {
      window.__sidebarPaintedAt = performance.now();
      return;
    }
    const entry = document.querySelector('nav[aria-label="Sessions"] [data-session-id]');
    if (entry) {
      const box = entry.getBoundingClientRect();
      if (box.height > 0 && box.bottom > 0 && box.top < innerHeight && (entry.textContent ?? '').trim() !== '') window.__sidebarSeenAt = performance.now();
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})()`;

async function firstPaint(page: Page): Promise<number> {
  await page.waitForFunction(() => (window as { __sidebarPaintedAt?: number }).__sidebarPaintedAt !== undefined, undefined, { timeout: 60_000 });
  return (await page.evaluate('window.__sidebarPaintedAt')) as number;
}

/** Scrolls the sidebar's list one viewport a frame until it stops moving. */
async function scrollSidebar(page: Page): Promise<{ frames: number; ms: number; height: number }> {
  return (await page.evaluate(
    `new Promise((resolve, reject) => {
      const nav = document.querySelector('nav[aria-label="Sessions"]');
      const all = [nav, ...nav.querySelectorAll('*')];
      const list = all.find((el) => el.scrollHeight > el.clientHeight + 1 && /(auto|scroll)/.test(getComputedStyle(el).overflowY));
      if (!list) return reject(new Error('the sidebar has nothing to scroll'));
      list.scrollTop = 0;
      const start = performance.now();
      let frames = 0;
      let still = 0;
      const step = () => {
        frames++;
        const before = list.scrollTop;
        list.scrollTop = before + list.clientHeight;
        still = list.scrollTop === before ? still + 1 : 0;
        if (still >= 5) return resolve({ frames, ms: performance.now() - start, height: list.scrollHeight });
        requestAnimationFrame(step);
      };
      requestAnimationFrame(step);
    })`,
  )) as { frames: number; ms: number; height: number };
}

export const OPEN_TARGET_MS = 300;
export const SCROLL_TARGET_MS = 50;

/** What `openAndScroll` measured: first paint of the sidebar on reloads, and its scroll. */
export interface OpenFigures {
  open: { median: number; all: number[] };
  scroll?: { longest: number; frames: number; ms: number; height: number; tasks: number; at: string[] };
}

/**
 * Opens the window at `url` in `browser` (first load unmeasured), reloads it `reps` times and
 * times each first sidebar paint; with `scroll`, then scrolls the sidebar top to bottom under
 * the long-task observer (proved before and after).
 */
export async function openAndScroll(browser: Browser, url: string, reps: number, scroll: boolean): Promise<OpenFigures> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  try {
    await page.addInitScript(FIRST_PAINT);
    const open = await medianOf(1, reps, async (rep) => {
      if (rep === -1) await page.goto(url);
      else await page.reload();
      return firstPaint(page);
    });
    if (!scroll) return { open };
    await proveLongTasks(page);
    // The whole list, not only the newest sessions shown first.
    await page.locator('nav[aria-label="Sessions"]:not([aria-busy])').waitFor({ timeout: 60_000 });
    const from = await pageNow(page);
    const scrolled = await scrollSidebar(page);
    const tasks = await tasksBetween(page, from, await pageNow(page));
    await proveLongTasks(page);
    // Where each long task fell (ms into the scroll): one at the start is the load's, spread ones the scroll's.
    const at = tasks.map((t) => `${Math.round(t.duration)} ms at ${Math.round(t.start - from)}`);
    return { open, scroll: { longest: longest(tasks), ...scrolled, tasks: tasks.length, at } };
  } finally {
    await page.close();
  }
}

export const archiveLabel = (data: Archive): string =>
  `${data.sessions.toLocaleString('en')} sessions, ${data.events.toLocaleString('en')} events (${Math.round(data.bytes / 2 ** 20)} MiB of payloads)`;

export const scrollDetail = (s: NonNullable<OpenFigures['scroll']>): string =>
  `top → bottom (${s.height.toLocaleString('en')} px) one viewport a frame, ${s.frames} frames in ${(s.ms / 1000).toFixed(1)} s, ${s.tasks} long tasks${s.at.length ? ` (${s.at.join(', ')})` : ''}`;

export const openArchive: BenchGroup = {
  names: ['open_ms_10k_sessions', 'sidebar_scroll_longest_task_ms_10k'],

  async run(ctx: BenchContext): Promise<Metric[]> {
    const sessions = ctx.quick ? 1_000 : 10_000;
    const eventsPerSession = 500;
    const data = archive({ name: `${sessions}x${eventsPerSession}`, sessions, eventsPerSession, backfill: false }, ctx.progress);
    const label = archiveLabel(data);
    const t0 = performance.now();
    const host = await startHost([], data.dataDir);
    const hostMs = performance.now() - t0;
    // Launched after the host, so its start does not share the start-up; one that cannot start stops the host.
    const browser = await launchBrowser().catch(async (err: unknown) => {
      await host.stop();
      throw err;
    });
    try {
      const reps = ctx.quick ? 3 : 7;
      const { open, scroll } = await openAndScroll(browser, host.serve.url, reps, ctx.wants('sidebar_scroll_longest_task_ms_10k'));
      const metrics: Metric[] = [
        {
          name: 'open_ms_10k_sessions',
          value: open.median,
          unit: 'ms',
          target: OPEN_TARGET_MS,
          better: 'lower',
          detail: `${label}; navigation → first sidebar entry painted, median of ${reps} loads (max ${Math.max(...open.all).toFixed(0)}); host start on it ${hostMs.toFixed(0)} ms`,
        },
      ];
      if (scroll) {
        metrics.push({ name: 'sidebar_scroll_longest_task_ms_10k', value: scroll.longest, unit: 'ms', target: SCROLL_TARGET_MS, better: 'lower', detail: `${label}; ${scrollDetail(scroll)}` });
      }
      return metrics;
    } finally {
      await browser.close();
      await host.stop();
    }
  },
};
