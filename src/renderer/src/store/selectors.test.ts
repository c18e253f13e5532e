import { describe, expect, it } from 'vitest';
import type { SessionStateT } from '../../../shared/contract';
import { attentionCount, documentTitle, sessionsToNotify } from './attention';
import { createAppStore, type AppState } from './app-store';
import { sessionsSelectors } from './slices/sessions/selectors';
import { FakeApi, SID, SID2, testDeps, view } from '../test-support/fake-api';

describe('session badges', () => {
  it.each<[SessionStateT, string]>([
    ['CREATED', 'Starting'],
    ['STARTING', 'Starting'],
    ['ACTIVE', 'Active'],
    ['DETACHED', 'Detached'],
    ['CLOSING', 'Closing'],
    ['ENDED', 'Asleep'],
  ])('labels %s as %s', (state, label) => {
    expect(sessionsSelectors.badgeLabel({ state })).toBe(label);
  });

  it('explains why an asleep session ended, and says nothing for a live one with no reason', () => {
    expect(sessionsSelectors.badgeTitle({ state: 'ENDED', stateReason: 'idle_timeout' })).toBe('Put to sleep after being idle. Sending a message resumes it.');
    expect(sessionsSelectors.badgeTitle({ state: 'ENDED', stateReason: undefined })).toBe('Ended. Sending a message resumes it.');
    expect(sessionsSelectors.badgeTitle({ state: 'ACTIVE', stateReason: 'watched' })).toBe('Shown in a window');
    expect(sessionsSelectors.badgeTitle({ state: 'ACTIVE', stateReason: undefined })).toBeUndefined();
  });

  it('flags pending permission only for sessions not being looked at', () => {
    const v = view({ pendingPermissions: 1 });
    expect(sessionsSelectors.needsPermission(v, SID2)).toBe(true);
    expect(sessionsSelectors.needsPermission(v, SID)).toBe(false);
    expect(sessionsSelectors.needsPermission(view(), SID2)).toBe(false);
  });

  it('orders the sidebar by last activity, and moves a session up when its activity is newer', () => {
    const store = createAppStore(testDeps(new FakeApi()));
    store.getState().upsertSession(view({ id: SID, createdAt: 1, lastActivityAt: 1 }));
    store.getState().upsertSession(view({ id: SID2, createdAt: 2, lastActivityAt: 2 }));
    expect(store.getState().sessionOrder).toEqual([SID2, SID]);
    // A prompt, a reply or a permission request in the older one (pushed as a newer view).
    store.getState().upsertSession(view({ id: SID, createdAt: 1, lastActivityAt: 10, updatedAt: 10 }));
    expect(store.getState().sessionOrder).toEqual([SID, SID2]);
    // A change that is not activity (a title) keeps the order object as it was.
    const before = store.getState().sessionOrder;
    store.getState().upsertSession(view({ id: SID2, createdAt: 2, lastActivityAt: 2, title: 'Renamed', updatedAt: 11 }));
    expect(store.getState().sessionOrder).toBe(before);
  });
});

const SID3 = '33333333-3333-4333-8333-333333333333';
const SID4 = '44444444-4444-4444-8444-444444444444';

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
