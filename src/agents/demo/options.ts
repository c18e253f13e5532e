/** Command line and environment of the demo agent process. */
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseLogLevel, type LogLevel } from './log';

/**
 * `stubborn`: behave like the worst real agents seen in the wild, for the host's tests: ignore
 * stdin EOF and SIGTERM, and keep a helper process in the same process group.
 */
export type DemoAgentOptions = { dataDir: string; logLevel: LogLevel; stubborn: boolean };

export const DATA_DIR_ENV = 'SWITCHBOARD_DEMO_DIR';
export const LOG_LEVEL_ENV = 'SWITCHBOARD_DEMO_LOG';

/**
 * `--data-dir DIR` (or `--data-dir=DIR`) wins over `SWITCHBOARD_DEMO_DIR`.
 * Unknown arguments are ignored: hosts sometimes append their own flags.
 */
export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv): DemoAgentOptions {
  let dataDir: string | undefined;
  let logLevel: string | undefined;
  let stubborn = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? splitOnce(arg) : [arg, undefined];
    if (flag === '--stubborn') {
      stubborn = true;
      continue;
    }
    if (flag === '--data-dir' || flag === '--log-level') {
      const value = inline ?? argv[++i];
      if (value === undefined || value === '') throw new Error(`${flag} needs a value`);
      if (flag === '--data-dir') dataDir = value;
      else logLevel = value;
    }
  }
  return {
    dataDir: resolve(dataDir ?? env[DATA_DIR_ENV] ?? join(tmpdir(), 'switchboard-demo-agent')),
    logLevel: parseLogLevel(logLevel ?? env[LOG_LEVEL_ENV]),
    stubborn,
  };
}

function splitOnce(arg: string): [string, string] {
  const at = arg.indexOf('=');
  return [arg.slice(0, at), arg.slice(at + 1)];
}
