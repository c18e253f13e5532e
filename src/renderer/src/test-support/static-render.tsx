import { renderToStaticMarkup } from 'react-dom/server';
import { createAppStore, type AppState, type AppStoreApi } from '../store/app-store';
import { StoreProvider } from '../store/context';
import { FakeApi, testDeps } from './fake-api';

/** A store holding `state`; server rendering reads the "initial" snapshot, so it is pointed at the live state. */
export function storeWith(state: Partial<AppState>): AppStoreApi {
  const store = createAppStore(testDeps(new FakeApi()));
  store.setState(state);
  store.getInitialState = store.getState;
  return store;
}

/** `node` rendered to HTML inside the store's provider. */
export const renderWith = (store: AppStoreApi, node: React.ReactNode): string =>
  renderToStaticMarkup(<StoreProvider store={store}>{node}</StoreProvider>);
