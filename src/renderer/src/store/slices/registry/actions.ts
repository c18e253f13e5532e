import type { RegistryAgentChangeT, RegistryInstallProgressT, WireError } from '../../../../../shared/contract';
import type { GetState, SetState } from '../../app-store';
import type { StoreDeps } from '../../deps';

type Done = { ok: true; change: RegistryAgentChangeT } | { ok: false; error: WireError };

export interface RegistryActions {
  /** Reads the registry's list (`refresh`: from the network first, the bundled copy when offline). */
  loadRegistry(refresh?: boolean): Promise<WireError | undefined>;
  /** Adds an entry; a download reports its progress while it runs. */
  addFromRegistry(registryId: string): Promise<Done>;
  updateRegistryAgent(agentId: string): Promise<Done>;
  rollBackRegistryAgent(agentId: string): Promise<Done>;
  pinRegistryAgent(agentId: string, pinned: boolean): Promise<WireError | undefined>;
  registryProgress(progress: RegistryInstallProgressT): void;
  /** The index in use changed: a list this window shows is read again. */
  registryChanged(): void;
}

export function createRegistryActions(set: SetState, get: GetState, deps: StoreDeps): RegistryActions {
  const { api } = deps;
  const installing = (key: string, progress: RegistryInstallProgressT | { phase: 'starting' } | undefined) => {
    const next = new Map(get().registryInstalls);
    if (progress) next.set(key, progress);
    else next.delete(key);
    set({ registryInstalls: next });
  };
  /** Runs an install under `key`; the catalogue follows through `agents:changed`. */
  const run = async (key: string, call: () => ReturnType<typeof api['registry:add']>): Promise<Done> => {
    installing(key, { phase: 'starting' });
    const res = await call();
    installing(key, undefined);
    if (!res.ok) return res;
    // Who was added from which entry (the list's "Added as").
    if (get().registry) void get().loadRegistry();
    return { ok: true, change: res.value };
  };
  return {
    async loadRegistry(refresh) {
      set({ registryLoading: refresh ? 'refresh' : 'local' });
      const res = await api['registry:list'](refresh ? { refresh } : {});
      set({ registryLoading: undefined });
      if (!res.ok) return res.error;
      set({ registry: res.value });
      return undefined;
    },

    addFromRegistry(registryId) {
      return run(registryId, () => api['registry:add']({ registryId }));
    },

    updateRegistryAgent(agentId) {
      return run(agentId, () => api['registry:update']({ agentId }));
    },

    rollBackRegistryAgent(agentId) {
      return run(agentId, () => api['registry:rollback']({ agentId }));
    },

    async pinRegistryAgent(agentId, pinned) {
      const res = await api['registry:pin']({ agentId, pinned });
      return res.ok ? undefined : res.error;
    },

    registryProgress(progress) {
      // Progress names the entry; an update runs under its agent's id, so both keys are tried.
      const installs = get().registryInstalls;
      const key = installs.has(progress.registryId)
        ? progress.registryId
        : [...installs.keys()].find((k) => get().agents.find((a) => a.id === k)?.registry?.registryId === progress.registryId);
      if (key === undefined || progress.phase === 'done') return;
      installing(key, progress);
    },

    registryChanged() {
      if (get().registry && !get().registryLoading) void get().loadRegistry();
    },
  };
}
