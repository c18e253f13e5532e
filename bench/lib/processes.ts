/**
 * The processes of a benchmark's host, from /proc: the CPU each used, and pinning them to cores
 * so a measurement of the host's own work is not its wait for a core (`bench/profile.ts --pin`,
 * `bench/ingest-ab.ts --pin`).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU seconds (user + system) and minor page faults of `pid` and its descendants, by process,
 * from /proc.
 */
export function cpuByProcess(pid: number): Map<number, { name: string; seconds: number; faults: number }> {
  const stats = new Map<number, { ppid: number; name: string; seconds: number; faults: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean).map((a) => a.split('/').at(-1)).join(' ');
      stats.set(Number(entry), { ppid: Number(fields[1]), name: cmd.slice(0, 60), seconds: (Number(fields[11]) + Number(fields[12])) / 100, faults: Number(fields[7]) });
    } catch {
      // The process exited between the listing and the read: it is not one of ours any more.
    }
  }
  const mine = new Map<number, { name: string; seconds: number; faults: number }>();
  const add = (p: number): void => {
    const s = stats.get(p);
    if (!s) return;
    mine.set(p, { name: s.name, seconds: s.seconds, faults: s.faults });
    for (const [child, c] of stats) if (c.ppid === p) add(child);
  };
  add(pid);
  return mine;
}

/**
 * A host's CPU so far, in ms: its own, and its agents' (every other process of its tree, the
 * watchdog included) with their minor page faults.
 */
export function hostTreeCpu(hostPid: number): { host: number; agents: number; agentFaults: number } {
  let host = 0;
  let agents = 0;
  let agentFaults = 0;
  for (const [p, { seconds, faults }] of cpuByProcess(hostPid)) {
    if (p === hostPid) {
      host = seconds * 1000;
      continue;
    }
    agents += seconds * 1000;
    agentFaults += faults;
  }
  return { host, agents, agentFaults };
}

/** The host on core 0, the rest of its tree and this process on core 1 (every thread). */
export function pinHost(hostPid: number): void {
  const taskset = (core: number, pid: number): void => {
    execFileSync('taskset', ['-a', '-p', '-c', String(core), String(pid)], { stdio: 'ignore' });
  };
  taskset(0, hostPid);
  for (const pid of cpuByProcess(hostPid).keys()) if (pid !== hostPid) taskset(1, pid);
  taskset(1, process.pid);
}

/**
 * Waits until the processes of `pids`' trees (hosts, their agents) used at most `busyMs` of CPU
 * over a `windowMs` window, at most `maxMs` in all; resolves with the ms waited. A host's work
 * after a flood (search batches within a second, index merges a step a turn) is its own: before
 * the next figure is taken, on this host or another, it is left to finish, so no figure is
 * charged another's leftovers (stop 42 in docs/performance.md). /proc counts CPU in 10 ms ticks.
 */
export async function quiet(pids: readonly number[], o: { windowMs?: number; busyMs?: number; maxMs?: number } = {}): Promise<number> {
  const windowMs = o.windowMs ?? 200;
  const busyMs = o.busyMs ?? 10;
  const maxMs = o.maxMs ?? 5_000;
  const total = (): number => {
    let seconds = 0;
    for (const pid of pids) for (const p of cpuByProcess(pid).values()) seconds += p.seconds;
    return seconds * 1000;
  };
  const start = performance.now();
  let before = total();
  while (performance.now() - start < maxMs) {
    await new Promise((r) => setTimeout(r, windowMs));
    const now = total();
    if (now - before <= busyMs) break;
    before = now;
  }
  return performance.now() - start;
}
