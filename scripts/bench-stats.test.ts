/**
 * bench/lib/stats.ts's warm-up until steady: it stops once the last runs bring no new best,
 * never before `min` nor after `max`.
 */
import { describe, expect, it } from 'vitest';
import { warmUntilSteady } from '../bench/lib/stats';

/** A rep that answers the given times in turn. */
const reps = (times: number[]): (() => Promise<number>) => {
  let i = 0;
  return async () => times[Math.min(i++, times.length - 1)]!;
};

describe('warmUntilSteady', () => {
  it('runs until three runs in a row bring no new best', async () => {
    expect(await warmUntilSteady(reps([1300, 1090, 800, 640, 650, 520, 470, 480, 490, 475, 300]), { min: 1, max: 20 })).toEqual([
      1300, 1090, 800, 640, 650, 520, 470, 480, 490, 475,
    ]);
  });

  it('does not stop on runs alike while a later run is still faster: a gain of more than 5% counts', async () => {
    expect(await warmUntilSteady(reps([900, 640, 650, 660, 600, 610, 620, 615]), { min: 1, max: 20 })).toEqual([900, 640, 650, 660, 600, 610, 620, 615]);
    expect(await warmUntilSteady(reps([900, 640, 650, 660, 620, 610, 620, 615]), { min: 1, max: 20 })).toEqual([900, 640, 650, 660, 620]);
  });

  it('runs at least min times, even when steady from the start', async () => {
    expect(await warmUntilSteady(reps([100, 100, 100, 100, 100, 100, 100]), { min: 6, max: 20 })).toHaveLength(6);
    expect(await warmUntilSteady(reps([100, 100, 100, 100, 100, 100, 100]), { min: 1, max: 20 })).toHaveLength(4);
  });

  it('stops at max when the times keep falling', async () => {
    expect(await warmUntilSteady(reps([1000, 900, 800, 700, 600, 500, 400, 300]), { min: 1, max: 6 })).toHaveLength(6);
  });

  it('takes its window and gain as given', async () => {
    expect(await warmUntilSteady(reps([500, 300, 295, 296, 297, 298]), { min: 1, max: 20, settled: 2, gain: 0.001 })).toEqual([500, 300, 295, 296, 297]);
  });
});
