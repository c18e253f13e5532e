import { describe, expect, it } from 'vitest';
import type { AgentViewT, RegistryAgentChangeT, RegistryListingT } from '../../../../../shared/contract';
import { deferred, flush } from '../../../test-support/fake-api';
import { boundStore, ok } from '../../../test-support/store-fixtures';
import { registrySelectors } from './selectors';

const listing = (source: RegistryListingT['source'] = 'snapshot'): RegistryListingT => ({
  source,
  asOf: '2026-02-07T00:00:00Z',
  snapshot: { repository: 'r', commit: 'a'.repeat(40), date: '2026-02-07T00:00:00Z' },
  entries: [],
  skipped: [],
  updates: [],
});
const change: RegistryAgentChangeT = { agentId: 'kimi', name: 'Kimi CLI', info: { registryId: 'kimi', kind: 'binary', version: '1.9.0', pinned: false } };

describe('registry slice', () => {
  it('reads the list, and from the network when asked', async () => {
    const { fake, store } = boundStore();
    fake.handle('registry:list', (req) => ok(listing(req.refresh ? 'network' : 'snapshot')));
    await store.getState().loadRegistry();
    expect(registrySelectors.listing(store.getState())?.source).toBe('snapshot');
    const refreshing = store.getState().loadRegistry(true);
    expect(registrySelectors.loading(store.getState())).toBe('refresh');
    await refreshing;
    expect(registrySelectors.listing(store.getState())?.source).toBe('network');
    expect(registrySelectors.loading(store.getState())).toBeUndefined();
  });

  it('shows a download’s progress under the entry being added, then the result', async () => {
    const { fake, store } = boundStore();
    const answer = deferred<ReturnType<typeof ok<RegistryAgentChangeT>>>();
    fake.handle('registry:add', () => answer.promise);
    const adding = store.getState().addFromRegistry('kimi');
    expect(registrySelectors.install('kimi')(store.getState())).toEqual({ phase: 'starting' });
    fake.emit('registry:progress', { registryId: 'kimi', version: '1.9.0', phase: 'downloading', bytes: 10, total: 100 });
    expect(registrySelectors.install('kimi')(store.getState())).toMatchObject({ phase: 'downloading', bytes: 10 });
    answer.resolve(ok(change));
    expect(await adding).toEqual({ ok: true, change });
    expect(registrySelectors.install('kimi')(store.getState())).toBeUndefined();
  });

  it('routes an update’s progress to the agent being updated, and ignores downloads it did not start', async () => {
    const { fake, store } = boundStore();
    store.setState({ agents: [{ id: 'my-kimi', registry: { registryId: 'kimi', kind: 'binary', version: '1.8.0', pinned: false } } as AgentViewT] });
    fake.emit('registry:progress', { registryId: 'kimi', version: '1.9.0', phase: 'downloading', bytes: 1 });
    expect(store.getState().registryInstalls.size).toBe(0);
    const answer = deferred<ReturnType<typeof ok<RegistryAgentChangeT>>>();
    fake.handle('registry:update', () => answer.promise);
    const updating = store.getState().updateRegistryAgent('my-kimi');
    fake.emit('registry:progress', { registryId: 'kimi', version: '1.9.0', phase: 'extracting', bytes: 1 });
    expect(registrySelectors.install('my-kimi')(store.getState())).toMatchObject({ phase: 'extracting' });
    answer.resolve({ ok: false, error: { code: 'download_refused', message: 'sha256 mismatch' } });
    expect(await updating).toMatchObject({ ok: false, error: { message: 'sha256 mismatch' } });
    expect(store.getState().registryInstalls.size).toBe(0);
  });

  it('reads the list again when the index changed, only if this window shows it', async () => {
    const { fake, store } = boundStore();
    fake.handle('registry:list', () => ok(listing('network')));
    fake.emit('registry:changed', { source: 'network', asOf: 'now' });
    await flush();
    expect(fake.calls.filter((c) => c.command === 'registry:list')).toHaveLength(0);
    store.setState({ registry: listing() });
    fake.emit('registry:changed', { source: 'network', asOf: 'now' });
    await flush();
    expect(registrySelectors.listing(store.getState())?.source).toBe('network');
  });
});
