import { resolve } from 'node:path';

/**
 * The app's own helper processes (the host's watchdog, the built-in demo agent, the runner of
 * git's processes) and how one is
 * started. Under Node (`serve`, tests) the helper's script runs with Node. Under Electron the
 * child is the app's own binary in a role: the packaged app's RunAsNode fuse is off
 * (electron-builder.config.mjs), so `ELECTRON_RUN_AS_NODE` no longer turns that binary into
 * Node; the app's entry (src/main/app/entry.ts) sees the role before anything else and runs
 * the helper's built script instead of the app.
 */
export const ROLE_FLAG = '--switchboard-role';

export const OWN_ROLES = ['watchdog', 'demo-agent', 'git-runner'] as const;
export type OwnRole = (typeof OWN_ROLES)[number];

/** What of this process decides how a helper is started (tests pass their own). */
export interface ProcessFacts {
  execPath: string;
  argv: readonly string[];
  versions: { electron?: string };
  /** Electron run from a folder (`electron .`): its argv[1] names the app. */
  defaultApp?: boolean;
}

/**
 * Variables a helper that opens no TLS connection starts without. With `NODE_EXTRA_CA_CERTS` set,
 * Node 20 reads and parses that file and its own root certificates as it starts, before any
 * code runs (nodejs/node#40524): `node -e 0` took 88 ms with the system's 220 KB bundle named
 * there and 48 ms without it. The watchdog and the git runner never open a connection, and the
 * git runner's children (git) get the environment the host gives each call, not the runner's.
 * Agents keep it: they talk to their services, often through the proxy it is set for.
 */
const NOT_FOR_HELPERS = ['NODE_EXTRA_CA_CERTS'] as const;

/** The environment a helper that opens no TLS connection starts with: `env` without NOT_FOR_HELPERS. */
export function helperEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const name of NOT_FOR_HELPERS) delete out[name];
  return out;
}

export interface OwnProcessLaunch {
  command: string;
  args: string[];
}

/**
 * The command line of helper `role`: `nodeEntry` is how Node runs its script (`[file]`, or
 * `['--import', 'tsx', source]` from source), `args` its own arguments.
 */
export function ownProcess(role: OwnRole, nodeEntry: readonly string[], args: readonly string[], p: ProcessFacts = process): OwnProcessLaunch {
  if (!p.versions.electron) return { command: p.execPath, args: [...nodeEntry, ...args] };
  const app = p.defaultApp && p.argv[1] ? [resolve(p.argv[1])] : [];
  return { command: p.execPath, args: [...app, `${ROLE_FLAG}=${role}`, ...args] };
}
