/**
 * How well the real window keeps up with a long streamed answer: the built renderer, served
 * by `switchboard serve`, in headless Chromium, while the demo agent runs
 * `/markdown KB RATE PROFILE [CHARS]` in a session started through the New session dialog.
 *
 * - lagMs: the agent's own send time of the last chunk (`_meta` of that chunk, the agent's
 *   wall clock) → the frame after the one that showed the answer's last line on screen (the
 *   page's wall clock; same machine, same clock). A negative lag is a clock error and fails
 *   the measurement; it is never clamped to 0.
 * - longestTaskMs / blockingMs: long tasks (over 50 ms) from the prompt to that frame: the
 *   longest, and the sum of their time over 50 ms (total blocking time). The observer proves
 *   itself first (page-probes.ts): a page whose observer reports nothing fails the measurement.
 * - with `after`: the finished answer reopened in a reloaded window (click → its last line
 *   painted), scrolled from its first line to its last one viewport a frame (the longest task
 *   meanwhile), and the page's heap after a full GC.
 *
 * `npm run bench` calls `measureStream`; run alone:
 * `node --import tsx bench/stream-window.ts dense 100 200 [CHARS] [--after] [--trace=FILE.json]`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { denseMarkdownDocument } from '../src/agents/demo/dense-doc';
import { MARKDOWN_END, markdownDocument } from '../src/agents/demo/markdown-doc';
import { SENT_AT_META, type MarkdownProfile } from '../src/agents/demo/markdown-turn';
import { startServe, tempDataDir } from '../e2e/support/serve';
import { launchBrowser, newSession, openSession, openWindow, sendPrompt, turnOver } from './lib/browser';
import { armProbe, blocking, END_ON_SCREEN, endPainted, longest, pageHeap, pageNow, probeTimes, proveLongTasks, tasksBetween, watchEnd, type LongTask, type ProbeTimes } from './lib/page-probes';

export interface StreamSpec {
  profile: MarkdownProfile;
  kb: number;
  rate: number;
  /** Fixed chunk size; the profile's own chunking when undefined. */
  chars?: number | undefined;
}

export interface AfterStream {
  /** Click on the finished answer's session in a reloaded window → its last line painted. */
  reopenMs: number;
  /** The start of the frame after the reopened answer's paint (how it was timed until stop 31). */
  reopenNextFrameMs: number;
  /** Scrolling up from the end to the answer's first line (older pages load on the way). */
  upMs: number;
  /** Clicks on "Load older messages" it took, where scrolling alone loaded nothing more. */
  upClicks: number;
  upLongestTaskMs: number;
  upLongTasks: number;
  /** Scrolling the answer from its first line to its last, one viewport a frame. */
  scrollLongestTaskMs: number;
  scrollLongTasks: number;
  scrollFrames: number;
  scrollMs: number;
  heapAfterGcBytes: number;
  heapBeforeGcBytes: number;
}

export interface StreamResult {
  lagMs: number;
  longestTaskMs: number;
  blockingMs: number;
  longTasks: number;
  /** Prompt → last line painted, in seconds. */
  seconds: number;
  after?: AfterStream;
}

export interface StreamOptions {
  after?: boolean;
  /** Writes a CPU profile of the page during the stream (DevTools .cpuprofile) to this file. */
  cpuProfile?: string;
  /** Writes a CPU profile of the page while the finished answer is reopened (with `after`). */
  reopenProfile?: string;
  /** Writes a Chrome trace (as `trace`) of the page while the finished answer is reopened (with `after`). */
  reopenTrace?: string;
  /** Writes a Chrome trace (devtools.timeline: style, layout, paint, scripts) of the stream to this file. */
  trace?: string;
  /** Environment for `serve` (e.g. SWITCHBOARD_RENDERER_DIR for a profiling build). */
  env?: NodeJS.ProcessEnv;
  /** Where each step starts (progress lines). */
  log?: (message: string) => void;
}

export const promptOf = (s: StreamSpec): string => `/markdown ${s.kb} ${s.rate} ${s.profile}${s.chars ? ` ${s.chars}` : ''}`;

/** The answer's first line as it shows on screen (markup stripped). */
function firstLine(s: StreamSpec): string {
  const doc = s.profile === 'dense' ? denseMarkdownDocument(s.kb) : markdownDocument(s.kb);
  return doc.slice(0, doc.indexOf('\n')).replace(/^#+\s*/, '');
}

/** The agent's send time of the last chunk, from the stored event that carries it. */
function agentSentAt(dataDir: string, sessionId: string): number {
  const db = new Database(join(dataDir, 'switchboard.db'), { readonly: true });
  try {
    const rows = db.prepare(`SELECT payload FROM events WHERE session_id = ? AND kind = 'agent_message' AND payload LIKE ?`).all(sessionId, `%${SENT_AT_META}%`) as { payload: string }[];
    if (rows.length !== 1) throw new Error(`expected one stored chunk with the agent's send time, found ${rows.length}`);
    const payload = JSON.parse(rows[0]!.payload) as { extra?: { _meta?: Record<string, unknown> } };
    const sent = payload.extra?._meta?.[SENT_AT_META];
    if (typeof sent !== 'number') throw new Error(`the last chunk's _meta has no ${SENT_AT_META}: ${rows[0]!.payload.slice(0, 200)}`);
    return sent;
  } finally {
    db.close();
  }
}

export async function startProfiler(page: Page): Promise<() => Promise<unknown>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
  await cdp.send('Profiler.start');
  return async () => {
    const { profile } = (await cdp.send('Profiler.stop')) as { profile: unknown };
    await cdp.detach();
    return profile;
  };
}

/**
 * Scrolls the transcript up to its top as a person does, until `needle` (the answer's first
 * line) is on screen: older pages load near the top; when the view sits at the top and the
 * window offers "Load older messages" instead, that button is clicked. Resolves with how many
 * clicks it took; fails when nothing changes for a minute.
 */
async function scrollToTop(page: Page, needle: string): Promise<{ clicks: number }> {
  return (await page.evaluate(
    `new Promise((resolve, reject) => {
      const log = document.querySelector('[role="log"]');
      let clicks = 0;
      let lastHeight = -1;
      let lastChange = performance.now();
      const step = () => {
        log.scrollTop = 0;
        const walker = document.createTreeWalker(log, NodeFilter.SHOW_TEXT);
        const view = log.getBoundingClientRect();
        for (let n = walker.nextNode(), i = 0; n && i < 200; n = walker.nextNode(), i++) {
          if (n.textContent.trim() !== ${JSON.stringify(needle)}) continue;
          const box = n.parentElement.getBoundingClientRect();
          if (box.height > 0 && box.top < view.bottom && box.bottom > view.top) return resolve({ clicks });
        }
        const more = [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Load older messages');
        if (more && !more.disabled && log.scrollTop === 0) {
          more.click();
          clicks++;
        }
        if (log.scrollHeight !== lastHeight) {
          lastHeight = log.scrollHeight;
          lastChange = performance.now();
        }
        if (performance.now() - lastChange > 60000) return reject(new Error('scrolling up stopped before the start of the answer: nothing loaded for a minute (' + clicks + ' clicks on Load older messages)'));
        setTimeout(() => requestAnimationFrame(step), 50);
      };
      step();
    })`,
  )) as { clicks: number };
}

/**
 * Scrolls one viewport a frame until the bottom; resolves with the frames and ms it took. Fails
 * unless the answer's last line is on screen where the scrolling stopped.
 */
async function scrollToBottom(page: Page): Promise<{ frames: number; ms: number }> {
  return (await page.evaluate(
    `new Promise((resolve, reject) => {
      const onScreen = ${END_ON_SCREEN};
      const log = document.querySelector('[role="log"]');
      const start = performance.now();
      let frames = 0;
      let still = 0;
      const step = () => {
        frames++;
        const before = log.scrollTop;
        log.scrollTop = before + log.clientHeight;
        // At the bottom when a step moves nothing for a few frames (rows measured late can
        // still grow the list for a frame or two).
        still = log.scrollTop === before ? still + 1 : 0;
        if (still >= 10) {
          if (!onScreen(${JSON.stringify(MARKDOWN_END)})) return reject(new Error('scrolling stopped (scrollTop ' + log.scrollTop + ' of ' + log.scrollHeight + ') before the end of the answer'));
          return resolve({ frames, ms: performance.now() - start });
        }
        requestAnimationFrame(step);
      };
      requestAnimationFrame(step);
    })`,
  )) as { frames: number; ms: number };
}

/** A Chrome trace or a CPU profile of the page, started and stopped around one part of a run. */
export interface Tracing {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** A CPU profile of the page while traced, written to `file` when it stops. */
const profiling = (page: Page, file: string): Tracing => {
  let stop: (() => Promise<unknown>) | undefined;
  return {
    start: async () => {
      stop = await startProfiler(page);
    },
    stop: async () => {
      if (stop) writeFileSync(file, JSON.stringify(await stop()));
    },
  };
};

/**
 * The finished answer reopened as the benchmark times it (`reopen_*_1m_ms`): from the other
 * session, the window reloaded (nothing cached in the page), a click on the answer's session →
 * its last line painted. `around` are started just before the click and stopped after the paint.
 */
export async function timeReopen(page: Page, answerSession: string, otherSession: string, around: readonly Tracing[] = []): Promise<ProbeTimes> {
  await openSession(page, otherSession);
  await page.reload();
  const entry = page.locator(`nav[aria-label="Sessions"] [data-session-id="${answerSession}"]`);
  await entry.waitFor();
  await armProbe(page, 'click', MARKDOWN_END);
  for (const t of around) await t.start();
  await entry.click();
  const times = await probeTimes(page);
  for (const t of [...around].reverse()) await t.stop();
  return times;
}

async function afterStream(page: Page, spec: StreamSpec, answerSession: string, otherSession: string, step: (m: string) => void, reopenProfile?: string, reopenTrace?: Tracing): Promise<AfterStream> {
  step('reopen');
  const around = [...(reopenProfile ? [profiling(page, reopenProfile)] : []), ...(reopenTrace ? [reopenTrace] : [])];
  const { paintedMs: reopenMs, nextFrameMs: reopenNextFrameMs } = await timeReopen(page, answerSession, otherSession, around);
  await page.locator(`nav[aria-label="Sessions"] [aria-current="page"][data-session-id="${answerSession}"]`).waitFor();

  await proveLongTasks(page);
  step('scroll to the top');
  const upFrom = await pageNow(page);
  const { clicks } = await scrollToTop(page, firstLine(spec));
  const upTo = await pageNow(page);
  const upTasks = await tasksBetween(page, upFrom, upTo);
  step('scroll to the bottom');
  const from = await pageNow(page);
  const scrolled = await scrollToBottom(page);
  const to = await pageNow(page);
  const tasks = await tasksBetween(page, from, to);
  await proveLongTasks(page);
  step('heap');
  const heap = await pageHeap(page);
  return {
    reopenMs,
    reopenNextFrameMs,
    upMs: upTo - upFrom,
    upClicks: clicks,
    upLongestTaskMs: longest(upTasks),
    upLongTasks: upTasks.length,
    scrollLongestTaskMs: longest(tasks),
    scrollLongTasks: tasks.length,
    scrollFrames: scrolled.frames,
    scrollMs: scrolled.ms,
    heapAfterGcBytes: heap.afterGc,
    heapBeforeGcBytes: heap.beforeGc,
  };
}

export async function measureStream(spec: StreamSpec, options: StreamOptions = {}): Promise<StreamResult> {
  const t0 = performance.now();
  const step = (m: string): void => options.log?.(`${((performance.now() - t0) / 1000).toFixed(1)} s: ${m}`);
  // The browser first: one that cannot start leaves no host behind.
  const browser = await launchBrowser();
  const dir = tempDataDir();
  const serve = await startServe(dir.path, [], options.env);
  try {
    step('window');
    const page = await openWindow(browser, serve.url);
    step('warm-up');
    // Warm-up: the first turn pays for loading code paths, not for streaming.
    const warm = await newSession(page);
    step('warm-up session');
    await watchEnd(page, MARKDOWN_END);
    await sendPrompt(page, promptOf({ ...spec, kb: 2, rate: 1000 }));
    step('warm-up sent');
    await endPainted(page, 60_000);
    step('warm-up painted');
    await turnOver(page);

    // The measured answer gets a session of its own, so the warm-up's answer is not mistaken for it.
    step('new session');
    const session = await newSession(page);
    await proveLongTasks(page);
    step(promptOf(spec));
    await watchEnd(page, MARKDOWN_END);
    const stopProfiler = options.cpuProfile ? await startProfiler(page) : undefined;
    if (options.trace) await browser.startTracing(page, { path: options.trace, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
    const from = await pageNow(page);
    await sendPrompt(page, promptOf(spec));
    const chunks = (spec.kb * 1024) / (spec.chars ?? 40);
    const end = await endPainted(page, 120_000 + (chunks / spec.rate) * 1000 * 20);
    step('last line painted');
    if (stopProfiler && options.cpuProfile) writeFileSync(options.cpuProfile, JSON.stringify(await stopProfiler()));
    if (options.trace) await browser.stopTracing();
    await turnOver(page);
    step('turn over');
    await proveLongTasks(page);
    const tasks: LongTask[] = await tasksBetween(page, from, end.paintedAtPage);
    const sentAt = agentSentAt(dir.path, session);
    const lagMs = end.paintedAt - sentAt;
    if (lagMs < 0) throw new Error(`clock error: the last line was painted ${(-lagMs).toFixed(1)} ms before the agent says it sent it`);
    const result: StreamResult = {
      lagMs,
      longestTaskMs: longest(tasks),
      blockingMs: blocking(tasks),
      longTasks: tasks.length,
      seconds: (end.paintedAtPage - from) / 1000,
    };
    const categories = ['devtools.timeline', 'disabled-by-default-devtools.timeline'];
    const reopenTrace = options.reopenTrace;
    const tracing: Tracing | undefined = reopenTrace
      ? { start: () => browser.startTracing(page, { path: reopenTrace, categories }), stop: async () => void (await browser.stopTracing()) }
      : undefined;
    if (options.after) result.after = await afterStream(page, spec, session, warm, step, options.reopenProfile, tracing);
    step('done');
    return result;
  } finally {
    await browser.close();
    await serve.stop();
    dir.cleanup();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const words = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const [profile = 'dense', kb = '100', rate = '200', chars] = words;
  const spec: StreamSpec = { profile: profile as MarkdownProfile, kb: Number(kb), rate: Number(rate), chars: chars ? Number(chars) : undefined };
  const trace = process.argv.find((a) => a.startsWith('--trace='))?.slice('--trace='.length);
  measureStream(spec, { after: process.argv.includes('--after'), log: (m) => console.error(m), ...(trace ? { trace } : {}) }).then(
    (r) => console.log(JSON.stringify({ prompt: promptOf(spec), ...r })),
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
