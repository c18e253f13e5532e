/**
 * Verdicts, the table, the comparison with a stored run and the JSON of a run: pure functions
 * of the figures, so the runner's rules (a miss fails, an unmeasured metric fails, a figure
 * more than 20% worse than the stored run fails) are tested without measuring anything.
 */
import { fmt } from './stats';
import type { Speed } from './machine';
import type { Better, Metric, ScalingPoint } from './types';

/** A metric as the run ends: measured (met or missed) or not measured at all. */
export type Outcome = { name: string; status: 'met' | 'missed'; metric: Metric } | { name: string; status: 'error'; error: string };

/** How much worse than the stored run a figure may be before it is flagged. */
export const REGRESSION = 0.2;

export function passes(m: Pick<Metric, 'value' | 'target' | 'better'>): boolean {
  return m.better === 'higher' ? m.value >= m.target : m.value <= m.target;
}

/** A metric that came back: met, missed, or an error when its value is not a number one can trust. */
export function outcomeOf(m: Metric): Outcome {
  if (!Number.isFinite(m.value)) return { name: m.name, status: 'error', error: `not measured: value is ${m.value}${m.detail ? ` (${m.detail})` : ''}` };
  return { name: m.name, status: passes(m) ? 'met' : 'missed', metric: m };
}

export interface StoredMetric {
  value: number;
  unit: string;
  target: number;
  better: Better;
  met?: boolean;
  detail?: string;
}

export interface StoredRun {
  machine?: unknown;
  command?: string;
  quick?: boolean;
  metrics: Record<string, StoredMetric>;
  errors?: Record<string, string>;
  scaling?: ScalingPoint[];
  /** The machine's speed as the run began and ended (runs from before it was recorded have none). */
  speed?: SpeedReadings;
}

export interface SpeedReadings {
  start: Speed;
  end: Speed;
}

export interface Change {
  name: string;
  old: number;
  now: number;
  /** Relative change (0.1 = 10% larger); undefined when the old figure was 0. */
  ratio: number | undefined;
  /** More than REGRESSION worse in the metric's own direction. */
  worse: boolean;
}

export function compare(outcomes: readonly Outcome[], old: StoredRun): Change[] {
  const changes: Change[] = [];
  for (const o of outcomes) {
    const before = old.metrics[o.name];
    if (o.status === 'error' || !before || !Number.isFinite(before.value)) continue;
    const now = o.metric.value;
    const ratio = before.value === 0 ? undefined : (now - before.value) / Math.abs(before.value);
    const worse = ratio !== undefined && (o.metric.better === 'lower' ? ratio > REGRESSION : ratio < -REGRESSION);
    changes.push({ name: o.name, old: before.value, now, ratio, worse });
  }
  return changes;
}

const pct = (c: Change | undefined): string => {
  if (!c) return '';
  if (c.ratio === undefined) return `was 0`;
  const s = `${c.ratio >= 0 ? '+' : ''}${(c.ratio * 100).toFixed(0)}%`;
  return c.worse ? `${s} WORSE` : s;
};

/** The table, one line per metric, in the order given. */
export function table(outcomes: readonly Outcome[], changes?: readonly Change[]): string[] {
  const byName = new Map((changes ?? []).map((c) => [c.name, c]));
  const rows = outcomes.map((o) =>
    o.status === 'error'
      ? [o.name, 'ERROR', '', '', 'ERROR', ...(changes ? [''] : []), o.error]
      : [
          o.name,
          fmt(o.metric.value),
          o.metric.unit,
          `${o.metric.better === 'higher' ? '≥' : '≤'} ${Number.isInteger(o.metric.target) ? o.metric.target : fmt(o.metric.target)}`,
          o.status === 'met' ? 'ok' : 'MISSED',
          ...(changes ? [pct(byName.get(o.name))] : []),
          o.metric.detail ?? '',
        ],
  );
  const head = ['metric', 'value', 'unit', 'target', '', ...(changes ? ['vs old'] : []), 'how'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const last = head.length - 1;
  const line = (cells: string[]): string => cells.map((c, i) => (i === 1 ? c.padStart(widths[i]!) : i === last ? c : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(head), widths.map((w, i) => '-'.repeat(i === last ? Math.min(w, 40) : w)).join('  '), ...rows.map(line)];
}

export interface Verdict {
  met: number;
  missed: string[];
  errors: string[];
  worse: string[];
  exitCode: 0 | 1;
}

export function verdict(outcomes: readonly Outcome[], changes: readonly Change[] = []): Verdict {
  const missed = outcomes.filter((o) => o.status === 'missed').map((o) => o.name);
  const errors = outcomes.filter((o) => o.status === 'error').map((o) => o.name);
  const worse = changes.filter((c) => c.worse).map((c) => c.name);
  const met = outcomes.filter((o) => o.status === 'met').length;
  return { met, missed, errors, worse, exitCode: missed.length + errors.length + worse.length > 0 ? 1 : 0 };
}

export function summary(v: Verdict, total: number): string {
  const parts = [`${v.met} of ${total} met`];
  if (v.missed.length) parts.push(`${v.missed.length} missed (${v.missed.join(', ')})`);
  if (v.errors.length) parts.push(`${v.errors.length} not measured (${v.errors.join(', ')})`);
  if (v.worse.length) parts.push(`${v.worse.length} more than ${REGRESSION * 100}% worse than the stored run (${v.worse.join(', ')})`);
  return `${parts.join('; ')}: exit ${v.exitCode}`;
}

const both = (r: SpeedReadings): Omit<Speed, 'env'> => ({
  nodeStartMs: (r.start.nodeStartMs + r.end.nodeStartMs) / 2,
  bareNodeStartMs: (r.start.bareNodeStartMs + r.end.bareNodeStartMs) / 2,
  cpuMs: (r.start.cpuMs + r.end.cpuMs) / 2,
  syscallMs: (r.start.syscallMs + r.end.syscallMs) / 2,
});
const times = (x: number): string => `${x.toFixed(2)}×`;
const ms = (x: number): string => `${Math.round(x)} ms`;
const envText = (env: Record<string, string>): string =>
  Object.keys(env).length === 0 ? 'none of them' : Object.entries(env).map(([k, v]) => `${k}=${v}`).join(', ');

/**
 * What the run says of the machine's speed: its readings, the environment variables that
 * change every Node start, and with a stored run, how its speed and environment compare with
 * that run's. A machine more than REGRESSION slower is said to be so, next to the figures
 * flagged worse (`worse`): they stay flagged, and the reader knows to compare the two builds
 * side by side before believing them.
 */
export function speedLines(now: SpeedReadings, old: StoredRun | undefined, worse: readonly string[] = []): string[] {
  const reading = (r: Speed): string =>
    `node -e 0 in ${ms(r.nodeStartMs)} (${ms(r.bareNodeStartMs)} with only PATH set), the CPU probe ${ms(r.cpuMs)}, 20,000 stat calls ${ms(r.syscallMs)}`;
  const lines = [`machine speed: ${reading(now.start)} as the run began; ${reading(now.end)} as it ended`];
  if (Object.keys(now.start.env).length > 0) {
    lines.push(`the environment sets ${envText(now.start.env)}: every host and agent this run started paid for it as it started`);
  }
  if (!old) return lines;
  if (!isSpeedReadings(old.speed)) {
    lines.push('the stored run has no speed reading (taken before runs recorded one): its figures and these may come from machines of different speeds');
    return lines;
  }
  const before = both(old.speed);
  const mine = both(now);
  const start = mine.nodeStartMs / before.nodeStartMs;
  const cpu = mine.cpuMs / before.cpuMs;
  const sys = mine.syscallMs / before.syscallMs;
  lines.push(
    `against the stored run (node -e 0 in ${ms(before.nodeStartMs)}, the CPU probe ${ms(before.cpuMs)}, the stat calls ${ms(before.syscallMs)}): ${times(start)} its start-up time, ${times(cpu)} its CPU probe's, ${times(sys)} its stat calls'`,
  );
  if (envText(old.speed.start.env) !== envText(now.start.env)) {
    lines.push(`the stored run's environment set ${envText(old.speed.start.env)}; this one's ${envText(now.start.env)}`);
  }
  if (Math.max(start, cpu, sys) > 1 + REGRESSION) {
    lines.push(
      `this run's machine or environment was slower than the stored run's${worse.length ? `: the ${worse.length} figure(s) flagged WORSE (${worse.join(', ')}) may be the machine or the environment; compare the builds side by side before believing them` : ''}`,
    );
  } else if (Math.min(start, cpu, sys) < 1 / (1 + REGRESSION)) {
    lines.push("this run's machine or environment was faster than the stored run's: figures that read better may be the machine or the environment");
  }
  return lines;
}

function isSpeed(x: unknown): x is Speed {
  if (typeof x !== 'object' || x === null) return false;
  const s = x as Speed;
  const positive = (n: unknown): boolean => typeof n === 'number' && Number.isFinite(n) && n > 0;
  return positive(s.nodeStartMs) && positive(s.bareNodeStartMs) && positive(s.cpuMs) && positive(s.syscallMs) && typeof s.env === 'object' && s.env !== null;
}

function isSpeedReadings(x: unknown): x is SpeedReadings {
  return typeof x === 'object' && x !== null && isSpeed((x as SpeedReadings).start) && isSpeed((x as SpeedReadings).end);
}

/** The JSON `--out` writes and `--compare` reads. */
export function storedRun(
  outcomes: readonly Outcome[],
  extra: {
    machine: unknown;
    speed?: SpeedReadings;
    command: string;
    quick: boolean;
    seconds: number;
    scaling: readonly ScalingPoint[];
    verdict: Verdict;
    targetsOverridden: Record<string, number>;
  },
): StoredRun & Record<string, unknown> {
  const metrics: Record<string, StoredMetric> = {};
  const errors: Record<string, string> = {};
  for (const o of outcomes) {
    if (o.status === 'error') errors[o.name] = o.error;
    else {
      const m = o.metric;
      metrics[o.name] = { value: m.value, unit: m.unit, target: m.target, better: m.better, met: o.status === 'met', ...(m.detail ? { detail: m.detail } : {}) };
    }
  }
  return {
    machine: extra.machine,
    ...(extra.speed ? { speed: extra.speed } : {}),
    command: extra.command,
    quick: extra.quick,
    seconds: Math.round(extra.seconds),
    exitCode: extra.verdict.exitCode,
    ...(Object.keys(extra.targetsOverridden).length ? { targetsOverridden: extra.targetsOverridden } : {}),
    metrics,
    ...(Object.keys(errors).length ? { errors } : {}),
    ...(extra.scaling.length ? { scaling: [...extra.scaling] } : {}),
  };
}

export function parseStoredRun(text: string, file: string): StoredRun {
  const json = JSON.parse(text) as unknown;
  if (typeof json !== 'object' || json === null || typeof (json as StoredRun).metrics !== 'object') throw new Error(`${file} is not the JSON of a bench run (no "metrics")`);
  return json as StoredRun;
}
