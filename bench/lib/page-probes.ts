/**
 * What a window measurement watches inside the page: long tasks (with proof that the observer
 * works), the moment a text is painted on screen, and the page's heap. Page code is passed as
 * strings: tsx rewrites named functions with a helper the page does not have.
 */
import type { Page } from '@playwright/test';

export const LONG_TASK_MS = 50;
/** The deliberate task each page runs to prove the observer reports long tasks. */
const PROOF_TASK_MS = 120;

export interface LongTask {
  start: number;
  duration: number;
}

declare global {
  interface Window {
    __bench?: { tasks: LongTask[]; observer: PerformanceObserver; proofs: { start: number; end: number }[] };
    __benchEnd?: { seenAt?: number; paintedAt?: number; stop?: boolean };
  }
}

/** Starts recording long tasks in the page (idempotent). */
export async function watchLongTasks(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    if (window.__bench) return;
    const state = { tasks: [], proofs: [] };
    state.observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) state.tasks.push({ start: e.startTime, duration: e.duration });
    });
    state.observer.observe({ type: 'longtask' });
    window.__bench = state;
  })()`);
}

/**
 * Runs a deliberate ${PROOF_TASK_MS} ms task in the page and waits until the observer reports
 * it; throws if it never does. A run whose observer reports nothing would otherwise read as
 * "no long task" and pass. The proof's own task is left out of every figure (see `tasksBetween`).
 */
export async function proveLongTasks(page: Page): Promise<void> {
  await watchLongTasks(page);
  const seen = await page.evaluate(`new Promise((resolve) => {
    const state = window.__bench;
    setTimeout(() => {
      const start = performance.now();
      while (performance.now() - start < ${PROOF_TASK_MS}) {}
      const end = performance.now();
      state.proofs.push({ start, end });
      const deadline = end + 3000;
      const check = () => {
        const hit = state.tasks.some((t) => t.duration >= ${PROOF_TASK_MS} - 5 && t.start <= start + 1 && t.start + t.duration >= end - 1);
        if (hit || performance.now() > deadline) resolve(hit);
        else setTimeout(check, 50);
      };
      setTimeout(check, 0);
    }, 0);
  })`);
  if (seen !== true) throw new Error(`the long-task observer did not report a deliberate ${PROOF_TASK_MS} ms task: long-task figures cannot be trusted`);
}

/** Page time now (performance.now in the page). */
export const pageNow = (page: Page): Promise<number> => page.evaluate('performance.now()') as Promise<number>;

/** Long tasks that started in [from, to) of page time, the proof tasks left out. */
export async function tasksBetween(page: Page, from: number, to: number): Promise<LongTask[]> {
  const { tasks, proofs } = (await page.evaluate('({ tasks: window.__bench.tasks, proofs: window.__bench.proofs })')) as { tasks: LongTask[]; proofs: { start: number; end: number }[] };
  const isProof = (t: LongTask): boolean => proofs.some((p) => t.start <= p.start + 1 && t.start + t.duration >= p.end - 1);
  return tasks.filter((t) => t.start >= from && t.start < to && !isProof(t));
}

export const longest = (tasks: readonly LongTask[]): number => tasks.reduce((m, t) => Math.max(m, t.duration), 0);
/** Total blocking time: the part of each long task over 50 ms. */
export const blocking = (tasks: readonly LongTask[]): number => tasks.reduce((sum, t) => sum + Math.max(0, t.duration - LONG_TASK_MS), 0);

/**
 * Page code: whether `needle` is in one of the last text nodes of the transcript and on screen.
 * Walks back from the end of the log over at most 60 text nodes, so a check costs the same
 * however long the transcript is (the answer's end is the last thing in it, or close to it).
 */
export const END_ON_SCREEN = `(needle) => {
  const log = document.querySelector('[role="log"]');
  if (!log) return false;
  const walker = document.createTreeWalker(log, NodeFilter.SHOW_TEXT);
  let last = log;
  while (last.lastChild) last = last.lastChild;
  walker.currentNode = last;
  let n = last.nodeType === Node.TEXT_NODE ? last : walker.previousNode();
  const view = log.getBoundingClientRect();
  for (let i = 0; n && i < 60; i++, n = walker.previousNode()) {
    if (!n.textContent.includes(needle)) continue;
    const box = n.parentElement.getBoundingClientRect();
    return box.height > 0 && box.top < view.bottom && box.bottom > view.top;
  }
  return false;
}`;

/**
 * From now on, checks every frame whether `needle` is on screen at the end of the transcript;
 * `paintedAt` (wall clock, Date.now in the page) is taken in the frame after the one that showed
 * it, i.e. once that frame was painted.
 */
export async function watchEnd(page: Page, needle: string): Promise<void> {
  await page.evaluate(`(() => {
    const onScreen = ${END_ON_SCREEN};
    const state = {};
    window.__benchEnd = state;
    const check = () => {
      if (state.stop) return;
      if (state.seenAt !== undefined) {
        state.paintedAt = Date.now();
        state.paintedAtPage = performance.now();
        return;
      }
      if (onScreen(${JSON.stringify(needle)})) state.seenAt = performance.now();
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  })()`);
}

export interface EndSeen {
  /** Wall clock (ms since the epoch) of the frame after the one that showed the end. */
  paintedAt: number;
  /** The same moment in page time. */
  paintedAtPage: number;
}

export async function endPainted(page: Page, timeoutMs: number): Promise<EndSeen> {
  await page.waitForFunction(() => window.__benchEnd?.paintedAt !== undefined, undefined, { timeout: timeoutMs, polling: 250 });
  return (await page.evaluate('({ paintedAt: window.__benchEnd.paintedAt, paintedAtPage: window.__benchEnd.paintedAtPage })')) as EndSeen;
}

/** How long the probe waits for the paint of the text once the frame after it has run. */
const PAINT_ENTRY_WAIT_MS = 2_000;
/** The longest a probe waits for its trigger and text at all: then it fails rather than hangs. */
const PROBE_DEADLINE_MS = 120_000;

/** What a probe read, both from the `trigger`. */
export interface ProbeTimes {
  /**
   * When the text was painted: the `renderTime` Chromium's Element Timing gives the first paint
   * of the element holding it (the presentation of the frame that showed it). The figure.
   */
  paintedMs: number;
  /**
   * The start of the frame after the one that showed it (the `requestAnimationFrame` after it):
   * how this was timed before, by construction up to a frame later than the paint. For details.
   */
  nextFrameMs: number;
}

/**
 * Arms a probe: from the next `trigger` (a click, or Enter) to the paint of `needle` on screen at
 * the end of the transcript. Read it with `probeMs` (the paint) or `probeTimes`.
 *
 * The paint is Element Timing's: as soon as a text node holding `needle` enters the page (a
 * `MutationObserver`, whose callback runs before the next frame), its element is marked with an
 * `elementtiming` name of this probe's own, and the browser reports when that element's text was
 * first painted. Fails when it reports no paint (nothing is read as zero): e.g. the text went
 * into an element painted before the trigger, whose first paint is long past.
 */
export async function armProbe(page: Page, trigger: 'click' | 'keydown', needle: string): Promise<void> {
  await page.evaluate(`(() => {
    const onScreen = ${END_ON_SCREEN};
    const needle = ${JSON.stringify(needle)};
    const name = 'bench-probe-' + (window.__probeCount = (window.__probeCount || 0) + 1);
    window.__probe = new Promise((resolve, reject) => {
      let t0 = -1;
      let seen = false;
      let nextFrameMs;
      let paintedAt;
      let waiting;
      const onTrigger = (e) => {
        if (t0 < 0 && (e.type === 'click' || e.key === 'Enter')) t0 = performance.now();
      };
      document.addEventListener(${JSON.stringify(trigger)}, onTrigger, { capture: true });
      // Its parent is marked, and the nearest block around it too: Chromium may credit a text's
      // paint to the block that lays it out rather than to an inline element around it.
      const mark = (node) => {
        if (node.nodeType === Node.TEXT_NODE) {
          const parent = node.parentElement;
          if (!parent || !node.textContent.includes(needle) || !parent.closest('[role="log"]')) return;
          parent.setAttribute('elementtiming', name);
          let block = parent;
          while (block.parentElement && getComputedStyle(block).display.startsWith('inline')) block = block.parentElement;
          block.setAttribute('elementtiming', name);
          return;
        }
        if (node.nodeType !== Node.ELEMENT_NODE) return;
        const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) mark(n);
      };
      const mutations = new MutationObserver((records) => {
        if (t0 < 0) return;
        for (const r of records) {
          if (r.type === 'characterData') mark(r.target);
          else for (const n of r.addedNodes) mark(n);
        }
      });
      mutations.observe(document.body, { childList: true, subtree: true, characterData: true });
      const paints = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          if (e.identifier === name && paintedAt === undefined && e.renderTime >= t0) paintedAt = e.renderTime;
        }
        done();
      });
      paints.observe({ type: 'element' });
      let stopped = false;
      const stop = () => {
        stopped = true;
        mutations.disconnect();
        paints.disconnect();
        document.removeEventListener(${JSON.stringify(trigger)}, onTrigger, { capture: true });
        clearTimeout(waiting);
        clearTimeout(deadline);
      };
      const deadline = setTimeout(() => {
        stop();
        reject(new Error('the probe saw no ' + (t0 < 0 ? 'trigger' : JSON.stringify(needle) + ' on screen') + ' within ${PROBE_DEADLINE_MS / 1000} s'));
      }, ${PROBE_DEADLINE_MS});
      const done = () => {
        if (nextFrameMs === undefined || paintedAt === undefined) return;
        stop();
        resolve({ paintedMs: paintedAt - t0, nextFrameMs });
      };
      const tick = () => {
        if (stopped) return;
        if (seen) {
          nextFrameMs = performance.now() - t0;
          waiting = setTimeout(() => {
            stop();
            reject(new Error('Element Timing reported no paint of the element showing ' + JSON.stringify(needle) + ' (' + nextFrameMs.toFixed(1) + ' ms after the trigger it was on screen)'));
          }, ${PAINT_ENTRY_WAIT_MS});
          return done();
        }
        if (t0 >= 0 && onScreen(needle)) seen = true;
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
  })()`);
}

/** Both readings of the probe armed last. */
export const probeTimes = (page: Page): Promise<ProbeTimes> => page.evaluate('window.__probe') as Promise<ProbeTimes>;

/** The probe's figure: trigger → the text painted. */
export const probeMs = async (page: Page): Promise<number> => (await probeTimes(page)).paintedMs;

/** The page's JS heap in bytes, after a full garbage collection and before it. */
export async function pageHeap(page: Page): Promise<{ afterGc: number; beforeGc: number }> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const before = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
    await cdp.send('HeapProfiler.collectGarbage');
    const after = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
    return { afterGc: after.usedSize, beforeGc: before.usedSize };
  } finally {
    await cdp.detach();
  }
}
