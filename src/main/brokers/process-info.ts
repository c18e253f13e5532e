import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * A process's start time as an opaque string, so a recorded pid is only ever killed when it
 * still names the same process (pids get recycled). Linux: field 22 of /proc/PID/stat (clock
 * ticks since boot); elsewhere `ps -o lstart=`. Undefined when the process does not exist.
 */
export function processStartTime(pid: number): string | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  if (process.platform === 'linux') {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // The command name (field 2) may contain spaces and parentheses: split after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return fields[19]; // field 22 overall: fields[0] is field 3
    } catch {
      return undefined;
    }
  }
  if (process.platform === 'win32') return isAlive(pid) ? 'win32' : undefined;
  try {
    const out = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return out.trim() || undefined;
  } catch {
    return undefined;
  }
}

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
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

/** True while any process of the group `pgid` is alive (POSIX). */
export function groupAlive(pgid: number): boolean {
  if (process.platform === 'win32') return isAlive(pgid);
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
