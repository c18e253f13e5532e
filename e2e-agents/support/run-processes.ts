import { readFileSync } from 'node:fs';
import { listProcesses, type ProcInfo } from '../../src/main/test-support/processes';

/**
 * Every test run gives its `serve` a unique marker variable; agents, their wrappers, native
 * binaries and helpers all inherit it (none of these agents clears its environment), so the
 * marker finds each of them however they were started, re-parented or regrouped (Linux /proc).
 */
export const RUN_MARKER_ENV = 'SWITCHBOARD_INTEROP_RUN';

function environ(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8');
  } catch {
    return '';
  }
}

/** The host's own watchdog (it carries the marker too, and lives as long as its host). */
export const isWatchdog = (p: ProcInfo): boolean => /--host-pid \d+/.test(p.cmdline);

/**
 * Live processes carrying this run's marker, other than the listed ones (the host itself);
 * `withWatchdog` counts the host's watchdog too (it must be gone once the host is).
 */
export function runProcesses(marker: string, except: readonly (number | undefined)[] = [], withWatchdog = true): ProcInfo[] {
  const needle = `${RUN_MARKER_ENV}=${marker}\0`;
  return listProcesses().filter(
    (p) => !except.includes(p.pid) && p.pid !== process.pid && (withWatchdog || !isWatchdog(p)) && environ(p.pid).includes(needle),
  );
}

/** For failure messages: what is still running. */
export const listing = (procs: ProcInfo[]): string => procs.map((p) => `${p.pid} (pgid ${p.pgid}) ${p.cmdline.slice(0, 160)}`).join('\n');
