import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Every agent process is started with this variable set to its broker id, and whatever it
 * starts inherits it. On Linux that finds an agent's helpers after the agent itself is gone,
 * or after they left its process group, without ever trusting a bare (recyclable) pid.
 */
export const BROKER_ENV = 'SWITCHBOARD_BROKER_ID';

/**
 * A process's start time as an opaque string, so a recorded pid is only ever killed when it
 * still names the same process (pids get recycled). Linux: field 22 of /proc/PID/stat (clock
 * ticks since boot); elsewhere `ps -o lstart=`. Undefined when the process does not exist.
 */
export function processStartTime(pid: number): string | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  if (process.platform === 'linux') {
    const fields = procStat(pid);
    return fields?.[19]; // field 22 overall: fields[0] is field 3
  }
  if (process.platform === 'win32') return isAlive(pid) ? 'win32' : undefined;
  try {
    const out = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return out.trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Fields 3.. of /proc/PID/stat (state, ppid, pgrp, …), or undefined if there is no such process. */
function procStat(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces and parentheses: split after the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** Whether `processStartTime` names one process for sure (on Windows it only says "alive"). */
export const START_TIME_VERIFIABLE = process.platform !== 'win32';

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True if `pid` is alive and is still the process that started at `startTime`. */
export function isSameProcess(pid: number, startTime: string | null | undefined): boolean {
  if (!startTime) return false;
  return processStartTime(pid) === startTime;
}

/**
 * Signals a whole process group (agents started through `npx` or shell wrappers spawn
 * children that a signal to the wrapper alone would orphan). On Windows, kills the tree.
 * Only for a pid known to be ours (our live child, or verified by start time): when it leads
 * no group, the process alone is signalled.
 */
export function signalProcessTree(pid: number, signal: NodeJS.Signals): void {
  if (process.platform === 'win32') {
    try {
      execFileSync('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore' });
    } catch {
      // Already gone.
    }
    return;
  }
  if (signalGroup(pid, signal)) return;
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Signals the process group `pgid` only (POSIX). Safe after its leader died: a pid is not
 * handed out again while a group still carries it. False if there is no such group.
 */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  if (process.platform === 'win32') return false;
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** True while any process of the group `pgid` is alive (POSIX). Zombies don't count. */
export function groupAlive(pgid: number): boolean {
  if (process.platform === 'win32') return isAlive(pgid);
  try {
    process.kill(-pgid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform !== 'linux') return true;
  // An orphan killed in a container may stay a zombie until init reaps it: it holds nothing.
  return listPids().some((pid) => {
    const fields = procStat(pid);
    return fields !== undefined && Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X';
  });
}

/**
 * Linux: live processes whose environment carries `BROKER_ENV` with one of `brokerIds`, by
 * broker id. Empty elsewhere (and for processes of other users, whose environment is closed).
 */
export function processesMarkedWith(brokerIds: Iterable<string>): Map<string, number[]> {
  const wanted = new Set(brokerIds);
  const found = new Map<string, number[]>();
  if (process.platform !== 'linux' || wanted.size === 0) return found;
  const prefix = `${BROKER_ENV}=`;
  for (const pid of listPids()) {
    if (pid === process.pid) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
    } catch {
      continue;
    }
    const entry = environ.split('\0').find((e) => e.startsWith(prefix));
    const id = entry?.slice(prefix.length);
    if (id === undefined || !wanted.has(id)) continue;
    const state = procStat(pid)?.[0];
    if (state === undefined || state === 'Z' || state === 'X') continue;
    found.set(id, [...(found.get(id) ?? []), pid]);
  }
  return found;
}

/** SIGKILLs every live process carrying one of `brokerIds` (Linux); returns how many. */
export function killMarked(brokerIds: Iterable<string>): number {
  let n = 0;
  for (const pids of processesMarkedWith(brokerIds).values()) {
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
        n++;
      } catch {
        // Gone meanwhile.
      }
    }
  }
  return n;
}

function listPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return [];
  }
}
