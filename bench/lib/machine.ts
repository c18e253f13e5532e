import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { cpus, freemem, loadavg, release, totalmem, type as osType } from 'node:os';

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  freeMemoryGiB: number;
  node: string;
  os: string;
  /** Other work on the machine skews every figure: the load is recorded with them. */
  loadAverage: number[];
}

const gib = (bytes: number): number => Math.round((bytes / 2 ** 30) * 10) / 10;

export function machine(): Machine {
  const cpu = cpus();
  return {
    cpu: cpu[0]?.model.trim() ?? 'unknown',
    cores: cpu.length,
    memoryGiB: gib(totalmem()),
    freeMemoryGiB: gib(freemem()),
    node: process.version,
    os: `${osType()} ${release()} ${process.arch}`,
    loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

/** Idle and total CPU time of the whole machine so far (Linux /proc/stat), or undefined elsewhere. */
function cpuTimes(): { idle: number; total: number } | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    // idle + iowait: waiting on the disk is not the CPU being busy, but it is not quiet either.
    return { idle: fields[3]!, total: fields.reduce((a, b) => a + b, 0) };
  } catch {
    return undefined;
  }
}

/**
 * Before a group: what the previous one wrote goes to the disk (`sync`), then this waits until
 * the machine's CPUs are at least `idleShare` idle over two windows of `windowMs` in a row (the
 * last group's browsers, hosts and agents gone), for at most `maxMs`. A window figure taken
 * right after the stream group read 41.6 ms where it reads 30–33 ms on its own (stop 32).
 */
export async function settle(idleShare = 0.9, windowMs = 250, maxMs = 15_000): Promise<string> {
  const started = performance.now();
  spawnSync('sync');
  let quiet = 0;
  let last = 0;
  while (performance.now() - started < maxMs) {
    const a = cpuTimes();
    await new Promise((r) => setTimeout(r, windowMs));
    const b = cpuTimes();
    if (!a || !b) return 'machine not watched (no /proc/stat)';
    last = (b.idle - a.idle) / Math.max(1, b.total - a.total);
    quiet = last >= idleShare ? quiet + 1 : 0;
    if (quiet >= 2) return `machine quiet after ${((performance.now() - started) / 1000).toFixed(1)} s`;
  }
  return `machine still busy after ${maxMs / 1000} s (${Math.round(last * 100)}% idle): figures may read high`;
}

/** Variables of the run's environment that change what every Node process costs to start. */
const START_VARIABLES = ['NODE_EXTRA_CA_CERTS', 'NODE_OPTIONS'] as const;

/**
 * How fast this machine is right now, by fixed probes, so a run records the day it was taken
 * on. Two things moved the figures here by up to 2× from one session to the next: the CPU's
 * speed, and the environment. With `NODE_EXTRA_CA_CERTS` set (this machine sets it to the
 * system's 220 KB bundle), Node 20 parses that file and its own roots as it starts
 * (nodejs/node#40524): `node -e 0` took 88 ms with it and 48 ms without it, so every host and
 * agent start, and `host_ready_ms` (258 → 198 ms), paid it.
 */
export interface Speed {
  /** `node -e 0` spawned and waited for, with the run's environment (as every host and agent is started). Median of 7, ms. */
  nodeStartMs: number;
  /** The same with only PATH set: the machine without the environment's cost. Median of 7, ms. */
  bareNodeStartMs: number;
  /** A fixed piece of JavaScript work in this process (JSON, a sort, a hash). Median of 7, ms. */
  cpuMs: number;
  /**
   * 20,000 `stat` calls of one file: what the kernel charges a system call, which `git status`
   * and SQLite make by the thousand (3–5 µs each here). Median of 7, ms.
   */
  syscallMs: number;
  /** Those of START_VARIABLES the environment sets, with their values. */
  env: Record<string, string>;
}

function cpuWork(): void {
  const rows = Array.from({ length: 20_000 }, (_, i) => ({ id: i, name: `row ${i}`, tags: [i % 7, i % 11], text: 'x'.repeat(i % 50) }));
  const json = JSON.stringify(rows);
  const back = JSON.parse(json) as typeof rows;
  back.sort((a, b) => a.text.length - b.text.length || b.id - a.id);
  createHash('sha256').update(json).update(Buffer.alloc(4 << 20, 1)).digest();
}

/** The median of 7 after 3 unmeasured (the first spawns and compiles are not the machine's speed). */
const median = (take: () => number): number => {
  for (let i = 0; i < 3; i++) take();
  const all = Array.from({ length: 7 }, take).sort((a, b) => a - b);
  return Math.round(all[3]! * 10) / 10;
};

const timedMs = (fn: () => void): number => {
  const start = performance.now();
  fn();
  return performance.now() - start;
};

function syscalls(): void {
  for (let i = 0; i < 20_000; i++) statSync(process.execPath);
}

const nodeStart = (env: NodeJS.ProcessEnv): number => median(() => timedMs(() => spawnSync(process.execPath, ['-e', '0'], { stdio: 'ignore', env })));

export function speed(env: NodeJS.ProcessEnv = process.env): Speed {
  const set: Record<string, string> = {};
  for (const name of START_VARIABLES) if (env[name]) set[name] = env[name];
  return {
    nodeStartMs: nodeStart(env),
    bareNodeStartMs: nodeStart({ PATH: env.PATH ?? '' }),
    cpuMs: median(() => timedMs(cpuWork)),
    syscallMs: median(() => timedMs(syscalls)),
    env: set,
  };
}
