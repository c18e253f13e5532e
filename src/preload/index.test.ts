import { beforeAll, describe, expect, it, vi } from 'vitest';
import { commandChannel, commandNames, eventChannel, type Api } from '../shared/contract';

// A stand-in for Electron's renderer modules: records what the preload exposes and sends.
const fake = vi.hoisted(() => {
  const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
  return {
    exposed: new Map<string, unknown>(),
    invoked: [] as Array<{ channel: string; args: unknown[] }>,
    listeners,
    emit(channel: string, payload: unknown) {
      for (const l of listeners.get(channel) ?? []) l({ sender: 'secret ipc event' }, payload);
    },
  };
});

vi.mock('electron', () => ({
  contextBridge: {
    exposeInMainWorld: (key: string, value: unknown) => fake.exposed.set(key, value),
  },
  ipcRenderer: {
    invoke: (channel: string, ...args: unknown[]) => {
      fake.invoked.push({ channel, args });
      return Promise.resolve({ ok: true, value: channel });
    },
    on: (channel: string, listener: (...args: unknown[]) => void) => {
      if (!fake.listeners.has(channel)) fake.listeners.set(channel, new Set());
      fake.listeners.get(channel)!.add(listener);
    },
    removeListener: (channel: string, listener: (...args: unknown[]) => void) => {
      fake.listeners.get(channel)?.delete(listener);
    },
  },
}));

let api: Api;

beforeAll(async () => {
  await import('./index');
  api = fake.exposed.get('api') as Api;
});

describe('preload', () => {
  it('exposes window.api only: one function per command, on and onReconnect', () => {
    expect([...fake.exposed.keys()]).toEqual(['api']);
    expect(Object.keys(api).sort()).toEqual([...commandNames, 'on', 'onReconnect'].sort());
    for (const key of Object.keys(api)) expect(typeof (api as unknown as Record<string, unknown>)[key]).toBe('function');
  });

  it('invokes each command on its own channel with the request only', async () => {
    for (const name of commandNames) {
      const call = api[name] as (req: unknown) => Promise<unknown>;
      await expect(call({ probe: name })).resolves.toEqual({ ok: true, value: commandChannel(name) });
      expect(fake.invoked.at(-1)).toEqual({ channel: commandChannel(name), args: [{ probe: name }] });
    }
  });

  it('delivers event payloads without the IpcRendererEvent and unsubscribes', () => {
    const seen: unknown[][] = [];
    const off = api.on('session:resync', (...args: unknown[]) => seen.push(args));
    const payload = { sessionId: '00000000-0000-4000-8000-000000000000', lastSeq: 4 };
    fake.emit(eventChannel('session:resync'), payload);
    expect(seen).toEqual([[payload]]);
    off();
    fake.emit(eventChannel('session:resync'), payload);
    expect(seen).toHaveLength(1);
    expect(fake.listeners.get(eventChannel('session:resync'))?.size).toBe(0);
  });

  it('refuses unknown events instead of listening on arbitrary channels', () => {
    expect(() => api.on('sb:cmd:host:info' as never, () => {})).toThrow(/unknown event/);
  });

  it('onReconnect never fires and unsubscribes without error', () => {
    const listener = vi.fn();
    const off = api.onReconnect(listener);
    off();
    expect(listener).not.toHaveBeenCalled();
  });
});
