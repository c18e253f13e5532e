import type { AgentViewT } from '../../../../../shared/contract';
import type { AppState } from '../../app-store';

export const agentsSelectors = {
  agents: (s: AppState) => s.agents,
  agent: (id: string | undefined) => (s: AppState): AgentViewT | undefined => s.agents.find((a) => a.id === id),
  presets: (s: AppState) => s.presets,
  fileError: (s: AppState) => s.agentsFileError,
  agentsFile: (s: AppState) => s.agentsFile,
  /** The running test's step for this agent, or undefined when none runs. */
  testProgress: (id: string) => (s: AppState) => s.agentTests.get(id),
};
