import { describe, expect, it } from 'vitest';
import { takeToken, wsUrl } from './get-api';

class FakeHistory {
  state: unknown = { kept: true };
  readonly replaced: { state: unknown; url: string }[] = [];
  replaceState(state: unknown, _title: string, url?: string | URL | null): void {
    this.replaced.push({ state, url: String(url) });
  }
}

class MemoryStorage {
  readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
}

describe('the page token', () => {
  it('is taken out of the URL of the current history entry, other query parameters and the hash kept', () => {
    const history = new FakeHistory();
    const storage = new MemoryStorage();
    const token = takeToken({ search: '?a=1&token=secret-123&b=2', pathname: '/', hash: '#x' }, history, storage);
    expect(token).toBe('secret-123');
    expect(history.replaced).toEqual([{ state: { kept: true }, url: '/?a=1&b=2#x' }]);
    expect(storage.getItem('switchboard.token')).toBe('secret-123');
  });

  it('after a reload (no token in the URL) comes from this tab’s storage and the URL is left alone', () => {
    const history = new FakeHistory();
    const storage = new MemoryStorage();
    storage.setItem('switchboard.token', 'secret-123');
    expect(takeToken({ search: '', pathname: '/', hash: '' }, history, storage)).toBe('secret-123');
    expect(history.replaced).toEqual([]);
  });

  it('without storage, still leaves the URL clean (the host’s cookie serves a reload)', () => {
    const history = new FakeHistory();
    const throwing = {
      getItem: (): string | null => {
        throw new Error('denied');
      },
      setItem: (): void => {
        throw new Error('denied');
      },
    };
    expect(takeToken({ search: '?token=t0ken-abc', pathname: '/', hash: '' }, history, throwing)).toBe('t0ken-abc');
    expect(history.replaced[0]?.url).toBe('/');
    expect(takeToken({ search: '', pathname: '/', hash: '' }, history, undefined)).toBe('');
  });

  it('goes to the socket URL, escaped', () => {
    expect(wsUrl({ protocol: 'http:', host: '127.0.0.1:5' }, 'a b')).toBe('ws://127.0.0.1:5/ws?token=a%20b');
    expect(wsUrl({ protocol: 'https:', host: 'h' }, 't')).toBe('wss://h/ws?token=t');
  });
});
