import { describe, expect, it } from 'vitest';
import { exposureWarning, isLoopbackHost } from './exposure';

describe('serve exposure', () => {
  it.each(['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '::1', '[::1]', '::ffff:127.0.0.1'])('treats %s as this machine only', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
    expect(exposureWarning(host)).toBeUndefined();
  });

  it.each(['0.0.0.0', '::', '[::]', '192.168.1.20', '10.0.0.1', 'example.com', '127.0.0.256', '128.0.0.1'])('warns when bound to %s', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
    expect(exposureWarning(host)).toMatch(/^WARNING: listening on .*not only on this machine/);
  });

  it('names every interface for a wildcard address', () => {
    expect(exposureWarning('0.0.0.0')).toContain('every network interface');
    expect(exposureWarning('192.168.1.20')).toContain('192.168.1.20');
  });
});
