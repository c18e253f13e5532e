import { describe, expect, it } from 'vitest';
import { FakeApi, SID, SID2, testDeps, view } from '../test-support/fake-api';
import { boundStore } from '../test-support/store-fixtures';
import { createAppStore, type AppState } from './app-store';
import { attentionCount, documentTitle, sessionsToNotify, watchAttention } from './attention';

const SID3 = '33333333-3333-4333-8333-333333333333';
const SID4 = '44444444-4444-4444-8444-444444444444';
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

describe('attention', () => {
  const sessions = new Map([
    [SID, view({ pendingPermissions: 2 })],
    [SID2, view({ id: SID2, title: 'Two', pendingPermissions: 1 })],
  ]);

  it('counts sessions waiting for the person (a pending request or a sign-in), not requests, and prefixes the title', () => {
    expect(attentionCount(sessions)).toBe(2);
    const signIn = { message: 'log in', methods: [], during: 'start' as const };
    const withSignIn = new Map(sessions).set(SID3, view({ id: SID3, auth: signIn })).set(SID4, view({ id: SID4 }));
    expect(attentionCount(withSignIn)).toBe(3);
    // A question from the agent waits for the person as a permission request does.
    expect(attentionCount(new Map(withSignIn).set(SID4, view({ id: SID4, pendingQuestions: 1 })))).toBe(4);
    // Archived sessions are out of sight, as for the dock badge.
    expect(attentionCount(new Map(withSignIn).set(SID3, view({ id: SID3, auth: signIn, archivedAt: 5 })))).toBe(2);
    expect(documentTitle(1)).toBe('(1) Switchboard');
    expect(documentTitle(0)).toBe('Switchboard');
  });

  it('notifies for a new request in another session, and for the current one only when hidden', () => {
    const store = createAppStore(testDeps(new FakeApi()));
    const base: AppState = { ...store.getState(), sessionsLoaded: true, currentSessionId: SID, sessionsById: new Map([[SID, view()], [SID2, view({ id: SID2, title: 'Two' })]]) };
    const other: AppState = { ...base, sessionsById: new Map(base.sessionsById).set(SID2, view({ id: SID2, title: 'Two', pendingPermissions: 1 })) };
    expect(sessionsToNotify(base, other, false)).toEqual([{ sessionId: SID2, title: 'Two' }]);
    const asked: AppState = { ...base, sessionsById: new Map(base.sessionsById).set(SID2, view({ id: SID2, title: 'Two', pendingQuestions: 1 })) };
    expect(sessionsToNotify(base, asked, false)).toEqual([{ sessionId: SID2, title: 'Two' }]);
    const request = { requestId: 'r', sessionId: SID, toolCall: { toolCallId: 't', title: 'x' }, options: [], createdAt: 1 };
    const mine: AppState = { ...base, pendingPermissions: new Map([['r', request]]) };
    expect(sessionsToNotify(base, mine, false)).toEqual([]);
    expect(sessionsToNotify(base, mine, true)).toEqual([{ sessionId: SID, title: 'Session one' }]);
  });

  it('does not notify for requests already pending when the first list arrives', () => {
    const store = createAppStore(testDeps(new FakeApi()));
    const before = store.getState();
    const after: AppState = { ...before, sessionsLoaded: true, sessionsById: sessions };
    expect(sessionsToNotify(before, after, true)).toEqual([]);
  });
});
