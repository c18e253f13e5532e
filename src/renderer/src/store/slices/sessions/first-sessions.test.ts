import { describe, expect, it } from 'vitest';
import type { CommandRequest, Result, SessionViewT } from '../../../../../shared/contract';
import { deferred, flush, view } from '../../../test-support/fake-api';
import { boundStore, ok } from '../../../test-support/store-fixtures';
import { FIRST_SESSIONS } from './actions';

describe('the session list at start', () => {
  it('shows the newest sessions from a small answer while the whole list is on its way, loaded only once it is in', async () => {
    const { fake, store } = boundStore();
    const newest = view({ id: 'newest', createdAt: 3, lastActivityAt: 3 });
    const older = view({ id: 'older', createdAt: 1, lastActivityAt: 1 });
    const whole = deferred<Result<SessionViewT[]>>();
    fake.handle('sessions:list', (req: CommandRequest<'sessions:list'>) => (req.limit === undefined ? whole.promise : ok([newest])));
    const started = store.getState().start();
    await flush();
    expect(fake.callsOf('sessions:list')).toEqual([{ limit: FIRST_SESSIONS }, {}]);
    expect(store.getState().sessionOrder).toEqual(['newest']);
    // The empty state and the first-list-is-old-news rule wait for the whole list.
    expect(store.getState().sessionsLoaded).toBe(false);
    whole.resolve(ok([newest, older]));
    await started;
    expect(store.getState().sessionOrder).toEqual(['newest', 'older']);
    expect(store.getState().sessionsLoaded).toBe(true);
    // Later refreshes (a reconnect) ask for the whole list only.
    await store.getState().refreshSessions();
    expect(fake.callsOf('sessions:list').slice(2)).toEqual([{}]);
  });
});
