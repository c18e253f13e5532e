/**
 * Where the Electron-ABI build of better-sqlite3 lives. `node_modules/better-sqlite3` is built
 * for Node's ABI (tests and `serve` use it), so `scripts/electron-native.mjs` builds a second
 * copy for Electron under `.native/electron/` and the app hands its `.node` file to the host.
 *
 * No `electron` import: the caller passes what it read from `app`, so this is unit-tested.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Relative to the app root; keep in sync with `scripts/electron-native.mjs`. */
export const ELECTRON_NATIVE_BINDING = join(
  '.native',
  'electron',
  'node_modules',
  'better-sqlite3',
  'build',
  'Release',
  'better_sqlite3.node',
);

/** A packaged app ships the binding next to the app, in `resources/native/`. */
export const PACKAGED_NATIVE_BINDING = join('native', 'better_sqlite3.node');

export interface NativeBindingContext {
  /** `app.getAppPath()`: the folder holding package.json (the repo root when run as `electron .`). */
  appPath: string;
  isPackaged: boolean;
  /** `process.resourcesPath` */
  resourcesPath: string;
  env: Record<string, string | undefined>;
  exists?: (path: string) => boolean;
}

export type NativeBinding =
  | { kind: 'file'; path: string }
  /** Packaged without a separate binding: the packager rebuilt node_modules for Electron. */
  | { kind: 'bundled' }
  | { kind: 'missing'; expected: string; hint: string };

export function resolveNativeBinding(ctx: NativeBindingContext): NativeBinding {
  const exists = ctx.exists ?? existsSync;
  const override = ctx.env.SWITCHBOARD_NATIVE_BINDING;
  if (override) {
    return exists(override)
      ? { kind: 'file', path: override }
      : { kind: 'missing', expected: override, hint: 'SWITCHBOARD_NATIVE_BINDING names a file that does not exist.' };
  }
  if (ctx.isPackaged) {
    const packaged = join(ctx.resourcesPath, PACKAGED_NATIVE_BINDING);
    return exists(packaged) ? { kind: 'file', path: packaged } : { kind: 'bundled' };
  }
  const path = join(ctx.appPath, ELECTRON_NATIVE_BINDING);
  return exists(path)
    ? { kind: 'file', path }
    : {
        kind: 'missing',
        expected: path,
        hint: 'Build it with `node scripts/electron-native.mjs` (`npm start` does this for you).',
      };
}
