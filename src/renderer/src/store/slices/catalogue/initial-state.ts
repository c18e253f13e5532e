import type { AgentPresetViewT, AgentTestProgressT, AgentViewT } from '../../../../../shared/contract';

export interface AgentsState {
  /** The catalogue as the host last sent it (`agents:list` or `agents:changed`). */
  agents: readonly AgentViewT[];
  agentsLoaded: boolean;
  /** Why `<data dir>/agents.json` could not be imported, if it could not. */
  agentsFileError: string | undefined;
  agentsFile: string;
  presets: readonly AgentPresetViewT[];
  /** The step of each `agents:test` still running, by agent id. Replaced, never mutated. */
  agentTests: ReadonlyMap<string, AgentTestProgressT>;
}

export const agentsInitialState: AgentsState = {
  agents: [],
  agentsLoaded: false,
  agentsFileError: undefined,
  agentsFile: '',
  presets: [],
  agentTests: new Map(),
};
