import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createAppStore } from '../../store/app-store';
import { bindApi } from '../../store/bind-api';
import { StoreProvider } from '../../store/context';
import { FakeApi, testDeps } from '../../test-support/fake-api';
import { alwaysOpen } from '../../api/connection';
import { StorageBanner } from './connection-banner';

/** Issue 13: the host cannot save (disk full, folder unwritable): the window says so until it can. */
describe('the storage banner', () => {
  it('shows the host’s words as an alert while saving fails, and goes once it works again', () => {
    const fake = new FakeApi();
    const store = createAppStore(testDeps(fake));
    store.getInitialState = store.getState;
    bindApi(store, fake.api, alwaysOpen);
    const render = (): string => renderToStaticMarkup(<StoreProvider store={store}><StorageBanner /></StoreProvider>);
    expect(render()).toBe('');

    const message = 'The disk holding /data/switchboard.db is full: Switchboard cannot save what sessions do now, and it is not kept. Free some space; saving resumes by itself.';
    fake.emit('host:storage', { ok: false, problem: 'disk_full', message });
    expect(render()).toBe(`<div class="connection-banner storage-banner" role="alert" aria-label="Cannot save">${message}</div>`);

    fake.emit('host:storage', { ok: true });
    expect(render()).toBe('');
  });
});
