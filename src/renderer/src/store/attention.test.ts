import { describe, expect, it } from 'vitest';
import { SID, SID2, view } from '../test-support/fake-api';
import { boundStore } from '../test-support/store-fixtures';
import { watchAttention } from './attention';

describe('window title and notifications', () => {
  it('counts waiting sessions in the title without walking the sessions on changes that do not touch them', () => {
    const { store } = boundStore();
    let walks = 0;
    class CountingMap<K, V> extends Map<K, V> {
      override values() {
        walks++;
        return super.values();
      }
    }
    store.setState({ sessionsById: new CountingMap([[SID, view()]]) });
    const titles: string[] = [];
    watchAttention(store, { setTitle: (t) => titles.push(t), isHidden: () => false, notify: undefined });
    const before = walks;
    for (let i = 0; i < 20; i++) store.setState({ notices: [] });
    expect(walks).toBe(before);
    store.setState({ sessionsById: new CountingMap([[SID, view({ pendingPermissions: 1 })], [SID2, view({ id: SID2, pendingPermissions: 2 })]]) });
    expect(titles.at(-1)).toBe('(2) Switchboard');
  });
});
