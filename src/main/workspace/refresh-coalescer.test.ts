import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../test-support/fake-clock';
import { TimerQueue } from '../util/timer-queue';
import { RefreshCoalescer } from './refresh-coalescer';

interface Pending {
  key: string;
  startedAt: number;
  done(): void;
  fail(err: Error): void;
}

function setUp(delayMs = 250) {
  const clock = new FakeClock();
  const timers = new TimerQueue(clock);
  const runs: Pending[] = [];
  const errors: string[] = [];
  const coalescer = new RefreshCoalescer({
    clock,
    timers,
    delayMs,
    name: 'test',
    run: (key) =>
      new Promise<void>((resolve, reject) => {
        runs.push({ key, startedAt: clock.now(), done: resolve, fail: reject });
      }),
    onError: (key, err) => errors.push(`${key}: ${(err as Error).message}`),
  });
  return { clock, timers, runs, errors, coalescer };
}

describe('RefreshCoalescer', () => {
  let dispose: (() => void) | undefined;
  afterEach(() => dispose?.());

  it('runs once for a burst of asks, counted from the first ask', async () => {
    const t = setUp();
    dispose = () => t.timers.dispose();
    t.coalescer.ask('s');
    await t.clock.advance(200);
    t.coalescer.ask('s');
    t.coalescer.ask('s');
    await t.clock.advance(49);
    expect(t.runs).toHaveLength(0);
    await t.clock.advance(1);
    expect(t.runs.map((r) => r.key)).toEqual(['s']);
  });

  it('keeps at most one more while one runs, spaced by the time the slow run took', async () => {
    const t = setUp();
    dispose = () => t.timers.dispose();
    t.coalescer.ask('s', 0);
    await t.clock.advance(0);
    expect(t.runs).toHaveLength(1);
    // A huge repository: this status takes 3 s while the agent writes a hundred files.
    for (let i = 0; i < 100; i++) {
      t.coalescer.ask('s');
      await t.clock.advance(30);
    }
    expect(t.runs).toHaveLength(1);
    t.runs[0]!.done();
    await t.clock.advance(0);
    await t.clock.advance(2_999);
    expect(t.runs).toHaveLength(1);
    await t.clock.advance(1);
    expect(t.runs).toHaveLength(2);
    t.runs[1]!.done();
    await t.clock.advance(10_000);
    // Nothing was asked during the second run: no third.
    expect(t.runs).toHaveLength(2);
  });

  it('keeps sessions apart, and a failed run is reported and still followed by the one asked for', async () => {
    const t = setUp();
    dispose = () => t.timers.dispose();
    t.coalescer.ask('a', 0);
    t.coalescer.ask('b', 0);
    await t.clock.advance(0);
    expect(t.runs.map((r) => r.key).sort()).toEqual(['a', 'b']);
    t.coalescer.ask('a');
    t.runs.find((r) => r.key === 'a')!.fail(new Error('git status failed'));
    await t.clock.advance(0);
    expect(t.errors).toEqual(['a: git status failed']);
    await t.clock.advance(249);
    expect(t.runs.filter((r) => r.key === 'a')).toHaveLength(1);
    await t.clock.advance(1);
    expect(t.errors).toEqual(['a: git status failed']);
    expect(t.runs.filter((r) => r.key === 'a')).toHaveLength(2);
  });

  it('drops what was asked for a key it is told to forget', async () => {
    const t = setUp();
    dispose = () => t.timers.dispose();
    t.coalescer.ask('s');
    t.coalescer.cancel('s');
    await t.clock.advance(1_000);
    expect(t.runs).toHaveLength(0);
    t.coalescer.ask('s', 0);
    await t.clock.advance(0);
    t.coalescer.ask('s');
    t.coalescer.cancel('s');
    expect(t.coalescer.isRunning('s')).toBe(true);
    t.runs[0]!.done();
    await t.clock.advance(1_000);
    expect(t.runs).toHaveLength(1);
    expect(t.coalescer.isRunning('s')).toBe(false);
  });
});
