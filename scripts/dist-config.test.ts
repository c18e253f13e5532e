/**
 * `npm run dist` cannot run here (electron-builder downloads the Electron runtime to package
 * it), so its configuration is checked the way electron-builder reads it: its own schema
 * validation and its own file matcher decide what is packed and what is unpacked.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../electron-builder.config.mjs';
import { ELECTRON_NATIVE_BINDING } from '../src/main/app/native-binding';

const root = join(import.meta.dirname, '..');
const require = createRequire(import.meta.url);

interface Matcher {
  createFilter(): (file: string, stat: { isDirectory(): boolean }) => boolean;
}
type MatcherCtor = new (from: string, to: string, expand: (s: string) => string, patterns: unknown) => Matcher;
const { FileMatcher } = require('app-builder-lib/out/fileMatcher') as { FileMatcher: MatcherCtor };
const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
  validateConfiguration(config: unknown, logger: unknown): Promise<void>;
};
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };

const file = { isDirectory: () => false };
function matches(patterns: unknown, relative: string): boolean {
  return new FileMatcher(root, root, (s) => s, patterns).createFilter()(join(root, relative), file);
}

describe('electron-builder configuration (npm run dist)', () => {
  it('is valid for the installed electron-builder', async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('builds the installers the README promises', () => {
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(config.mac?.target).toEqual(['dmg']);
    expect(config.win?.target).toEqual(['nsis']);
  });

  it('packs every bundle the app runs: main, CLI, demo agent, watchdog, database worker, preload, renderer', () => {
    for (const path of [
      'package.json',
      'out/main/index.js',
      'out/main/cli.js',
      'out/main/demo-agent.js',
      'out/main/watchdog.js',
      'out/main/db-worker.js',
      'out/main/chunk-abc123.js',
      'out/preload/index.cjs',
      'out/renderer/index.html',
      'out/renderer/assets/index-abc.js',
    ]) {
      expect(matches(config.files, path), path).toBe(true);
    }
  });

  it('packs no sources, tests, source maps, dev builds or data', () => {
    for (const path of [
      'src/main/app/main.ts',
      'src/main/host/session-host.test.ts',
      'e2e/chat.e2e.ts',
      'out/main/index.js.map',
      ELECTRON_NATIVE_BINDING,
      '.tmp/electron-install.json',
      'bench/run.ts',
      'docs/architecture.md',
    ]) {
      expect(matches(config.files, path), path).toBe(false);
    }
  });

  it('starts the app from the built main bundle', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { main: string };
    expect(config.extraMetadata?.main).toBe(pkg.main);
    expect(pkg.main).toBe('out/main/index.js');
  });

  it('rebuilds better-sqlite3 for Electron and unpacks its native module from the asar', () => {
    expect(config.npmRebuild).toBe(true);
    expect(config.asar).toBe(true);
    expect(matches(config.asarUnpack, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node')).toBe(true);
    // Nothing else needs to leave the archive.
    expect(matches(config.asarUnpack, 'node_modules/better-sqlite3/lib/index.js')).toBe(false);
    expect(matches(config.asarUnpack, 'out/main/index.js')).toBe(false);
  });

  it('takes better-sqlite3 along as a runtime dependency (node_modules are packed from dependencies)', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(Object.keys(pkg.dependencies)).toContain('better-sqlite3');
    // electron-builder reads the Electron version to build for from devDependencies.
    expect(pkg.devDependencies.electron).toBeDefined();
    expect(pkg.dependencies.electron).toBeUndefined();
  });
});
