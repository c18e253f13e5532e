import type { McpServerListT, McpTestProgressT, SaveMcpServerInput, WireError } from '../../../../../shared/contract';
import type { GetState, SetState } from '../../app-store';
import type { StoreDeps } from '../../deps';

export interface McpActions {
  loadMcpServers(): Promise<WireError | undefined>;
  /** Add (no `id`) or edit; returns the host's refusal for the form. */
  saveMcpServer(input: SaveMcpServerInput): Promise<WireError | undefined>;
  removeMcpServer(serverId: string): Promise<WireError | undefined>;
  /** Turns a server on or off for one agent's sessions. */
  setMcpEnabled(serverId: string, agentId: string, enabled: boolean): Promise<WireError | undefined>;
  /** Lists the server's tools; the result arrives as the server's `lastTest`. */
  testMcpServer(serverId: string): Promise<WireError | undefined>;
  /** Reads other tools' configurations; the report shows in the Import panel. */
  scanMcpImports(): Promise<WireError | undefined>;
  /** Adds the chosen candidates of the report, for `agentIds`; closes the panel when done. */
  importMcpServers(keys: readonly string[], agentIds: readonly string[]): Promise<{ ok: true; added: number; missing: number } | { ok: false; error: WireError }>;
  closeMcpImport(): void;
  mcpChanged(list: McpServerListT): void;
  mcpTestProgress(progress: McpTestProgressT): void;
}

export function createMcpActions(set: SetState, get: GetState, deps: StoreDeps): McpActions {
  const { api } = deps;
  const withoutTest = (serverId: string) => {
    const next = new Map(get().mcpTests);
    next.delete(serverId);
    return next;
  };
  const replace = (server: McpServerListT['servers'][number]) => {
    const servers = get().mcpServers;
    set({ mcpServers: servers.some((s) => s.id === server.id) ? servers.map((s) => (s.id === server.id ? server : s)) : [...servers, server] });
  };
  return {
    async loadMcpServers() {
      const res = await api['mcp:list']({});
      if (!res.ok) return res.error;
      get().mcpChanged(res.value);
      return undefined;
    },

    async saveMcpServer(input) {
      const res = await api['mcp:save'](input);
      if (!res.ok) return res.error;
      replace(res.value);
      return undefined;
    },

    async removeMcpServer(serverId) {
      const res = await api['mcp:remove']({ serverId });
      if (!res.ok) return res.error;
      set({ mcpServers: get().mcpServers.filter((s) => s.id !== serverId) });
      return undefined;
    },

    async setMcpEnabled(serverId, agentId, enabled) {
      const res = await api['mcp:enable']({ serverId, agentId, enabled });
      if (!res.ok) return res.error;
      replace(res.value);
      return undefined;
    },

    async testMcpServer(serverId) {
      set({ mcpTests: new Map(get().mcpTests).set(serverId, { serverId, step: 'starting', elapsedMs: 0 }) });
      const res = await api['mcp:test']({ serverId });
      if (!res.ok) {
        set({ mcpTests: withoutTest(serverId) });
        return res.error;
      }
      const result = res.value;
      set({ mcpTests: withoutTest(serverId), mcpServers: get().mcpServers.map((s) => (s.id === serverId ? { ...s, lastTest: result } : s)) });
      return undefined;
    },

    async scanMcpImports() {
      const res = await api['mcp:scan']({});
      if (!res.ok) return res.error;
      set({ mcpImport: res.value });
      return undefined;
    },

    async importMcpServers(keys, agentIds) {
      const res = await api['mcp:import']({ keys: [...keys], agentIds: [...agentIds] });
      if (!res.ok) return res;
      for (const server of res.value.added) replace(server);
      set({ mcpImport: undefined });
      return { ok: true, added: res.value.added.length, missing: res.value.missing.length };
    },

    closeMcpImport() {
      set({ mcpImport: undefined });
    },

    mcpChanged(list) {
      set({ mcpServers: list.servers, mcpLoaded: true });
    },

    mcpTestProgress(progress) {
      // `done` comes before the answer; the answer clears the entry.
      if (progress.step === 'done' || !get().mcpTests.has(progress.serverId)) return;
      set({ mcpTests: new Map(get().mcpTests).set(progress.serverId, progress) });
    },
  };
}
