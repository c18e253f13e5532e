import type { Logger } from '../util/log';

export interface LogEntry {
  level: string;
  msg: string;
  fields?: Record<string, unknown>;
}

/** A Logger that records every line into `entries`. */
export function captureLogger(entries: LogEntry[]): Logger {
  const log: Logger = {
    debug: (msg, fields) => entries.push({ level: 'debug', msg, ...(fields ? { fields } : {}) }),
    info: (msg, fields) => entries.push({ level: 'info', msg, ...(fields ? { fields } : {}) }),
    warn: (msg, fields) => entries.push({ level: 'warn', msg, ...(fields ? { fields } : {}) }),
    error: (msg, fields) => entries.push({ level: 'error', msg, ...(fields ? { fields } : {}) }),
    child: () => log,
  };
  return log;
}

/** Inclusive integer range, e.g. expected seqs. */
export const range = (from: number, to: number): number[] => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
