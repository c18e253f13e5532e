import { describe, expect, it, vi } from 'vitest';
import { FakeApi, SID, SID2, testDeps, view } from '../test-support/fake-api';
import { boundStore, question } from '../test-support/store-fixtures';
import { createAppStore, type AppState } from './app-store';
import { attentionCount, documentTitle, sessionsToNotify, waitingCount, watchAttention } from './attention';

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

describe('attention with many sessions', () => {
  it('counts and notifies from the sessions one update changed, as a walk of all of them would', () => {
    const { store } = boundStore();
    const ids = Array.from({ length: 50 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    store.setState({ sessionsById: new Map(ids.map((id, i) => [id, view({ id, title: `S${i}`, pendingPermissions: i % 7 === 0 ? 1 : 0 })])), sessionsLoaded: true });
    const titles: string[] = [];
    const notified: string[] = [];
    watchAttention(store, { setTitle: (t) => titles.push(t), isHidden: () => false, notify: (t) => notified.push(t.sessionId) });
    waitingCount(store.getState());
    // Walks of the whole session map (its `values()`) while an update is applied.
    const values = Map.prototype.values;
    let walks = 0;
    const spy = vi.spyOn(Map.prototype, 'values').mockImplementation(function (this: Map<unknown, unknown>) {
      if (this.size === ids.length) walks++;
      return values.call(this);
    });
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    for (let step = 0; step < 200; step++) {
      const id = ids[rand(ids.length)]!;
      const was = store.getState().sessionsById.get(id)!;
      const prev = store.getState();
      const before = walks;
      store.getState().upsertSession({ ...was, updatedAt: was.updatedAt + 1, pendingPermissions: rand(3), pendingQuestions: rand(2), running: rand(2) === 1 });
      expect(waitingCount(store.getState())).toBeGreaterThanOrEqual(0);
      expect(walks, 'no walk of every session for one update').toBe(before);
      const next = store.getState();
      // The same as counting and comparing every session.
      const count = attentionCount(new Map(next.sessionsById));
      expect(titles.at(-1) ?? 'Switchboard').toBe(documentTitle(count));
      expect(waitingCount(next)).toBe(count);
      const full = sessionsToNotify({ ...prev, sessionsChanged: undefined }, { ...next, sessionsChanged: undefined }, false);
      expect(sessionsToNotify(prev, next, false)).toEqual(full);
    }
    spy.mockRestore();
    expect(notified.length).toBeGreaterThan(10);
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
    expect(sessionsToNotify(base, other, false)).toEqual([{ sessionId: SID2, title: 'Two', why: 'permission' }]);
    const asked: AppState = { ...base, sessionsById: new Map(base.sessionsById).set(SID2, view({ id: SID2, title: 'Two', pendingQuestions: 1 })) };
    expect(sessionsToNotify(base, asked, false)).toEqual([{ sessionId: SID2, title: 'Two', why: 'question' }]);
    const request = { requestId: 'r', sessionId: SID, toolCall: { toolCallId: 't', title: 'x' }, options: [], createdAt: 1 };
    const mine: AppState = { ...base, pendingPermissions: new Map([['r', request]]) };
    expect(sessionsToNotify(base, mine, false)).toEqual([]);
    expect(sessionsToNotify(base, mine, true)).toEqual([{ sessionId: SID, title: 'Session one', why: 'permission' }]);
    const mineAsked: AppState = { ...base, pendingQuestions: new Map([['q', { view: question('q', SID), answering: false }]]) };
    expect(sessionsToNotify(base, mineAsked, false)).toEqual([]);
    expect(sessionsToNotify(base, mineAsked, true)).toEqual([{ sessionId: SID, title: 'Session one', why: 'question' }]);
  });

  it("notifies when the watched session's turn ends while the window is hidden, not for another session's", () => {
    const store = createAppStore(testDeps(new FakeApi()));
    const running: AppState = {
      ...store.getState(),
      sessionsLoaded: true,
      currentSessionId: SID,
      sessionsById: new Map([[SID, view({ running: true })], [SID2, view({ id: SID2, title: 'Two', running: true })]]),
    };
    const mineDone: AppState = { ...running, sessionsById: new Map(running.sessionsById).set(SID, view({ running: false })) };
    expect(sessionsToNotify(running, mineDone, true)).toEqual([{ sessionId: SID, title: 'Session one', why: 'finished' }]);
    expect(sessionsToNotify(running, mineDone, false)).toEqual([]);
    const otherDone: AppState = { ...running, sessionsById: new Map(running.sessionsById).set(SID2, view({ id: SID2, title: 'Two', running: false })) };
    expect(sessionsToNotify(running, otherDone, true)).toEqual([]);
  });

  it('does not notify for requests already pending when the first list arrives', () => {
    const store = createAppStore(testDeps(new FakeApi()));
    const before = store.getState();
    const after: AppState = { ...before, sessionsLoaded: true, sessionsById: sessions };
    expect(sessionsToNotify(before, after, true)).toEqual([]);
  });
});
