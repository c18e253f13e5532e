import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentDefinition } from '../brokers/agent-definition';
import { ownProcess } from '../util/own-process';

/** Extra demo agent arguments for a whole run, space-separated (tests of `serve`: `--stubborn`). */
export const DEMO_AGENT_ARGS_ENV = 'SWITCHBOARD_DEMO_AGENT_ARGS';

/**
 * The built-in demo agent: built next to this bundle (`out/main/demo-agent.js`), or run from
 * source through tsx in tests and development. Under Electron it is the app's own binary in
 * the demo-agent role (`ownProcess`): the packaged app's RunAsNode fuse is off.
 */
export function demoAgent(dataDir: string, extraArgs: string[] = [], env: NodeJS.ProcessEnv = process.env): AgentDefinition {
  const here = dirname(fileURLToPath(import.meta.url));
  const built = join(here, 'demo-agent.js');
  const source = resolve(here, '../../agents/demo/demo-agent.ts');
  const entry = existsSync(built) ? [built] : ['--import', 'tsx', source];
  const launch = ownProcess('demo-agent', entry, ['--data-dir', dataDir, ...extraArgs, ...(env[DEMO_AGENT_ARGS_ENV] ?? '').split(/\s+/).filter(Boolean)]);
  return { id: 'demo', name: 'Demo agent', command: launch.command, args: launch.args, env: {} };
}
