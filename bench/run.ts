/**
 * `npm run bench`: every figure of issues 10, 19 and 21 (and with `--big-db`, issue 23's
 * figures on a 10 GB database), on the built app, the real demo agent,
 * real SQLite files and, for window figures, the real renderer in Chromium through the
 * headless host, driven as a person drives it. Prints a table; exits 1 when a target is
 * missed or a figure could not be measured (bench/lib/runner.ts). See bench/lib/args.ts for
 * the options. Not part of `npm test`: it takes many minutes and wants a quiet machine.
 */
import { parseArgs } from './lib/args';
import { machine, settle, speed } from './lib/machine';
import { runBench } from './lib/runner';
import type { BenchGroup } from './lib/types';
import { acpxComparison } from './metrics/acpx';
import { gitMetrics } from './metrics/git';
import { backup } from './metrics/backup';
import { walGrowth } from './metrics/wal-growth';
import { bigDb } from './metrics/big-db';
import { hostLoop } from './metrics/host-loop';
import { hostMetrics } from './metrics/host-scale';
import { ingest } from './metrics/ingest';
import { latency } from './metrics/latency';
import { openArchive } from './metrics/open-archive';
import { search } from './metrics/search';
import { serveReady } from './metrics/serve-ready';
import { soak } from './metrics/soak';
import { stream } from './metrics/stream';
import { switching } from './metrics/switching';
import { windowMetrics } from './metrics/window';
import { worktreeCreateMetrics } from './metrics/worktree-create';

/** In table order. */
const GROUPS: BenchGroup[] = [stream, windowMetrics, openArchive, ingest, acpxComparison, hostLoop, latency, switching, search, gitMetrics, worktreeCreateMetrics, hostMetrics, serveReady, soak, backup, walGrowth, bigDb];

let code: number;
try {
  const args = parseArgs(process.argv.slice(2));
  code = await runBench(GROUPS, args, {
    out: (line) => console.log(line),
    err: (line) => process.stderr.write(`${line}\n`),
    machine,
    settle,
    speed,
    command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim(),
  });
} catch (err) {
  console.error((err as Error).message);
  code = 2;
}
// Browsers, agents and sockets are all closed by now; nothing else should hold the process open.
process.exit(code);
