/**
 * Structured stderr logs for the demo agent. stdout carries the protocol, so
 * nothing else may ever write there. Quiet by default: set
 * SWITCHBOARD_DEMO_LOG=debug|info to see more.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const rank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface DemoLogger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export function parseLogLevel(value: string | undefined): LogLevel {
  return value === 'debug' || value === 'info' || value === 'warn' || value === 'error' ? value : 'warn';
}

export function createDemoLogger(level: LogLevel, component = 'demo-agent'): DemoLogger {
  const emit = (lvl: LogLevel, msg: string, fields?: Record<string, unknown>): void => {
    if (rank[lvl] < rank[level]) return;
    process.stderr.write(
      JSON.stringify({ t: new Date().toISOString(), level: lvl, component, pid: process.pid, msg, ...fields }) + '\n',
    );
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
  };
}
