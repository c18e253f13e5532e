/** What every benchmark module reports and how the runner talks to it. */
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

/** A metric a group could not measure (the rest of the group's figures still count). */
export interface MetricError {
  name: string;
  error: string;
}

export const isMetricError = (m: Metric | MetricError): m is MetricError => 'error' in m;

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
  /** `--scaling`: a group also measures its sizes sweep and reports it with `point`. */
  scaling: boolean;
  /** Which metrics of the group to produce (`--only`); a group may skip the others. */
  wants(name: string): boolean;
  /** Progress lines, on stderr so the table on stdout stays clean. */
  progress(message: string): void;
  /** A scaling point (only asked for with `--scaling`). */
  point(p: ScalingPoint): void;
}

export interface BenchGroup {
  /** The metric names this group produces; each one it is asked for must come back measured. */
  names: readonly string[];
  /** Runs only when asked for by name (`--only`) or with `--big-db`, never in a plain run. */
  optIn?: boolean;
  run(ctx: BenchContext): Promise<(Metric | MetricError)[]>;
}
