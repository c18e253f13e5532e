import { randomBytes } from 'node:crypto';
import type { SettingsT } from '../../shared/contract';
import { defaultDataDir } from '../datadir/paths';
import { parseDuration } from '../datadir/settings';
import type { LogLevel } from '../util/log';
import { DATA_COMMANDS, DATA_USAGE, DATA_USAGE_LINES, parseDataCommand, type DataCommand } from './data-commands';

export interface ServeOptions {
  port: number;
  host: string;
  dataDir: string;
  token: string;
  settings: Partial<SettingsT>;
  logLevel: LogLevel;
}

export type Parsed = { command: 'help' } | { command: 'serve'; options: ServeOptions } | DataCommand;

export class UsageError extends Error {}

export const USAGE = `Usage: switchboard serve [options]
${DATA_USAGE_LINES}
Runs the Switchboard session host headless and serves its window to a browser.

Options:
  --port N                  port to listen on; 0 picks a free one (default 0)
  --host ADDR               address to listen on (default 127.0.0.1)
  --data-dir DIR            where sessions and transcripts live
                            (default: ${defaultDataDir()})
  --token TOKEN             access token for the page and socket (default: random per run)
  --idle-timeout-ms N       close agent sessions nobody watches after N ms idle; 0 disables (default 1800000)
  --reap-interval-ms N      how often to look for idle sessions; 0 disables (default 60000)
  --permission-timeout-ms N deny a permission request nobody can see after N ms (default 300000)
  --max-sessions-per-broker N  sessions sharing one agent process (default 8)
  --log-level LEVEL         debug | info | warn | error (default info); logs go to stderr
  -h, --help                show this help

${DATA_USAGE}
Exit status: 0 after a clean quit, 2 for a usage error, 3 when the data folder or its
database cannot be used (disk full, not writable, damaged, or from a newer Switchboard;
the message names the file and what to do), 1 for anything else.
`;

const VALUE_OPTIONS = new Set([
  'port',
  'host',
  'data-dir',
  'token',
  'idle-timeout-ms',
  'reap-interval-ms',
  'permission-timeout-ms',
  'max-sessions-per-broker',
  'log-level',
]);

/** Parses `serve` options; anything unknown or invalid throws a UsageError with a clear message. */
export function parseArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Parsed {
  const args = [...argv];
  if (args.length === 0 || args.includes('--help') || args.includes('-h') || args[0] === 'help') return { command: 'help' };
  const command = args.shift();
  const dataCommand = DATA_COMMANDS.find((c) => c === command);
  if (dataCommand) {
    try {
      return parseDataCommand(dataCommand, args, env);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  }
  if (command !== 'serve') throw new UsageError(`unknown command ${JSON.stringify(command)} (try: switchboard serve --help)`);

  const values = new Map<string, string>();
  while (args.length > 0) {
    const arg = args.shift() as string;
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument ${JSON.stringify(arg)}`);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    if (!VALUE_OPTIONS.has(name)) throw new UsageError(`unknown option --${name}`);
    const value = eq === -1 ? args.shift() : arg.slice(eq + 1);
    if (value === undefined || (eq === -1 && value.startsWith('--'))) throw new UsageError(`--${name} needs a value`);
    values.set(name, value);
  }

  // Digits only: Number() would take '' as 0 and '0x50' as 80.
  const rawPort = values.get('port') ?? '0';
  const port = /^\d{1,5}$/.test(rawPort) ? Number(rawPort) : NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a whole number from 0 to 65535`);
  const host = values.get('host') ?? '127.0.0.1';
  if (!host.trim()) throw new UsageError('--host must not be empty');
  const token = values.get('token') ?? randomBytes(24).toString('base64url');
  if (!/^[A-Za-z0-9._~-]{8,}$/.test(token)) throw new UsageError('--token must be at least 8 characters of A-Z a-z 0-9 . _ ~ -');
  const logLevel = (values.get('log-level') ?? 'info') as LogLevel;
  if (!['debug', 'info', 'warn', 'error'].includes(logLevel)) throw new UsageError('--log-level must be debug, info, warn or error');

  const dataDir = values.get('data-dir');
  if (dataDir !== undefined && !dataDir.trim()) throw new UsageError('--data-dir must not be empty');

  const settings: Partial<SettingsT> = {};
  const durations = [
    ['idle-timeout-ms', 'idleTimeoutMs'],
    ['reap-interval-ms', 'reapIntervalMs'],
    ['permission-timeout-ms', 'permissionTimeoutMs'],
  ] as const;
  for (const [flag, key] of durations) {
    const raw = values.get(flag);
    if (raw === undefined) continue;
    try {
      settings[key] = parseDuration(`--${flag}`, raw);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  }
  const perBroker = values.get('max-sessions-per-broker');
  if (perBroker !== undefined) {
    const n = Number(perBroker);
    if (!Number.isInteger(n) || n < 1) throw new UsageError('--max-sessions-per-broker must be a whole number of at least 1');
    settings.maxSessionsPerBroker = n;
  }
  return {
    command: 'serve',
    options: { port, host, dataDir: dataDir ?? defaultDataDir(env), token, settings, logLevel },
  };
}
