/**
 * A long answer streamed into the real window: Chromium on the headless host, long tasks
 * from PerformanceObserver('longtask'). This is the minimal version for the benchmark branch;
 * the streaming work (issue 10, renderer side) brings its own with the demo agent's
 * `/markdown KB RATE` and replaces this file.
 *
 * With `/markdown` (detected in the demo agent's command list) the lag is measured from the
 * moment a side client of the host received the last chunk to the frame in which the window
 * shows the turn over. Without it, `/pace N RATE` streams about KB kilobytes of short lines
 * whose text carries their send time, and the lag is exact: the last chunk's send time → the
 * frame in which the window shows it. Which one ran is reported in `source`.
 */
import type { Page } from '@playwright/test';
import { COMMAND_NAMES } from '../src/agents/demo/commands';
import type { SessionEventT } from '../src/shared/contract';
import { launchBrowser, newSession, openWindow, sendPrompt } from './lib/browser';
import { startHost } from './lib/host';
import { epochMs } from './lib/stats';

export interface StreamResult {
  lagMs: number;
  longestTaskMs: number;
  blockingMs: number;
}

/** Bytes of one `/pace` line (`pace 1234 1764140000000.123\n`). */
const PACE_LINE_BYTES = 28;
/** Time a long task may take before the rest counts as blocking (the TBT definition). */
const BLOCKING_THRESHOLD_MS = 50;

export const streamSource = (): 'markdown' | 'pace' => ((COMMAND_NAMES as readonly string[]).includes('markdown') ? 'markdown' : 'pace');

export async function measureStream({ kb, rate }: { kb: number; rate: number }): Promise<StreamResult> {
  const host = await startHost();
  const browser = await launchBrowser();
  try {
    const page = await openWindow(browser, host.serve.url);
    await newSession(page);
    await installProbes(page);
    const source = streamSource();
    const sessionId = await currentSessionId(page);
    await host.client.call('sessions:switch', { sessionId });
    // The side client sees each chunk a moment after the agent sent it: the fallback clock.
    let lastChunkAt = 0;
    let lastStamp = Number.NaN;
    const off = host.client.on((event, payload) => {
      const e = payload as SessionEventT;
      if (event !== 'session:event' || e.sessionId !== sessionId || e.kind !== 'agent_message') return;
      lastChunkAt = epochMs();
      const stamps = [...String(e.payload.text).matchAll(/pace \d+ (\d+\.\d{3})/g)];
      if (stamps.length > 0) lastStamp = Number(stamps.at(-1)![1]);
    });
    const streamMs = (kb * 1024 * 1000) / (rate * (source === 'pace' ? PACE_LINE_BYTES : 200));
    try {
      if (source === 'markdown') {
        await sendPrompt(page, `/markdown ${kb} ${rate}`);
        const endedAt = await withinDeadline(page.evaluate(() => (window as unknown as ProbeWindow).__probe.turnOver), streamMs);
        return await finish(page, (endedAt ?? epochMs()) - lastChunkAt);
      }
      const count = Math.max(1, Math.round((kb * 1024) / PACE_LINE_BYTES));
      // The agent's line, not the prompt `/pace N RATE` shown above it.
      await page.evaluate((n) => (window as unknown as ProbeWindow).__probe.watchFor(`pace ${n} \\d+\\.\\d{3}`), count);
      await sendPrompt(page, `/pace ${count} ${rate}`);
      const found = await withinDeadline(page.evaluate(() => (window as unknown as ProbeWindow).__probe.found), streamMs);
      if (!Number.isFinite(lastStamp)) throw new Error('stream: no /pace chunk reached a client of the host');
      // Where the lag is: the host (a client of it saw the last chunk) or the window.
      process.stderr.write(`  · last chunk reached a host client after ${(lastChunkAt - lastStamp).toFixed(1)} ms\n`);
      if (!found) return await finish(page, epochMs() - lastStamp);
      const sentAt = Number(/pace \d+ (\d+\.\d+)/.exec(found.text)?.[1]);
      if (!Number.isFinite(sentAt)) throw new Error(`stream: no send time in ${JSON.stringify(found.text)}`);
      return await finish(page, found.at - sentAt);
    } finally {
      off();
    }
  } finally {
    await browser.close();
    await host.stop();
  }
}

interface ProbeWindow {
  __probe: {
    tasks: number[];
    turnOver: Promise<number>;
    found: Promise<{ at: number; text: string }>;
    watchFor(pattern: string): void;
  };
}

/**
 * A window that falls minutes behind (today's renderer on long answers) would stall the whole
 * suite: after the stream's own duration plus this, the lag so far is reported as a lower bound.
 */
const MAX_BEHIND_MS = 45_000;

async function withinDeadline<T>(result: Promise<T>, streamMs: number): Promise<T | undefined> {
  let expire!: (value: undefined) => void;
  const deadline = new Promise<undefined>((resolve) => (expire = resolve));
  const timer = setTimeout(() => expire(undefined), streamMs + MAX_BEHIND_MS);
  const value = await Promise.race([result, deadline]);
  clearTimeout(timer);
  if (value === undefined) process.stderr.write(`  · the window was still behind ${MAX_BEHIND_MS / 1000} s after the stream: its lag is a lower bound\n`);
  return value;
}

async function currentSessionId(page: Page): Promise<string> {
  const id = await page.locator('nav[aria-label="Sessions"] [aria-current="page"]').getAttribute('data-session-id');
  if (!id) throw new Error('stream: no current session');
  return id;
}

async function finish(page: Page, lagMs: number): Promise<StreamResult> {
  const tasks = await page.evaluate(() => (window as unknown as ProbeWindow).__probe.tasks);
  return {
    lagMs,
    longestTaskMs: Math.max(0, ...tasks),
    blockingMs: tasks.reduce((sum, d) => sum + Math.max(0, d - BLOCKING_THRESHOLD_MS), 0),
  };
}

/**
 * In the page: long tasks from now on; when the Running status, once seen, goes away; and the
 * first frame whose transcript matches a pattern. Checked once per frame, cheaply. Plain
 * JavaScript in a string: the bundler that runs this file would rename helpers the page lacks.
 */
const PROBES = `(() => {
  const now = () => performance.timeOrigin + performance.now();
  const tasks = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) tasks.push(e.duration); }).observe({ type: 'longtask' });
  const running = () => [...document.querySelectorAll('[role="status"]')].some((el) => el.textContent === 'Running');
  const turnOver = new Promise((resolve) => {
    let seen = false;
    const tick = () => {
      if (running()) seen = true;
      else if (seen) return resolve(now());
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  let resolveFound;
  const found = new Promise((r) => (resolveFound = r));
  const watchFor = (pattern) => {
    const re = new RegExp(pattern);
    const tick = () => {
      const m = re.exec(document.querySelector('[role="log"]')?.textContent ?? '');
      if (m) return resolveFound({ at: now(), text: m[0] });
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  };
  window.__probe = { tasks, turnOver, found, watchFor };
})()`;

async function installProbes(page: Page): Promise<void> {
  await page.evaluate(PROBES);
}
