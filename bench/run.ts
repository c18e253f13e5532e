/**
 * `npm run bench`: every figure issue 10 names, on the built app, the real demo agent, real
 * SQLite files and (for window figures) Chromium through the headless host. Prints a table;
 * `--out FILE` writes `{machine, metrics}` as JSON. See bench/lib/args.ts for the options.
 * Not part of `npm test`: it takes minutes and wants a quiet machine.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs, USAGE } from './lib/args';
import { machine } from './lib/machine';
import { fmt } from './lib/stats';
import type { BenchContext, BenchGroup, Metric, ScalingPoint } from './lib/types';
import { backup } from './metrics/backup';
import { hostMetrics } from './metrics/host-scale';
import { ingest } from './metrics/ingest';
import { latency } from './metrics/latency';
import { serveReady } from './metrics/serve-ready';
import { soak } from './metrics/soak';
import { stream } from './metrics/stream';
import { switching } from './metrics/switching';
import { search } from './metrics/search';
import { windowMetrics } from './metrics/window';

/** In table order. */
const GROUPS: BenchGroup[] = [stream, ingest, latency, switching, search, windowMetrics, hostMetrics, serveReady, soak, backup];
const ALL = GROUPS.flatMap((g) => g.names);

function passes(m: Metric): boolean {
  return m.better === 'higher' ? m.value >= m.target : m.value <= m.target;
}

function printTable(metrics: Metric[]): void {
  const rows = metrics.map((m) => [m.name, fmt(m.value), m.unit, `${m.better === 'higher' ? '≥' : '≤'} ${m.target}`, passes(m) ? 'ok' : 'MISSED', m.detail ?? '']);
  const head = ['metric', 'value', 'unit', 'target', '', 'how'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i === 1 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}

function printScaling(points: ScalingPoint[]): void {
  if (points.length === 0) return;
  console.log('\nscaling');
  for (const p of points) console.log(`  ${p.series.padEnd(24)} ${p.size.padEnd(14)} ${fmt(p.value).padStart(10)} ${p.unit}`);
}

async function main(): Promise<void> {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    console.error((err as Error).message);
    process.exitCode = 2;
    return;
  }
  const unknown = (args.only ?? []).filter((n) => !ALL.includes(n));
  if (unknown.length > 0) {
    console.error(`unknown metric(s): ${unknown.join(', ')}\nknown: ${ALL.join(', ')}\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const wanted = new Set(args.only ?? ALL);
  const ctx: BenchContext = {
    quick: args.quick,
    wants: (name) => wanted.has(name),
    progress: (message) => process.stderr.write(`  · ${message}\n`),
  };
  const started = performance.now();
  const metrics: Metric[] = [];
  const scaling: ScalingPoint[] = [];
  for (const group of GROUPS) {
    if (!group.names.some((n) => wanted.has(n))) continue;
    process.stderr.write(`${group.names.filter((n) => wanted.has(n)).join(', ')}\n`);
    metrics.push(...(await group.run(ctx)).filter((m) => wanted.has(m.name)));
    if (args.scaling && group.scaling) scaling.push(...(await group.scaling(ctx)));
  }
  printTable(metrics);
  printScaling(scaling);
  console.log(`\n${args.quick ? 'quick run (small sizes), ' : ''}${((performance.now() - started) / 1000).toFixed(0)} s`);
  if (args.out) {
    const json = {
      machine: machine(),
      command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim(),
      quick: args.quick,
      metrics: Object.fromEntries(metrics.map((m) => [m.name, { value: m.value, unit: m.unit, target: m.target, better: m.better, ...(m.detail ? { detail: m.detail } : {}) }])),
      ...(scaling.length > 0 ? { scaling } : {}),
    };
    writeFileSync(args.out, JSON.stringify(json, null, 2) + '\n');
  }
}

await main();
// Browsers, agents and sockets are all closed by now; nothing else should hold the process open.
process.exit(process.exitCode ?? 0);
