/**
 * The packaged app's Electron fuses (electron-builder.config.mjs, `electronFuses`). `npm run dist`
 * cannot run here (it downloads the Electron runtime), so the fuses are checked the way a
 * build sets them: electron-builder turns the configuration into a fuse config (its own
 * `generateFuseConfig`), @electron/fuses flips a binary's fuse wire with it (`flipFuses`, what
 * electron-builder calls on the packaged executable), and the wire is read back with
 * `getCurrentFuseWire`, fuse by fuse.
 */
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { flipFuses, FuseV1Options, FuseVersion, getCurrentFuseWire, type FuseConfig } from '@electron/fuses';
import { FuseState, SENTINEL } from '@electron/fuses/dist/constants';
import { afterEach, describe, expect, it } from 'vitest';
import config from '../electron-builder.config.mjs';

const require = createRequire(import.meta.url);
const { PlatformPackager } = require('app-builder-lib') as {
  PlatformPackager: { prototype: { generateFuseConfig(fuses: unknown): Promise<FuseConfig> } };
};

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/**
 * A stand-in for the Electron executable: machine code around the fuse wire as Electron ships
 * it (sentinel, wire version 1, eight fuses in their default states).
 */
function stockBinary(): string {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-fuses-'));
  dirs.push(dir);
  const defaults = [FuseState.ENABLE, FuseState.DISABLE, FuseState.ENABLE, FuseState.ENABLE, FuseState.DISABLE, FuseState.DISABLE, FuseState.DISABLE, FuseState.ENABLE];
  const file = join(dir, 'switchboard');
  writeFileSync(file, Buffer.concat([Buffer.alloc(4096, 0x90), Buffer.from(SENTINEL, 'ascii'), Buffer.from([1, defaults.length, ...defaults]), Buffer.alloc(4096, 0x90)]));
  return file;
}

async function packagedFuses(): Promise<Record<number, FuseState>> {
  const binary = stockBinary();
  const fuseConfig = await PlatformPackager.prototype.generateFuseConfig(config.electronFuses);
  expect(fuseConfig.version).toBe(FuseVersion.V1);
  await flipFuses(binary, fuseConfig);
  return (await getCurrentFuseWire(binary)) as unknown as Record<number, FuseState>;
}

describe('the packaged app\'s Electron fuses', () => {

  it.each([
    ['RunAsNode', 'ELECTRON_RUN_AS_NODE cannot turn the app into Node', FuseV1Options.RunAsNode, FuseState.DISABLE],
    ['EnableNodeOptionsEnvironmentVariable', 'NODE_OPTIONS is ignored', FuseV1Options.EnableNodeOptionsEnvironmentVariable, FuseState.DISABLE],
    ['EnableNodeCliInspectArguments', '--inspect arguments are ignored', FuseV1Options.EnableNodeCliInspectArguments, FuseState.DISABLE],
    ['OnlyLoadAppFromAsar', 'only the app in its asar runs', FuseV1Options.OnlyLoadAppFromAsar, FuseState.ENABLE],
    ['EnableEmbeddedAsarIntegrityValidation', 'the asar is checked against its hash', FuseV1Options.EnableEmbeddedAsarIntegrityValidation, FuseState.ENABLE],
    ['EnableCookieEncryption', 'cookies are encrypted', FuseV1Options.EnableCookieEncryption, FuseState.ENABLE],
  ])('%s: %s', async (_name, _what, fuse, state) => {
    expect((await packagedFuses())[fuse]).toBe(state);
  });

  it('leaves the fuses it does not name as Electron ships them', async () => {
    const wire = await packagedFuses();
    expect(wire[FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.GrantFileProtocolExtraPrivileges]).toBe(FuseState.ENABLE);
  });
});
