import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_TIMER_MS, systemClock, type Clock, type TimerHandle } from './clock';
import { FakeClock } from '../test-support/fake-clock';
import { SuspendWatch } from './suspend-watch';
import { TimerQueue } from './timer-queue';

/** A FakeClock that also remembers every delay it was asked for and every handle it gave out. */
class RecordingClock extends FakeClock {
  readonly delays: number[] = [];
  readonly handles: TimerHandle[] = [];
  override setTimeout(fn: () => void, ms: number): TimerHandle {
    this.delays.push(ms);
    const handle = super.setTimeout(fn, ms);
    this.handles.push(handle);
    return handle;
  }
}

const queues: TimerQueue[] = [];
afterEach(() => {
  queues.splice(0).forEach((q) => q.dispose());
  vi.restoreAllMocks();
});

describe('TimerQueue: one timer for the whole host', () => {
  it('arms exactly one clock timer however many tasks are scheduled', () => {
    const clock = new FakeClock();
    const q = new TimerQueue(clock);
    for (let i = 0; i < 1000; i++) q.at(`task-${i}`, clock.now() + 1000 + i, () => {});
    expect(q.size).toBe(1000);
    expect(q.isArmed).toBe(true);
    expect(clock.pendingTimers).toBe(1);
  });

  it('runs tasks in time order and re-arms for the next one', async () => {
    const clock = new FakeClock();
    const q = new TimerQueue(clock);
    const ran: string[] = [];
    q.at('late', clock.now() + 300, () => ran.push('late'));
    q.at('early', clock.now() + 100, () => ran.push('early'));
    q.at('middle', clock.now() + 200, () => ran.push('middle'));
    await clock.advance(150);
    expect(ran).toEqual(['early']);
    expect(clock.pendingTimers).toBe(1);
    await clock.advance(200);
    expect(ran).toEqual(['early', 'middle', 'late']);
    expect(q.isArmed).toBe(false);
    expect(clock.pendingTimers).toBe(0);
  });

  it('re-arms when the earliest task is cancelled and disarms when none is left', async () => {
    const clock = new FakeClock();
    const q = new TimerQueue(clock);
    const ran: string[] = [];
    q.at('a', clock.now() + 100, () => ran.push('a'));
    q.at('b', clock.now() + 500, () => ran.push('b'));
    q.cancel('a');
    expect(clock.pendingTimers).toBe(1);
    await clock.advance(499);
    expect(ran).toEqual([]);
    q.cancel('b');
    expect(q.isArmed).toBe(false);
    expect(clock.pendingTimers).toBe(0);
    await clock.advance(1000);
    expect(ran).toEqual([]);
  });

  it('replaces a task scheduled again under the same key', async () => {
    const clock = new FakeClock();
    const q = new TimerQueue(clock);
    const ran: string[] = [];
    q.at('k', clock.now() + 100, () => ran.push('first'));
    q.at('k', clock.now() + 200, () => ran.push('second'));
    await clock.advance(1000);
    expect(ran).toEqual(['second']);
  });

  it('unrefs the timer it arms, so it never keeps the process alive', () => {
    const handles: NodeJS.Timeout[] = [];
    const clock: Clock = {
      ...systemClock,
      setTimeout: (fn, ms) => {
        const h = setTimeout(fn, ms);
        handles.push(h);
        return h;
      },
    };
    const q = new TimerQueue(clock);
    queues.push(q);
    q.at('far', Date.now() + 60_000, () => {});
    expect(handles).toHaveLength(1);
    expect(handles[0]!.hasRef()).toBe(false);
  });

  it('clamps a wait above 2^31-1 ms instead of letting Node fire it at once', async () => {
    const clock = new RecordingClock();
    const q = new TimerQueue(clock);
    const ran = vi.fn();
    q.at('far', clock.now() + 10 * MAX_TIMER_MS, ran);
    expect(clock.delays).toEqual([MAX_TIMER_MS]);
    // When the clamped timer fires early, nothing runs and the rest of the wait is armed.
    await clock.advance(MAX_TIMER_MS);
    expect(ran).not.toHaveBeenCalled();
    expect(clock.pendingTimers).toBe(1);
  });

  it('runs no task once disposed and accepts none; disposing twice changes nothing', async () => {
    const clock = new FakeClock();
    const q = new TimerQueue(clock);
    const ran = vi.fn();
    q.at('a', clock.now() + 100, ran);
    q.dispose();
    q.dispose();
    q.at('b', clock.now() + 100, ran);
    expect(q.isArmed).toBe(false);
    expect(clock.pendingTimers).toBe(0);
    await clock.advance(1000);
    expect(ran).not.toHaveBeenCalled();
  });

  it('keeps running the other tasks when one throws', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const clock = new FakeClock();
    const q = new TimerQueue(clock);
    const ran: string[] = [];
    q.at('bad', clock.now() + 100, () => {
      throw new Error('boom');
    });
    q.at('good', clock.now() + 100, () => ran.push('good'));
    q.at('later', clock.now() + 200, () => ran.push('later'));
    await clock.advance(300);
    expect(ran).toEqual(['good', 'later']);
  });

  it('counts a delay in time awake: a sleep moves every task later, so nothing fires at wake that was not due', async () => {
    const clock = new FakeClock();
    const watch = new SuspendWatch(clock);
    const q = new TimerQueue(clock, watch);
    queues.push(q);
    const fired: string[] = [];
    q.at('deadline', clock.now() + 5 * 60_000, () => fired.push('deadline'));
    q.at('tick', clock.now() + 60_000, () => fired.push('tick'));
    await clock.advance(30_000);
    clock.suspend(8 * 3_600_000);
    await clock.advance(30_000);
    expect(fired).toEqual(['tick']);
    await clock.advance(4 * 60_000 - 1);
    expect(fired).toEqual(['tick']);
    await clock.advance(1);
    expect(fired).toEqual(['tick', 'deadline']);
    expect(q.isArmed).toBe(false);
  });
});

