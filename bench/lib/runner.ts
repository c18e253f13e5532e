/**
 * Runs benchmark groups and turns what they report into a verdict and an exit code. A group
 * that throws leaves every metric it was asked for as an error ("not measured"), and so does a
 * group that returns without one of them: a figure that could not be taken never reads as 0
 * or as met. The run goes on with the next group, so one broken figure does not hide the rest.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { USAGE, type BenchArgs } from './args';
import type { Speed } from './machine';
import { compare, outcomeOf, parseStoredRun, speedLines, storedRun, summary, table, verdict, type Outcome, type SpeedReadings } from './report';
import { fmt } from './stats';
import { isMetricError, type BenchContext, type BenchGroup, type Metric, type MetricError, type ScalingPoint } from './types';

export interface RunnerIo {
  out(line: string): void;
  err(line: string): void;
  machine(): unknown;
  command: string;
  /**
   * Waits, before each group, for the machine to be quiet after the last one (its processes
   * exiting, its files reaching the disk); resolves with what it saw, said in the progress.
   */
  settle?: () => Promise<string>;
  /** The machine's speed (`speed` in machine.ts), read on a quiet machine as the run begins and ends. */
  speed?: () => Speed;
}

export const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 300);

/** Runs what `args` asks for; resolves with the exit code (0 all met, 1 otherwise, 2 usage). */
export async function runBench(groups: readonly BenchGroup[], args: BenchArgs, io: RunnerIo): Promise<number> {
  const all = groups.flatMap((g) => g.names);
  const unknown = [...(args.only ?? []), ...Object.keys(args.targets)].filter((n) => !all.includes(n));
  if (unknown.length > 0) {
    io.err(`unknown metric(s): ${unknown.join(', ')}\nknown: ${all.join(', ')}\n${USAGE}`);
    return 2;
  }
  let old;
  if (args.compare) {
    try {
      old = parseStoredRun(readFileSync(args.compare, 'utf8'), args.compare);
    } catch (err) {
      io.err(`--compare: ${errorText(err)}`);
      return 2;
    }
  }
  const optIn = groups.filter((g) => g.optIn).flatMap((g) => g.names);
  const wanted = new Set(args.bigDb ? [...(args.only ?? []), ...optIn] : (args.only ?? all.filter((n) => !optIn.includes(n))));
  const scaling: ScalingPoint[] = [];
  const ctx: BenchContext = {
    quick: args.quick,
    scaling: args.scaling,
    wants: (name) => wanted.has(name),
    progress: (message) => io.err(`  · ${message}`),
    point: (p) => scaling.push(p),
  };
  const readSpeed = async (when: string): Promise<Speed | undefined> => {
    if (!io.speed) return undefined;
    io.err(`machine speed (${when})`);
    if (io.settle) io.err(`  · ${await io.settle()}`);
    const s = io.speed();
    io.err(`  · node -e 0 in ${Math.round(s.nodeStartMs)} ms (${Math.round(s.bareNodeStartMs)} ms with only PATH set), the CPU probe ${Math.round(s.cpuMs)} ms, 20,000 stat calls ${Math.round(s.syscallMs)} ms`);
    return s;
  };
  const started = performance.now();
  const speedAtStart = await readSpeed('as the run begins');
  const outcomes: Outcome[] = [];
  for (const group of groups) {
    const names = group.names.filter((n) => wanted.has(n));
    if (names.length === 0) continue;
    io.err(names.join(', '));
    if (io.settle) io.err(`  · ${await io.settle()}`);
    let metrics: (Metric | MetricError)[] = [];
    let failure: string | undefined;
    try {
      metrics = await group.run(ctx);
    } catch (err) {
      failure = errorText(err);
      io.err(`  ! ${failure}`);
      if (err instanceof Error && err.stack) io.err(err.stack.split('\n').slice(1, 6).join('\n'));
    }
    for (const name of names) {
      const m = metrics.find((x) => x.name === name);
      if (!m) {
        outcomes.push({ name, status: 'error', error: failure ?? 'not measured: the group returned no figure for it' });
        continue;
      }
      if (isMetricError(m)) {
        outcomes.push({ name, status: 'error', error: m.error });
        continue;
      }
      const target = args.targets[name];
      outcomes.push(outcomeOf(target === undefined ? m : { ...m, target, detail: `${m.detail ? `${m.detail}; ` : ''}target set by --target` }));
    }
  }
  const speedAtEnd = await readSpeed('as the run ends');
  const speed: SpeedReadings | undefined = speedAtStart && speedAtEnd ? { start: speedAtStart, end: speedAtEnd } : undefined;
  const changes = old ? compare(outcomes, old) : undefined;
  const v = verdict(outcomes, changes);
  for (const line of table(outcomes, changes)) io.out(line);
  if (scaling.length > 0) {
    io.out('\nscaling');
    for (const p of scaling) io.out(`  ${p.series.padEnd(30)} ${p.size.padEnd(14)} ${fmt(p.value).padStart(10)} ${p.unit}`);
  }
  const seconds = (performance.now() - started) / 1000;
  io.out(`\n${args.quick ? 'quick run (small sizes, not comparable with a full run), ' : ''}${seconds.toFixed(0)} s`);
  if (speed) for (const line of speedLines(speed, old, v.worse)) io.out(line);
  io.out(summary(v, outcomes.length));
  if (args.out) {
    const json = storedRun(outcomes, { machine: io.machine(), speed, command: io.command, quick: args.quick, seconds, scaling, verdict: v, targetsOverridden: args.targets });
    writeFileSync(args.out, JSON.stringify(json, null, 2) + '\n');
  }
  return v.exitCode;
}
