/**
 * Issue 5's options: `--idle-timeout-ms` / `--reap-interval-ms` (and the permission timeout,
 * which goes through the same parser) on `serve` and in the app's settings.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from './cli';
import { parseArgs, UsageError } from './cli/parse-args';
import { DEFAULT_SETTINGS, normaliseSettings, parseDuration } from './datadir/settings';
import { MAX_TIMER_MS } from './util/clock';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('parseDuration', () => {
  it.each<[unknown, number]>([
    ['0', 0],
    [0, 0],
    ['1500', 1500],
    [1500, 1500],
    [' 2000 ', 2000],
    [String(MAX_TIMER_MS), MAX_TIMER_MS],
  ])('accepts %j as %d ms', (raw, ms) => {
    expect(parseDuration('--idle-timeout-ms', raw)).toBe(ms);
  });

  it.each<unknown>([MAX_TIMER_MS + 1, String(2 ** 40), 1e15])('clamps %j to 2^31-1', (raw) => {
    expect(parseDuration('--idle-timeout-ms', raw)).toBe(MAX_TIMER_MS);
  });

  it.each<unknown>(['-1', -1, -0.5, 'abc', '10 minutes', '', '   ', 'Infinity', '-Infinity', '1e999', Number.NaN, Number.POSITIVE_INFINITY, null, true, {}])(
    'refuses %j with a clear message naming the option',
    (raw) => {
      expect(() => parseDuration('--reap-interval-ms', raw)).toThrow(
        expect.objectContaining({ code: 'invalid_request', message: expect.stringMatching(/^--reap-interval-ms must be a non-negative number of milliseconds/) }),
      );
    },
  );
});

describe('settings', () => {
  it('defaults to a 30 minute idle timeout checked every 60 seconds', () => {
    expect(DEFAULT_SETTINGS).toMatchObject({ idleTimeoutMs: 30 * 60_000, reapIntervalMs: 60_000 });
  });

  it('validates and clamps the reaper values of a settings update', () => {
    expect(normaliseSettings({ idleTimeoutMs: 2 ** 33, reapIntervalMs: 0 })).toEqual({ idleTimeoutMs: MAX_TIMER_MS, reapIntervalMs: 0 });
    expect(() => normaliseSettings({ idleTimeoutMs: -1 })).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    expect(() => normaliseSettings({ reapIntervalMs: Number.NaN })).toThrow(expect.objectContaining({ code: 'invalid_request' }));
  });
});

describe('serve options', () => {
  it('takes --idle-timeout-ms and --reap-interval-ms, 0 included, and clamps values above 2^31-1', () => {
    const parsed = parseArgs(['serve', '--idle-timeout-ms', '2000', '--reap-interval-ms=500'], {});
    expect(parsed).toMatchObject({ command: 'serve', options: { settings: { idleTimeoutMs: 2000, reapIntervalMs: 500 } } });
    expect(parseArgs(['serve', '--idle-timeout-ms', '0'], {})).toMatchObject({ options: { settings: { idleTimeoutMs: 0 } } });
    expect(parseArgs(['serve', '--reap-interval-ms', '99999999999'], {})).toMatchObject({ options: { settings: { reapIntervalMs: MAX_TIMER_MS } } });
  });

  it('leaves the reaper settings to the defaults when not given', () => {
    const parsed = parseArgs(['serve'], {});
    expect(parsed.command === 'serve' && parsed.options.settings).toEqual({});
  });

  it.each([
    ['--idle-timeout-ms', '-1'],
    ['--idle-timeout-ms', 'soon'],
    ['--reap-interval-ms', 'Infinity'],
    ['--reap-interval-ms', '1e400'],
    ['--permission-timeout-ms', 'NaN'],
  ])('refuses %s %s', (flag, value) => {
    expect(() => parseArgs(['serve', flag, value], {})).toThrow(UsageError);
    expect(() => parseArgs(['serve', `${flag}=${value}`], {})).toThrow(new RegExp(`^${flag} must be a non-negative number of milliseconds`));
  });

  it('refuses an option with no value', () => {
    expect(() => parseArgs(['serve', '--idle-timeout-ms'], {})).toThrow('--idle-timeout-ms needs a value');
    expect(() => parseArgs(['serve', '--idle-timeout-ms', '--reap-interval-ms', '5'], {})).toThrow('--idle-timeout-ms needs a value');
  });

  it('exits with status 2 and says why at start-up, before starting anything', async () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    await expect(main(['serve', '--idle-timeout-ms', '-5'])).resolves.toBe(2);
    await expect(main(['serve', '--reap-interval-ms', 'often'])).resolves.toBe(2);
    expect(written.join('')).toContain('switchboard: --idle-timeout-ms must be a non-negative number of milliseconds (got "-5")');
    expect(written.join('')).toContain('switchboard: --reap-interval-ms must be a non-negative number of milliseconds (got "often")');
  });
});
