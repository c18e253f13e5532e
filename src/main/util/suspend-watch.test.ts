import { describe, expect, it } from 'vitest';
import { FakeClock } from '../test-support/fake-clock';
import type { Clock } from './clock';
import { describeDuration, SuspendWatch, type Resumed } from './suspend-watch';

const HOUR = 3_600_000;

describe('SuspendWatch', () => {
  it('sees a sleep when the wall clock runs ahead of the monotonic one, and nothing when both move', async () => {
    const clock = new FakeClock();
    const watch = new SuspendWatch(clock);
    const heard: Resumed[] = [];
    watch.onDidResume((r) => heard.push(r));
    await clock.advance(10 * HOUR);
    expect(watch.check()).toBeUndefined();
    clock.suspend(8 * HOUR);
    const wokeAt = clock.now();
    expect(watch.check()).toEqual({ at: wokeAt, sleptMs: 8 * HOUR, via: 'clock' });
    expect(heard).toHaveLength(1);
    // Seen once: the next look finds nothing new.
    expect(watch.check()).toBeUndefined();
  });

  it('takes a few seconds of drift for drift, not sleep', () => {
    const clock = new FakeClock();
    const watch = new SuspendWatch(clock);
    clock.suspend(4_000);
    expect(watch.check()).toBeUndefined();
  });

  it("adds what the power events say and the clocks did not show, without counting a sleep twice", async () => {
    const fake = new FakeClock();
    const blind: Clock = { now: () => fake.now(), setTimeout: (f, ms) => fake.setTimeout(f, ms), clearTimeout: (t) => fake.clearTimeout(t) };
    const watch = new SuspendWatch(blind);
    watch.powerSuspend();
    fake.suspend(2 * HOUR);
    expect(watch.powerResume()).toMatchObject({ sleptMs: 2 * HOUR, via: 'power' });

    // Where the clocks do show it, the power events add nothing.
    const clock = new FakeClock();
    const seeing = new SuspendWatch(clock);
    const heard: Resumed[] = [];
    seeing.onDidResume((r) => heard.push(r));
    seeing.powerSuspend();
    clock.suspend(2 * HOUR);
    seeing.powerResume();
    expect(heard).toEqual([{ at: clock.now(), sleptMs: 2 * HOUR, via: 'clock' }]);
    // A resume without a suspend heard first is just a look at the clocks.
    expect(seeing.powerResume()).toBeUndefined();
  });

  it('says how much of a span was asleep, and whether the computer woke recently', async () => {
    const clock = new FakeClock(0);
    const watch = new SuspendWatch(clock);
    await clock.advance(HOUR);
    clock.suspend(3 * HOUR); // asleep from 1 h to 4 h
    watch.check();
    expect(watch.sleptBetween(0, clock.now())).toBe(3 * HOUR);
    expect(watch.sleptBetween(2 * HOUR, clock.now())).toBe(2 * HOUR);
    expect(watch.sleptBetween(0, HOUR)).toBe(0);
    expect(watch.recent(60_000)).toMatchObject({ sleptMs: 3 * HOUR });
    await clock.advance(61_000);
    expect(watch.recent(60_000)).toBeUndefined();
  });

  it('puts durations in words', () => {
    expect(describeDuration(45_000)).toBe('45 s');
    expect(describeDuration(3 * 60_000)).toBe('3 min');
    expect(describeDuration(8 * HOUR)).toBe('8 h');
    expect(describeDuration(8 * HOUR + 12 * 60_000)).toBe('8 h 12 min');
  });
});
