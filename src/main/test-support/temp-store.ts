import { join } from 'node:path';
import { Store } from '../store/store';
import { tempDir } from './temp-dir';

/**
 * A store on a new database file in a temporary folder. `cleanups` gets what closes the store
 * and removes the folder (run them after each test).
 */
export function tempStore(cleanups: (() => void)[], fileName = 'host.db'): Store {
  const dir = tempDir();
  const store = Store.open(join(dir.path, fileName));
  cleanups.push(() => {
    store.dispose();
    dir.cleanup();
  });
  return store;
}
