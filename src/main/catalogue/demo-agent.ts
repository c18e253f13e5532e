import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentDefinition } from '../brokers/agent-definition';

/** Extra demo agent arguments for a whole run, space-separated (tests of `serve`: `--stubborn`). */
export const DEMO_AGENT_ARGS_ENV = 'SWITCHBOARD_DEMO_AGENT_ARGS';

/**
 * The built-in demo agent: built next to this bundle (`out/main/demo-agent.js`), or run from
 * source through tsx in tests and development. Under Electron, `process.execPath` is the
 * Electron binary, which runs plain Node scripts with ELECTRON_RUN_AS_NODE.
 */
export function demoAgent(dataDir: string, extraArgs: string[] = [], env: NodeJS.ProcessEnv = process.env): AgentDefinition {
  const here = dirname(fileURLToPath(import.meta.url));
  const built = join(here, 'demo-agent.js');
  const source = resolve(here, '../../agents/demo/demo-agent.ts');
  const entry = existsSync(built) ? [built] : ['--import', 'tsx', source];
  return {
    id: 'demo',
    name: 'Demo agent',
    command: process.execPath,
    args: [...entry, '--data-dir', dataDir, ...extraArgs, ...(env[DEMO_AGENT_ARGS_ENV] ?? '').split(/\s+/).filter(Boolean)],
    env: { ELECTRON_RUN_AS_NODE: '1' },
  };
}
