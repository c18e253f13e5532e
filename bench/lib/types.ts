/** What every benchmark module reports and how `run.ts` talks to it. */
export type Better = 'higher' | 'lower';

export interface Metric {
  name: string;
  value: number;
  unit: string;
  target: number;
  better: Better;
  /** How it was measured (sizes, reps, the figures a ratio is made of). */
  detail?: string;
}

/** One point of a scaling sweep (`--scaling`): the same measure at another size. */
export interface ScalingPoint {
  series: string;
  size: string;
  value: number;
  unit: string;
}

export interface BenchContext {
  /** Small sizes, for development (`--quick`). */
  quick: boolean;
  /** Which metrics of the group to produce (`--only`); a group may skip the others. */
  wants(name: string): boolean;
  /** Progress lines, on stderr so the table on stdout stays clean. */
  progress(message: string): void;
}

export interface BenchGroup {
  /** The metric names this group produces. */
  names: readonly string[];
  run(ctx: BenchContext): Promise<Metric[]>;
  /** Optional scaling sweep, run only with `--scaling` (and only when a name of the group is wanted). */
  scaling?(ctx: BenchContext): Promise<ScalingPoint[]>;
}
