/** Command line and environment of the demo agent process. */
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseLogLevel, type LogLevel } from './log';
import { parseSlow, SLOW_ENV } from './slow-requests';

/**
 * `stubborn`: behave like the worst real agents seen in the wild, for the host's tests: ignore
 * stdin EOF and SIGTERM, and keep a helper process in the same process group.
 */
export type DemoAgentOptions = {
  dataDir: string;
  logLevel: LogLevel;
  stubborn: boolean;
  auth: AuthMode;
  startMode: string | undefined;
  mcp: McpMode;
  /** `--slow METHOD=MS,…`: how long the agent takes before it answers those requests (slow-requests.ts). */
  slow: ReadonlyMap<string, number>;
};

/**
 * How the demo agent asks for sign-in, like real agents without an account:
 * `none` (default); `required`: lists its methods in `initialize` and refuses `session/new`
 * with -32000 until `authenticate` succeeds or `SWITCHBOARD_DEMO_API_KEY` is in its
 * environment; `status`: `session/new` works, says "not logged in", and the first prompt fails.
 */
export const AUTH_MODES = ['none', 'required', 'status'] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

/**
 * Which MCP servers the agent says it takes (`agentCapabilities.mcpCapabilities`): `all`
 * (default: stdio, HTTP and SSE, which `/mcp tools` can all reach) or `stdio` (neither HTTP nor
 * SSE, like agents that only start local servers), so a client's filtering can be tested.
 */
export const MCP_MODES = ['all', 'stdio'] as const;
export type McpMode = (typeof MCP_MODES)[number];

export const DATA_DIR_ENV = 'SWITCHBOARD_DEMO_DIR';
export const LOG_LEVEL_ENV = 'SWITCHBOARD_DEMO_LOG';
export const AUTH_ENV = 'SWITCHBOARD_DEMO_AUTH';
/** The mode new sessions start in (`--mode bypass` starts like Claude in a mode that skips prompts). */
export const MODE_ENV = 'SWITCHBOARD_DEMO_MODE';
export const MCP_ENV = 'SWITCHBOARD_DEMO_MCP';

/**
 * `--data-dir DIR` (or `--data-dir=DIR`) wins over `SWITCHBOARD_DEMO_DIR`.
 * Unknown arguments are ignored: hosts sometimes append their own flags.
 */
export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv): DemoAgentOptions {
  let dataDir: string | undefined;
  let logLevel: string | undefined;
  let stubborn = false;
  let auth: string | undefined;
  let startMode: string | undefined;
  let mcp: string | undefined;
  let slow: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? splitOnce(arg) : [arg, undefined];
    if (flag === '--stubborn') {
      stubborn = true;
      continue;
    }
    if (flag === '--data-dir' || flag === '--log-level' || flag === '--auth' || flag === '--mode' || flag === '--mcp' || flag === '--slow') {
      const value = inline ?? argv[++i];
      if (value === undefined || value === '') throw new Error(`${flag} needs a value`);
      if (flag === '--data-dir') dataDir = value;
      else if (flag === '--auth') auth = value;
      else if (flag === '--mode') startMode = value;
      else if (flag === '--mcp') mcp = value;
      else if (flag === '--slow') slow = value;
      else logLevel = value;
    }
  }
  return {
    dataDir: resolve(dataDir ?? env[DATA_DIR_ENV] ?? join(tmpdir(), 'switchboard-demo-agent')),
    logLevel: parseLogLevel(logLevel ?? env[LOG_LEVEL_ENV]),
    stubborn,
    auth: parseAuthMode(auth ?? env[AUTH_ENV]),
    startMode: startMode ?? (env[MODE_ENV] || undefined),
    mcp: parseMcpMode(mcp ?? env[MCP_ENV]),
    slow: parseSlow(slow ?? env[SLOW_ENV]),
  };
}

function parseAuthMode(value: string | undefined): AuthMode {
  if (value === undefined || value === '') return 'none';
  const mode = AUTH_MODES.find((m) => m === value);
  if (!mode) throw new Error(`--auth must be one of ${AUTH_MODES.join(', ')}`);
  return mode;
}

function parseMcpMode(value: string | undefined): McpMode {
  if (value === undefined || value === '') return 'all';
  const mode = MCP_MODES.find((m) => m === value);
  if (!mode) throw new Error(`--mcp must be one of ${MCP_MODES.join(', ')}`);
  return mode;
}

function splitOnce(arg: string): [string, string] {
  const at = arg.indexOf('=');
  return [arg.slice(0, at), arg.slice(at + 1)];
}
