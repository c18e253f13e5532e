/**
 * What the host tells its watchdog, one JSON object per line on the watchdog's stdin. The
 * watchdog mirrors the host's `brokers` table: an agent is tracked from its spawn until the
 * host has seen its whole process group gone (see BrokerPool.forget).
 */

/** One agent process as the host started it. */
export interface WatchedAgent {
  /** The broker id, also the agent's BROKER_ENV marker (inherited by its helpers). */
  id: string;
  pid: number;
  /** `processStartTime(pid)` when it was spawned: a recycled pid is never signalled. */
  startTime: string | null;
  /** The process group it leads (POSIX; agents are spawned detached), or null. */
  pgid: number | null;
}

export type WatchdogMessage = ({ op: 'track' } & WatchedAgent) | { op: 'untrack'; id: string };

export function encodeMessage(message: WatchdogMessage): string {
  return JSON.stringify(message) + '\n';
}

/**
 * One line from the host, or undefined for anything else: a host killed in the middle of a
 * write may leave half a line, and that must not stop the watchdog from doing its job.
 */
export function decodeMessage(line: string): WatchdogMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const m = value as Record<string, unknown>;
  if (typeof m.id !== 'string' || m.id === '') return undefined;
  if (m.op === 'untrack') return { op: 'untrack', id: m.id };
  if (m.op !== 'track' || !isPid(m.pid)) return undefined;
  return {
    op: 'track',
    id: m.id,
    pid: m.pid,
    startTime: typeof m.startTime === 'string' ? m.startTime : null,
    pgid: isPid(m.pgid) ? m.pgid : null,
  };
}

function isPid(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}
