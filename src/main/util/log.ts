/** Structured logs, quiet by default: level, component, message, fields. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(component: string): Logger;
}

export function createLogger(
  level: LogLevel = (process.env.SWITCHBOARD_LOG as LogLevel | undefined) ?? 'warn',
  component = 'host',
  write: (line: string) => void = (line) => process.stderr.write(line + '\n'),
): Logger {
  const emit = (lvl: LogLevel, msg: string, fields?: Record<string, unknown>): void => {
    if (order[lvl] < (order[level] ?? 30)) return;
    write(JSON.stringify({ t: new Date().toISOString(), level: lvl, component, msg, ...fields }));
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    child: (c) => createLogger(level, `${component}.${c}`, write),
  };
}

export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => silentLogger,
};
