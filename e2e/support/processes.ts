import { demoAgents as demoAgentProcesses } from '../../src/main/test-support/processes';

/** Pids of the demo agent processes the host on `dataDir` started (Linux /proc; zombies are dead). */
export const demoAgents = (dataDir: string): number[] => demoAgentProcesses(dataDir).map((p) => p.pid);
