import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ELECTRON_NATIVE_BINDING, resolveNativeBinding } from './native-binding';

const base = { appPath: '/repo', resourcesPath: '/opt/Switchboard/resources', env: {} };

describe('resolveNativeBinding', () => {
  it('uses the Electron-ABI build under .native/ in a checkout', () => {
    const expected = join('/repo', ELECTRON_NATIVE_BINDING);
    expect(resolveNativeBinding({ ...base, isPackaged: false, exists: (p) => p === expected })).toEqual({
      kind: 'file',
      path: expected,
    });
  });

  it('reports a missing build with a hint instead of loading the Node-ABI module', () => {
    const result = resolveNativeBinding({ ...base, isPackaged: false, exists: () => false });
    expect(result).toMatchObject({ kind: 'missing', expected: join('/repo', ELECTRON_NATIVE_BINDING) });
  });

  it('uses a binding shipped next to a packaged app, else the packaged node_modules', () => {
    const shipped = join(base.resourcesPath, 'native', 'better_sqlite3.node');
    expect(resolveNativeBinding({ ...base, isPackaged: true, exists: (p) => p === shipped })).toEqual({ kind: 'file', path: shipped });
    expect(resolveNativeBinding({ ...base, isPackaged: true, exists: () => false })).toEqual({ kind: 'bundled' });
  });

  it('honours SWITCHBOARD_NATIVE_BINDING', () => {
    const env = { SWITCHBOARD_NATIVE_BINDING: '/x/b.node' };
    expect(resolveNativeBinding({ ...base, env, isPackaged: false, exists: () => true })).toEqual({ kind: 'file', path: '/x/b.node' });
    expect(resolveNativeBinding({ ...base, env, isPackaged: false, exists: () => false }).kind).toBe('missing');
  });
});
