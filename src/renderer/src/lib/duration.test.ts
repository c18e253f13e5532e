import { describe, expect, it } from 'vitest';
import { MAX_DURATION_MS, formatDuration, parseDuration } from './duration';

describe('durations in a person’s terms', () => {
  it.each([
    ['30 min', 1_800_000],
    ['30min', 1_800_000],
    ['1 h 30 min', 5_400_000],
    ['1h30m', 5_400_000],
    ['1.5 hours', 5_400_000],
    ['90 s', 90_000],
    ['2 minutes, 30 seconds', 150_000],
    ['1 min and 5 s', 65_000],
    ['0,5 min', 30_000],
    ['  45 SEC ', 45_000],
  ])('reads %s', (text, ms) => {
    expect(parseDuration(text)).toEqual({ ok: true, ms });
  });

  it('takes 0 and off only where the setting can be turned off', () => {
    expect(parseDuration('off', { allowOff: true })).toEqual({ ok: true, ms: 0 });
    expect(parseDuration('0', { allowOff: true })).toEqual({ ok: true, ms: 0 });
    expect(parseDuration('0 min', { allowOff: true, minMs: 60_000 })).toEqual({ ok: true, ms: 0 });
    expect(parseDuration('off')).toMatchObject({ ok: false });
    expect(parseDuration('0')).toEqual({ ok: false, message: 'Add a unit to 0: min or s (for example 0 min).' });
  });

  it('says what is wrong: no unit, milliseconds, an unknown unit, nothing at all, out of range', () => {
    expect(parseDuration('1800000')).toEqual({ ok: false, message: 'Add a unit to 1800000: min or s (for example 1800000 min).' });
    expect(parseDuration('500 ms')).toEqual({ ok: false, message: 'Use seconds, minutes or hours, not milliseconds.' });
    expect(parseDuration('3 days')).toEqual({ ok: false, message: '“days” is not a unit here: use h, min or s.' });
    expect(parseDuration('soon')).toMatchObject({ ok: false, message: expect.stringContaining('is not a duration') as string });
    expect(parseDuration('')).toEqual({ ok: false, message: 'Enter a duration, like 30 min or 45 s.' });
    expect(parseDuration('', { allowOff: true })).toEqual({ ok: false, message: 'Enter a duration, like 30 min, or off.' });
    expect(parseDuration('10 s', { minMs: 60_000, allowOff: true })).toEqual({ ok: false, message: 'At least 1 min, or off.' });
    expect(parseDuration('1000 h')).toEqual({ ok: false, message: `At most ${formatDuration(MAX_DURATION_MS)}.` });
  });

  it('writes milliseconds back as hours, minutes and seconds', () => {
    expect(formatDuration(1_800_000)).toBe('30 min');
    expect(formatDuration(5_400_000)).toBe('1 h 30 min');
    expect(formatDuration(90_000)).toBe('1 min 30 s');
    expect(formatDuration(1_500)).toBe('1.5 s');
    expect(formatDuration(0)).toBe('0 s');
    expect(formatDuration(0, 'off')).toBe('off');
    // What it writes, it reads back.
    for (const ms of [1_000, 59_000, 60_000, 3_599_000, 86_400_000, MAX_DURATION_MS - (MAX_DURATION_MS % 1000)]) {
      expect(parseDuration(formatDuration(ms))).toEqual({ ok: true, ms });
    }
  });
});
