import { describe, expect, it } from 'vitest';
import { cachePolicy, SHELL_URLS } from './cache-policy';

const ORIGIN = 'http://127.0.0.1:4321';
const at = (path: string, method = 'GET') => cachePolicy(method, `${ORIGIN}${path}`, ORIGIN).kind;

describe("the service worker's cache", () => {
  it('lists only the app shell to fetch at install: no API, socket or token address', () => {
    expect(SHELL_URLS).toEqual(['/', '/manifest.webmanifest', '/icons/icon.svg', '/icons/icon-192.png', '/icons/icon-512.png']);
    for (const url of SHELL_URLS) {
      expect(url).not.toMatch(/token|\/ws/i);
      expect(at(url)).not.toBe('none');
    }
  });

  it('keeps the page (network first) and the hashed build files and icons (cache first)', () => {
    expect(cachePolicy('GET', `${ORIGIN}/`, ORIGIN)).toEqual({ kind: 'network-first', key: '/' });
    expect(cachePolicy('GET', `${ORIGIN}/index.html`, ORIGIN)).toEqual({ kind: 'network-first', key: '/' });
    expect(cachePolicy('GET', `${ORIGIN}/assets/index-CHvBsYL6.js`, ORIGIN)).toEqual({ kind: 'cache-first', key: '/assets/index-CHvBsYL6.js' });
    expect(at('/icons/icon-192.png')).toBe('cache-first');
  });

  it('never caches the token, whatever part of the address carries it', () => {
    expect(at('/?token=abc123def456')).toBe('none');
    expect(at('/assets/app.js?token=abc123def456')).toBe('none');
    expect(at('/#token=abc')).toBe('none');
    expect(at('/token')).toBe('none');
    expect(at('/?TOKEN=abc')).toBe('none');
  });

  it('never caches the socket, other methods, other origins or anything else with a query', () => {
    expect(at('/ws')).toBe('none');
    expect(at('/ws/anything')).toBe('none');
    expect(at('/', 'POST')).toBe('none');
    expect(at('/', 'HEAD')).toBe('none');
    expect(cachePolicy('GET', 'https://example.com/assets/x.js', ORIGIN).kind).toBe('none');
    expect(at('/assets/x.js?v=2')).toBe('none');
    expect(at('/sw.js')).toBe('none');
    expect(at('/some/other/path')).toBe('none');
    expect(cachePolicy('GET', 'not a url', ORIGIN).kind).toBe('none');
  });
});
