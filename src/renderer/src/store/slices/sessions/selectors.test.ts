import { describe, expect, it } from 'vitest';
import type { SessionStateT } from '../../../../../shared/contract';
import { createAppStore } from '../../app-store';
import { sessionsSelectors } from './selectors';
import { FakeApi, SID, SID2, testDeps, view } from '../../../test-support/fake-api';

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
