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
