import type { RegistryEntryViewT } from '../../../../../shared/contract';
import type { AppState } from '../../app-store';

/** Entries whose name, id, description or license hold every word of `query` (case-insensitive). */
export function filterEntries(entries: readonly RegistryEntryViewT[], query: string): RegistryEntryViewT[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...entries];
  return entries.filter((e) => {
    const text = [e.manifest.name, e.manifest.id, e.manifest.description, e.manifest.license ?? ''].join(' ').toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

export const registrySelectors = {
  listing: (s: AppState) => s.registry,
  loading: (s: AppState) => s.registryLoading,
  /** The install running for a registry id (Add) or an agent id (Update). */
  install: (key: string) => (s: AppState) => s.registryInstalls.get(key),
};
