import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
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
