import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { captureLogger, type LogEntry } from '../test-support/capture-logger';
import { CRASH_WINDOW_MS, installRendererRecovery, MAX_CRASHES, RELOAD_DELAY_MS } from './renderer-recovery';

class FakeContents extends EventEmitter {
  reloads = 0;
  crashedByUs = 0;
  destroyed = false;
  isDestroyed(): boolean {
    return this.destroyed;
  }
  reload(): void {
    this.reloads++;
  }
  forcefullyCrashRenderer(): void {
    this.crashedByUs++;
  }
  gone(reason: string): void {
    this.emit('render-process-gone', {}, { reason, exitCode: 1 });
  }
}

class FakeWindow extends EventEmitter {
  readonly webContents = new FakeContents();
  destroyed = false;
  isDestroyed(): boolean {
    return this.destroyed;
  }
}

function setup(answers: { hung?: 'reload' | 'wait'; loop?: boolean } = {}) {
  const win = new FakeWindow();
  const reports: string[] = [];
  const hungQuestions: AbortSignal[] = [];
  const hungAnswers: Array<(answer: 'reload' | 'wait') => void> = [];
  const loopQuestions: string[] = [];
  const entries: LogEntry[] = [];
  const log = { logger: captureLogger(entries), entries };
  installRendererRecovery(win, {
    label: 'window 1',
    log: log.logger,
    reportCrash: (reason) => reports.push(reason),
    askReloadHung: (signal) => {
      hungQuestions.push(signal);
      return answers.hung ? Promise.resolve(answers.hung) : new Promise((resolve) => hungAnswers.push(resolve));
    },
    askAfterCrashLoop: (reason) => {
      loopQuestions.push(reason);
      return Promise.resolve(answers.loop ?? false);
    },
  });
  return { win, contents: win.webContents, reports, hungQuestions, hungAnswers, loopQuestions, log };
}

describe('renderer recovery', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reports a crashed page and reloads it after a short pause', () => {
    const { contents, reports } = setup();
    contents.gone('crashed');
    expect(reports).toEqual(['crashed']);
    expect(contents.reloads).toBe(0);
    vi.advanceTimersByTime(RELOAD_DELAY_MS);
    expect(contents.reloads).toBe(1);
  });

  it('does nothing when the page simply went away (clean exit)', () => {
    const { contents, reports } = setup();
    contents.gone('clean-exit');
    vi.advanceTimersByTime(RELOAD_DELAY_MS * 4);
    expect(reports).toEqual([]);
    expect(contents.reloads).toBe(0);
  });

  it('stops reloading a page that keeps crashing and asks the person', async () => {
    const { contents, reports, loopQuestions } = setup({ loop: true });
    for (let i = 0; i < MAX_CRASHES; i++) {
      contents.gone('oom');
      vi.advanceTimersByTime(RELOAD_DELAY_MS);
    }
    expect(contents.reloads).toBe(MAX_CRASHES);
    contents.gone('oom');
    expect(loopQuestions).toEqual(['oom']);
    await vi.runAllTimersAsync();
    // The person said "try again": one more reload, and the count starts over.
    expect(contents.reloads).toBe(MAX_CRASHES + 1);
    expect(reports).toHaveLength(MAX_CRASHES);
    contents.gone('oom');
    vi.advanceTimersByTime(RELOAD_DELAY_MS);
    expect(contents.reloads).toBe(MAX_CRASHES + 2);
  });

  it('forgets crashes older than the window', () => {
    const { contents, loopQuestions } = setup();
    for (let i = 0; i < MAX_CRASHES * 2; i++) {
      contents.gone('crashed');
      vi.advanceTimersByTime(CRASH_WINDOW_MS / MAX_CRASHES + 1);
    }
    expect(loopQuestions).toEqual([]);
    expect(contents.reloads).toBe(MAX_CRASHES * 2);
  });

  it('does not reload a window closed before the pause ended', () => {
    const { win, contents } = setup();
    contents.gone('crashed');
    win.destroyed = true;
    win.emit('closed');
    vi.advanceTimersByTime(RELOAD_DELAY_MS * 2);
    expect(contents.reloads).toBe(0);
  });

  it('asks about a hung page, and on "Reload" ends its process and loads a new one', async () => {
    const { win, contents, hungQuestions } = setup({ hung: 'reload' });
    win.emit('unresponsive');
    win.emit('unresponsive'); // asked once
    await vi.runAllTimersAsync();
    expect(hungQuestions).toHaveLength(1);
    expect(contents.crashedByUs).toBe(1);
    expect(contents.reloads).toBe(1);
  });

  it('keeps waiting when the person says so', async () => {
    const { win, contents } = setup({ hung: 'wait' });
    win.emit('unresponsive');
    await vi.runAllTimersAsync();
    expect(contents.crashedByUs).toBe(0);
    expect(contents.reloads).toBe(0);
  });

  it('withdraws the question when the page answers again by itself', async () => {
    const { win, contents, hungQuestions, hungAnswers } = setup();
    win.emit('unresponsive');
    win.emit('responsive');
    expect(hungQuestions[0]?.aborted).toBe(true);
    hungAnswers[0]?.('reload'); // the dialog closed as cancelled; a late click changes nothing
    await vi.runAllTimersAsync();
    expect(contents.reloads).toBe(0);
    // A later hang asks again.
    win.emit('unresponsive');
    expect(hungQuestions).toHaveLength(2);
  });

  it('logs each crash and hang with the window and reason', async () => {
    const { win, contents, log } = setup({ hung: 'wait' });
    contents.gone('killed');
    win.emit('unresponsive');
    await vi.runAllTimersAsync();
    expect(log.entries.map((e) => e.msg)).toEqual(expect.arrayContaining(['window page crashed', 'window page is not responding']));
    expect(log.entries.find((e) => e.msg === 'window page crashed')?.fields).toMatchObject({ window: 'window 1', reason: 'killed' });
  });
});
