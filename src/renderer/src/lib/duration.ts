/**
 * Durations as a person writes and reads them ("30 min", "1 h 30 min", "45 s"), for Settings:
 * the host keeps milliseconds, the window never shows them.
 */

/** Node's timers cap (2^31 - 1 ms, about 24.8 days): the host clamps to it. */
export const MAX_DURATION_MS = 2_147_483_647;

export interface DurationRules {
  /** `0`, `off` and `never` mean 0 (the setting turns something off). */
  allowOff?: boolean;
  /** The shortest allowed (ms); 0 is still allowed with `allowOff`. */
  minMs?: number;
  maxMs?: number;
}

export type DurationParse = { ok: true; ms: number } | { ok: false; message: string };

const UNITS: Record<string, number> = {
  h: 3_600_000,
  hr: 3_600_000,
  hrs: 3_600_000,
  hour: 3_600_000,
  hours: 3_600_000,
  m: 60_000,
  min: 60_000,
  mins: 60_000,
  minute: 60_000,
  minutes: 60_000,
  s: 1_000,
  sec: 1_000,
  secs: 1_000,
  second: 1_000,
  seconds: 1_000,
};

const PART = /(\d+(?:[.,]\d+)?)\s*([a-z]+)?/y;
const SEPARATOR = /(?:\s*,\s*|\s+and\s+|\s*)/y;

/** Reads "30 min", "1h 30m", "1.5 hours", "90 s", "2 min, 30 s"; says what is wrong otherwise. */
export function parseDuration(text: string, rules: DurationRules = {}): DurationParse {
  const input = text.trim().toLowerCase();
  if (input === '') return { ok: false, message: rules.allowOff ? 'Enter a duration, like 30 min, or off.' : 'Enter a duration, like 30 min or 45 s.' };
  if (rules.allowOff && ['0', 'off', 'never', 'none'].includes(input)) return { ok: true, ms: 0 };
  let total = 0;
  let at = 0;
  let parts = 0;
  while (at < input.length) {
    PART.lastIndex = at;
    const m = PART.exec(input);
    if (!m) return { ok: false, message: `“${text.trim()}” is not a duration: write it like 30 min or 45 s.` };
    const [, number = '', unit] = m;
    if (unit === undefined) return { ok: false, message: `Add a unit to ${number}: min or s (for example ${number} min).` };
    if (unit === 'ms' || unit.startsWith('milli')) return { ok: false, message: 'Use seconds, minutes or hours, not milliseconds.' };
    const scale = UNITS[unit];
    if (scale === undefined) return { ok: false, message: `“${unit}” is not a unit here: use h, min or s.` };
    total += Number(number.replace(',', '.')) * scale;
    parts++;
    at = PART.lastIndex;
    SEPARATOR.lastIndex = at;
    SEPARATOR.exec(input);
    at = SEPARATOR.lastIndex;
  }
  if (parts === 0) return { ok: false, message: `“${text.trim()}” is not a duration: write it like 30 min or 45 s.` };
  const ms = Math.round(total);
  if (ms === 0 && rules.allowOff) return { ok: true, ms: 0 };
  if (rules.minMs !== undefined && ms < rules.minMs) return { ok: false, message: `At least ${formatDuration(rules.minMs)}${rules.allowOff ? ', or off' : ''}.` };
  const max = rules.maxMs ?? MAX_DURATION_MS;
  if (ms > max) return { ok: false, message: `At most ${formatDuration(max)}.` };
  return { ok: true, ms };
}

/** 1_800_000 → "30 min", 5_400_000 → "1 h 30 min", 90_000 → "1 min 30 s", 0 → "0 s" ("off" with `off`). */
export function formatDuration(ms: number, off?: string): string {
  if (ms === 0) return off ?? '0 s';
  const parts: string[] = [];
  let rest = Math.max(0, ms);
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const min = Math.floor(rest / 60_000);
  rest -= min * 60_000;
  const s = rest / 1_000;
  if (h) parts.push(`${h} h`);
  if (min) parts.push(`${min} min`);
  if (s) parts.push(`${Number.isInteger(s) ? s : Math.round(s * 10) / 10} s`);
  return parts.join(' ');
}
