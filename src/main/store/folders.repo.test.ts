import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/temp-dir';
import { RECENT_FOLDERS_CAP } from './folders.repo';
import { Store } from './store';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function openStore(): Store {
  const dir = tempDir();
  const store = Store.open(join(dir.path, 'switchboard.db'));
  cleanups.push(() => {
    store.dispose();
    dir.cleanup();
  });
  return store;
}

describe('recent folders', () => {
  it('lists the most recently used first, a folder used again moving to the front once', () => {
    const store = openStore();
    store.folders.use('/a', 1);
    store.folders.use('/b', 2);
    store.folders.use('/c', 3);
    store.folders.use('/a', 4);
    expect(store.folders.recent()).toEqual(['/a', '/c', '/b']);
  });

  it('orders uses within one millisecond by when they happened', () => {
    const store = openStore();
    store.folders.use('/x', 5);
    store.folders.use('/y', 5);
    store.folders.use('/x', 5);
    expect(store.folders.recent()).toEqual(['/x', '/y']);
  });

  it(`keeps only the ${RECENT_FOLDERS_CAP} most recent, forgetting the oldest`, () => {
    const store = openStore();
    for (let i = 0; i < RECENT_FOLDERS_CAP + 3; i++) store.folders.use(`/f${i}`, i);
    const recent = store.folders.recent(100);
    expect(recent).toHaveLength(RECENT_FOLDERS_CAP);
    expect(recent[0]).toBe(`/f${RECENT_FOLDERS_CAP + 2}`);
    expect(recent).not.toContain('/f2');
    expect(recent).toContain('/f3');
  });
});
