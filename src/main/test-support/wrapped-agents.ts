import type { AgentDefinition } from '../brokers/agent-definition';
import { demoAgent } from '../catalogue/demo-agent';

/**
 * A launcher in front of an agent, as real agents are started: it runs the agent as a child
 * sharing its stdio and ignores SIGTERM, SIGINT and SIGHUP without forwarding them (what `npx`
 * and some shell wrappers do). In `escape` mode it also starts a helper that leaves the process
 * group (its own session), as agents that daemonise a language server or a native binary do.
 */
const LAUNCHER = `
const { spawn } = require('node:child_process');
const [mode, command, ...args] = process.argv.slice(1);
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => {});
if (mode === 'escape') {
  spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)', 'escaped-helper'], { detached: true, stdio: 'ignore' }).unref();
}
const agent = spawn(command, args, { stdio: 'inherit' });
agent.on('exit', (code) => process.exit(code ?? 1));
`;

export type LaunchMode = 'npx' | 'escape';

/**
 * The stubborn demo agent (ignores end of input and SIGTERM, keeps a helper in its group)
 * behind a launcher. Its processes: the launcher, the agent and the agent's helper, plus the
 * escaped helper in `escape` mode. Every command line names `demoDir` (the demo agent's
 * `--data-dir`), so `demoAgents(dataDir)` finds the launcher and the agent.
 */
export function wrappedStubbornAgent(id: string, mode: LaunchMode, demoDir: string): AgentDefinition {
  const agent = demoAgent(demoDir, ['--stubborn']);
  return {
    id,
    name: `Stubborn demo agent behind ${mode === 'npx' ? 'an npx-like launcher' : 'a launcher with an escaping helper'}`,
    command: process.execPath,
    args: ['-e', LAUNCHER, mode, agent.command, ...agent.args],
    env: agent.env,
  };
}

/** How many processes `wrappedStubbornAgent` runs once it is up. */
export function processCount(mode: LaunchMode): number {
  return mode === 'escape' ? 4 : 3;
}
