/**
 * How well the real window keeps up with a long streamed answer: the built renderer, served
 * by `switchboard serve`, in headless Chromium, while the demo agent runs `/markdown KB RATE`.
 *
 * - lagMs: the agent's last chunk (stored by the host, `at` of the last message event) → the
 *   answer's last line painted in the window (the frame after it first appears in view).
 * - longestTaskMs / blockingMs: PerformanceObserver `longtask` entries (tasks over 50 ms) from
 *   the prompt to that moment: the longest, and the sum of their time over 50 ms (total
 *   blocking time). No long task at all gives 0 for both.
 *
 * `npm run bench` calls `measureStream`; run alone: `node --import tsx bench/stream-window.ts 100 200`.
 */
import { join } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { MARKDOWN_END } from '../src/agents/demo/markdown-doc';
import { chromiumExecutable } from '../e2e/support/browser';
import { startServe, tempDataDir } from '../e2e/support/serve';

export interface StreamWindowResult {
  lagMs: number;
  longestTaskMs: number;
  blockingMs: number;
}

const LONG_TASK_MS = 50;

declare global {
  interface Window {
    __streamBench?: { tasks: { start: number; duration: number }[]; from: number; seenAt?: number; paintedAt?: number };
  }
}

/**
 * Starts watching long tasks and, every frame, whether the answer's last line is in view. Plain
 * JavaScript in a string: tsx rewrites named functions with a helper the page does not have.
 */
const WATCH = `(end) => {
  const state = { tasks: [], from: performance.now() };
  window.__streamBench = state;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) state.tasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask' });
  const log = document.querySelector('[role="log"]');
  const check = () => {
    if (state.seenAt !== undefined) {
      // This frame runs after the one that showed the line was painted.
      state.paintedAt = performance.timeOrigin + performance.now();
      return;
    }
    const bubbles = log ? log.querySelectorAll('.row-agent .markdown') : [];
    const last = bubbles.length > 0 ? bubbles[bubbles.length - 1].lastElementChild : null;
    if (last && last.textContent.includes(end)) {
      const box = last.getBoundingClientRect();
      const view = log.getBoundingClientRect();
      if (box.top < view.bottom && box.bottom > view.top) state.seenAt = performance.now();
    }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}`;

function watch(page: Page, endText: string): Promise<void> {
  return page.evaluate(`(${WATCH})(${JSON.stringify(endText)})`) as Promise<void>;
}

/** When the host stored the last chunk of agent text: the agent sent it within the same tick. */
function lastChunkAt(dataDir: string): number {
  const db = new Database(join(dataDir, 'switchboard.db'), { readonly: true });
  try {
    const row = db.prepare(`SELECT max(at) AS at FROM events WHERE kind = 'agent_message'`).get() as { at: number | null };
    if (row.at === null) throw new Error('no agent message was stored');
    return row.at;
  } finally {
    db.close();
  }
}

export async function measureStream({ kb, rate }: { kb: number; rate: number }): Promise<StreamWindowResult> {
  const dir = tempDataDir();
  const serve = await startServe(dir.path);
  const executablePath = chromiumExecutable();
  const browser = await chromium.launch({
    ...(executablePath ? { executablePath } : {}),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(serve.url);
    await page.getByRole('button', { name: 'New session' }).click();
    const box = page.getByRole('combobox', { name: 'Message' });
    const running = page.getByRole('status').filter({ hasText: 'Running' });
    // Warm-up: the first turn pays for loading code paths, not for streaming.
    await box.fill('/markdown 2 1000');
    await box.press('Enter');
    await page.locator('.row-agent .markdown', { hasText: MARKDOWN_END }).first().waitFor({ timeout: 60_000 });
    await running.waitFor({ state: 'detached', timeout: 60_000 });
    // The measured answer gets a session of its own, so the warm-up's answer is not mistaken for it.
    await page.getByRole('button', { name: 'New session' }).click();
    await page.getByText('No messages yet').waitFor({ timeout: 30_000 });

    await watch(page, MARKDOWN_END);
    await box.fill(`/markdown ${kb} ${rate}`);
    await box.press('Enter');
    const timeout = 60_000 + ((kb * 1024) / 48 / rate) * 1000 * 20;
    await page.waitForFunction(() => window.__streamBench?.paintedAt !== undefined, undefined, { timeout, polling: 250 });
    await running.waitFor({ state: 'detached', timeout: 60_000 });
    const seen = await page.evaluate(() => window.__streamBench);
    if (!seen?.paintedAt) throw new Error('the answer never became visible');
    const tasks = seen.tasks.filter((t) => t.start >= seen.from);
    return {
      lagMs: Math.max(0, seen.paintedAt - lastChunkAt(dir.path)),
      longestTaskMs: tasks.reduce((m, t) => Math.max(m, t.duration), 0),
      blockingMs: tasks.reduce((sum, t) => sum + Math.max(0, t.duration - LONG_TASK_MS), 0),
    };
  } finally {
    await browser.close();
    await serve.stop();
    dir.cleanup();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [kb = 100, rate = 200] = process.argv.slice(2).map(Number);
  measureStream({ kb, rate }).then(
    (r) => console.log(JSON.stringify({ kb, rate, ...r, longTaskThresholdMs: LONG_TASK_MS })),
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
