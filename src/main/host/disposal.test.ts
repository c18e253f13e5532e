import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from '../test-support/host-harness';
import { DataDirLock } from '../datadir/data-dir-lock';
import { tempDir } from '../test-support/temp-dir';
import { silentLogger } from '../util/log';
import { SessionHost } from './session-host';

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
  vi.restoreAllMocks();
});

/** Records, in call order, which quit step of which part ran. */
function watchQuitSteps(host: SessionHost): () => string[] {
  const spies = {
    'reaper.dispose': vi.spyOn(host.reaper, 'dispose'),
    'service.closeAll': vi.spyOn(host.service, 'closeAll'),
    'gate.dispose': vi.spyOn(host.gate, 'dispose'),
    'questions.dispose': vi.spyOn(host.questions, 'dispose'),
    'pool.shutdownAll': vi.spyOn(host.pool, 'shutdownAll'),
    'pool.dispose': vi.spyOn(host.pool, 'dispose'),
    'watchdog.dispose': vi.spyOn(host.watchdog, 'dispose'),
    'service.endAllStored': vi.spyOn(host.service, 'endAllStored'),
    'timers.dispose': vi.spyOn(host.timers, 'dispose'),
    'eventLog.dispose': vi.spyOn(host.eventLog, 'dispose'),
    'store.dispose': vi.spyOn(host.store, 'dispose'),
    'lock.dispose': vi.spyOn(DataDirLock.prototype, 'dispose'),
  };
  return () =>
    Object.entries(spies)
      .flatMap(([name, spy]) => spy.mock.invocationCallOrder.map((order) => ({ name, order })))
      .sort((a, b) => a.order - b.order)
      .map((c) => c.name);
}

describe('SessionHost quit: one ordered list of disposals', () => {
  it('disposes its parts in the documented order, with a session mid-turn', async () => {
    h = await startHarness();
    const w = h.window();
    const view = await w.call('sessions:create', {});
    await w.call('sessions:switch', { sessionId: view.id });
    await w.call('prompt:send', { sessionId: view.id, clientMessageId: randomUUID(), text: '/slow 10' });
    await w.waitFor('session:event', (e) => e.sessionId === view.id && e.kind === 'turn_started');
    const order = watchQuitSteps(h.host);

    await h.host.shutdown();

    expect(order()).toEqual([
      'reaper.dispose',
      'service.closeAll',
      'gate.dispose',
      'questions.dispose',
      'pool.shutdownAll',
      'gate.dispose',
      'questions.dispose',
      'pool.dispose',
      'watchdog.dispose',
      'service.endAllStored',
      'timers.dispose',
      'eventLog.dispose',
      'store.dispose',
      'lock.dispose',
    ]);
  });

  it('still closes the store and releases the lock when an earlier step fails, and reports the failure', async () => {
    const dir = tempDir();
    try {
      const host = await SessionHost.start({ dataDir: dir.path, headless: true, log: silentLogger });
      vi.spyOn(host.timers, 'dispose').mockImplementation(() => {
        throw new Error('timer trouble');
      });
      const order = watchQuitSteps(host);

      await expect(host.shutdown()).rejects.toThrow('timer trouble');
      expect(order().slice(-3)).toEqual(['eventLog.dispose', 'store.dispose', 'lock.dispose']);
      expect(host.store.db.open).toBe(false);
      // The data dir is free again: a new host starts on it.
      const next = await SessionHost.start({ dataDir: dir.path, headless: true, log: silentLogger });
      await next.shutdown();
    } finally {
      dir.cleanup();
    }
  });

  it('lets every part be disposed again after quit: nothing throws and nothing happens twice', async () => {
    h = await startHarness();
    const host = h.host;
    const killAll = vi.spyOn(host.pool, 'killAll');
    await host.shutdown();
    expect(killAll).toHaveBeenCalledTimes(1);

    for (const part of [host.reaper, host.gate, host.questions, host.pool, host.watchdog, host.timers, host.eventLog, host.store]) expect(() => part.dispose()).not.toThrow();
    expect(killAll).toHaveBeenCalledTimes(1);
    expect(host.timers.isArmed).toBe(false);
    expect(host.gate.size).toBe(0);
    expect(host.store.db.open).toBe(false);
    expect(() => host.eventLog.append('any', 'notice', { text: 'late' })).toThrow('closed');
  });
});
