import type { RegistryInstallProgressT, RegistryListingT } from '../../../../../shared/contract';

export interface RegistryState {
  /** The registry's list as last read (`registry:list`), while Add from registry is open or was. */
  registry: RegistryListingT | undefined;
  /** A read of the list in flight (`refresh`: the network was asked). */
  registryLoading: 'local' | 'refresh' | undefined;
  /** Downloads and installs this window runs, by registry id (add) or agent id (update). Replaced, never mutated. */
  registryInstalls: ReadonlyMap<string, RegistryInstallProgressT | { phase: 'starting' }>;
}

export const registryInitialState: RegistryState = {
  registry: undefined,
  registryLoading: undefined,
  registryInstalls: new Map(),
};
