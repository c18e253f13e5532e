import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { processesMarkedWith } from '../util/process-info';

/** A process's start time as the host records it (for tests above the brokers that speak to a watchdog). */
export { processStartTime } from '../util/process-info';

/**
 * Real processes, as tests count them (Linux /proc). Zombies are dead: an orphan killed in a
 * container may stay a zombie until init reaps it, and it holds no resources.
 */
export interface ProcInfo {
  pid: number;
  ppid: number;
  pgid: number;
  state: string;
  cmdline: string;
}

export function readProc(pid: number): ProcInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may contain spaces and parentheses: split after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    return { pid, state: fields[0] ?? '?', ppid: Number(fields[1]), pgid: Number(fields[2]), cmdline };
  } catch {
    return undefined;
  }
}

/** Every live (non-zombie) process. */
export function listProcesses(): ProcInfo[] {
  const out: ProcInfo[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const info = readProc(Number(name));
    if (info && info.state !== 'Z' && info.state !== 'X') out.push(info);
  }
  return out;
}

export function isLive(pid: number): boolean {
  const info = readProc(pid);
  return !!info && info.state !== 'Z' && info.state !== 'X';
}

/** Demo agent processes started for this data dir (their command line names it). */
export function demoAgents(dataDir: string): ProcInfo[] {
  return listProcesses().filter((p) => p.cmdline.includes('demo-agent') && p.cmdline.includes(dataDir));
}

/** Live members of the given process groups (an agent and the helpers it started). */
export function groupMembers(pgids: Iterable<number>): ProcInfo[] {
  const wanted = new Set(pgids);
  return listProcesses().filter((p) => wanted.has(p.pgid));
}

/**
 * Everything a data dir's agents run: the demo agents and every member of their groups,
 * plus the members of groups remembered earlier (a helper outlives its dead leader).
 */
export function agentFootprint(dataDir: string, knownGroups: Iterable<number> = []): ProcInfo[] {
  const agents = demoAgents(dataDir);
  const groups = new Set([...knownGroups, ...agents.map((a) => a.pgid)]);
  const byPid = new Map<number, ProcInfo>();
  for (const p of [...agents, ...groupMembers(groups)]) byPid.set(p.pid, p);
  return [...byPid.values()];
}

/** Polls `check` until it holds, up to `timeoutMs`. For conditions no event announces (a process dying). */
export async function waitUntil(check: () => boolean, what: string, timeoutMs = 10_000, everyMs = 25): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Last resort for a test's own cleanup: SIGKILL each process group, then each pid. */
export function killAll(procs: Iterable<ProcInfo | number>): void {
  for (const p of procs) {
    const pid = typeof p === 'number' ? p : p.pid;
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
  }
}

/** The watchdog started by the host `hostPid` (it names its host on its command line). */
export function watchdogOf(hostPid: number): ProcInfo | undefined {
  return listProcesses().find((p) => /--host-pid (\d+)/.exec(p.cmdline)?.[1] === String(hostPid));
}

/**
 * What a process's descriptors point at (`socket:[123]`, `pipe:[45]`, paths), or only
 * descriptor `fd`'s; empty once it is gone.
 */
export function openFiles(pid: number, fd?: number): string[] {
  let fds: string[];
  try {
    fds = fd === undefined ? readdirSync(`/proc/${pid}/fd`) : [String(fd)];
  } catch {
    return [];
  }
  return fds.flatMap((n) => {
    try {
      return [readlinkSync(`/proc/${pid}/fd/${n}`)];
    } catch {
      return []; // closed meanwhile
    }
  });
}

/** Every live process carrying one of `brokerIds` as its BROKER_ENV marker: agents, launchers, helpers (Linux). */
export function markedProcesses(brokerIds: Iterable<string>): number[] {
  return [...processesMarkedWith(brokerIds).values()].flat();
}

/**
 * `markedProcesses` without tsx's esbuild service: agents run from source start one for a moment
 * (it inherits the marker), so a count of what an agent runs leaves it out.
 */
export function markedAgentProcesses(brokerIds: Iterable<string>): number[] {
  return markedProcesses(brokerIds).filter((pid) => !readProc(pid)?.cmdline.includes('esbuild'));
}
