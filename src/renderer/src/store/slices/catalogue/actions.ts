import type { AgentListT, AgentTestProgressT, SaveAgentInput, WireError } from '../../../../../shared/contract';
import type { GetState, SetState } from '../../app-store';
import type { StoreDeps } from '../../deps';

export interface AgentsActions {
  loadAgents(refresh?: boolean): Promise<WireError | undefined>;
  loadPresets(refresh?: boolean): Promise<WireError | undefined>;
  /** Add (`create: true`) or edit; returns the host's validation error for the form. */
  saveAgent(input: SaveAgentInput): Promise<WireError | undefined>;
  removeAgent(agentId: string): Promise<WireError | undefined>;
  /** Runs `initialize` on the agent; the result arrives as the agent's `lastTest`. */
  testAgent(agentId: string): Promise<WireError | undefined>;
  /** Signs in to the agent from Settings (a method its last Test listed): the host's answer, or why not. */
  signInAgent(agentId: string, methodId: string, value?: string): Promise<{ ok: true; message: string } | { ok: false; error: WireError }>;
  /** Signs the agent out (ACP `logout` on a probe of it): the host's answer, or why not. */
  signOutAgent(agentId: string): Promise<{ ok: true; message: string } | { ok: false; error: WireError }>;
  /** Opens the person's terminal running a terminal sign-in method of the agent (desktop app). */
  signInAgentInTerminal(agentId: string, methodId: string): Promise<WireError | undefined>;
  agentsChanged(list: AgentListT): void;
  agentTestProgress(progress: AgentTestProgressT): void;
}

export function createAgentsActions(set: SetState, get: GetState, deps: StoreDeps): AgentsActions {
  const { api } = deps;
  const withoutTest = (agentId: string) => {
    const next = new Map(get().agentTests);
    next.delete(agentId);
    return next;
  };
  return {
    async loadAgents(refresh) {
      const res = await api['agents:list'](refresh ? { refresh } : {});
      if (!res.ok) return res.error;
      get().agentsChanged(res.value);
      return undefined;
    },

    async loadPresets(refresh) {
      const res = await api['agents:presets'](refresh ? { refresh } : {});
      if (!res.ok) return res.error;
      set({ presets: res.value });
      return undefined;
    },

    async saveAgent(input) {
      const res = await api['agents:save'](input);
      if (!res.ok) return res.error;
      const saved = res.value;
      const agents = get().agents;
      const next = agents.some((a) => a.id === saved.id) ? agents.map((a) => (a.id === saved.id ? saved : a)) : [...agents, saved];
      get().agentsChanged({ agents: next, agentsFile: get().agentsFile, ...(get().agentsFileError ? { fileError: get().agentsFileError } : {}) });
      return undefined;
    },

    async removeAgent(agentId) {
      const res = await api['agents:remove']({ agentId });
      if (!res.ok) return res.error;
      const next = get().agents.filter((a) => a.id !== agentId);
      get().agentsChanged({ agents: next, agentsFile: get().agentsFile, ...(get().agentsFileError ? { fileError: get().agentsFileError } : {}) });
      return undefined;
    },

    async testAgent(agentId) {
      set({ agentTests: new Map(get().agentTests).set(agentId, { agentId, step: 'spawning', elapsedMs: 0 }) });
      const res = await api['agents:test']({ agentId });
      if (!res.ok) {
        set({ agentTests: withoutTest(agentId) });
        return res.error;
      }
      const result = res.value;
      set({
        agentTests: withoutTest(agentId),
        agents: get().agents.map((a) => (a.id === agentId ? { ...a, lastTest: result } : a)),
      });
      return undefined;
    },

    async signInAgent(agentId, methodId, value) {
      const res = await api['agents:signin']({ agentId, methodId, ...(value !== undefined ? { value } : {}) });
      if (!res.ok) return res;
      // A stored variable shows as set on the agent's entry.
      await get().loadAgents();
      return { ok: true, message: res.value.message };
    },

    async signOutAgent(agentId) {
      const res = await api['agents:signout']({ agentId });
      return res.ok ? { ok: true, message: res.value.message } : res;
    },

    async signInAgentInTerminal(agentId, methodId) {
      const res = await api['agents:terminal']({ agentId, methodId });
      return res.ok ? undefined : res.error;
    },

    agentsChanged(list) {
      const info = get().hostInfo;
      set({
        agents: list.agents,
        agentsLoaded: true,
        agentsFile: list.agentsFile,
        agentsFileError: list.fileError,
        // The agent picker reads host info: it follows the catalogue.
        hostInfo: info && { ...info, agents: list.agents.map(({ id, name, command, args }) => ({ id, name, command, args })) },
      });
    },

    agentTestProgress(progress) {
      // `done` comes before the answer; the answer clears the entry.
      if (progress.step === 'done' || !get().agentTests.has(progress.agentId)) return;
      set({ agentTests: new Map(get().agentTests).set(progress.agentId, progress) });
    },
  };
}
