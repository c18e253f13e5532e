import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { AppStore, AppStoreApi } from './app-store';

const StoreContext = createContext<AppStoreApi | null>(null);

export function StoreProvider({ store, children }: { store: AppStoreApi; children: ReactNode }) {
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>;
}

export function useStoreApi(): AppStoreApi {
  const store = useContext(StoreContext);
  if (!store) throw new Error('StoreProvider is missing');
  return store;
}

/** Selectors must return stable values (see the memoised list selectors). */
export function useAppStore<T>(selector: (s: AppStore) => T): T {
  return useStore(useStoreApi(), selector);
}
