import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { commands, WireError } from '../../shared/contract';
import { startHarness, type Harness } from '../test-support/host-harness';
import { createDispatcher, type Handlers } from './dispatch';
import { createHandlers } from './handlers/index';

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

describe('the command dispatcher', () => {
  it('has exactly one handler for every command in the contract', () => {
    const handlers = createHandlers({} as never);
    expect(Object.keys(handlers).sort()).toEqual(Object.keys(commands).sort());
    for (const fn of Object.values(handlers)) expect(typeof fn).toBe('function');
  });

  it('refuses an unknown command with a typed error', async () => {
    const dispatch = createDispatcher({} as Handlers);
    expect(await dispatch('c', 'sessions:explode', {})).toEqual({
      ok: false,
      error: { code: 'unknown_command', message: 'Unknown command "sessions:explode"' },
    });
    expect(await dispatch('c', 'constructor', {})).toMatchObject({ ok: false, error: { code: 'unknown_command' } });
  });

  it('refuses an invalid payload before any handler runs', async () => {
    let ran = false;
    const dispatch = createDispatcher({ 'prompt:send': () => ((ran = true), { accepted: true, duplicate: false }) } as unknown as Handlers);
    const result = await dispatch('c', 'prompt:send', { sessionId: 'nope', clientMessageId: randomUUID(), text: 'hi' });
    // The refused fields, typed as the contract's WireError details, so a form can name them.
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_request', details: { issues: [{ path: ['sessionId'], message: expect.any(String) }] } } });
    expect(WireError.safeParse(result.ok ? undefined : result.error).success).toBe(true);
    expect(ran).toBe(false);
  });

  it('turns a thrown AppError into its code and anything else into internal', async () => {
    const dispatch = createDispatcher({
      'sessions:list': () => {
        throw new Error('disk on fire');
      },
    } as unknown as Handlers);
    expect(await dispatch('c', 'sessions:list', {})).toEqual({ ok: false, error: { code: 'internal', message: 'disk on fire' } });
  });

  it('changes nothing on the host when a request is invalid', async () => {
    h = await startHarness();
    const w = h.window();
    const before = h.host.store.sessions.count();
    const bad = await h.host.dispatch(w.id, 'sessions:create', { cwd: '/tmp', surprise: true });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    const missingFolder = await h.host.dispatch(w.id, 'sessions:create', { cwd: '/definitely/not/here' });
    expect(missingFolder).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(h.host.store.sessions.count()).toBe(before);
    expect(await h.host.dispatch('a-window-that-never-connected', 'sessions:list', {})).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
  });
});

describe('settings:update', () => {
  it('refuses a default folder that does not exist, or an unknown agent, and stores nothing', async () => {
    h = await startHarness();
    const w = h.window();
    const before = await w.call('host:info', {});
    expect(await h.host.dispatch(w.id, 'settings:update', { defaultCwd: '/no/such/folder' })).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(await h.host.dispatch(w.id, 'settings:update', { defaultAgentId: 'ghost' })).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(await h.host.dispatch(w.id, 'settings:update', { idleTimeoutMs: -1 })).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect((await w.call('host:info', {})).settings).toEqual(before.settings);
    expect(await w.call('settings:update', { defaultCwd: h.dataDir, idleTimeoutMs: 60_000 })).toMatchObject({ defaultCwd: h.dataDir, idleTimeoutMs: 60_000 });
  });
});
