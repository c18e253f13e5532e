import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RegistryManifest, type RegistryManifestInput } from '../../../shared/registry';
import { tempDir } from '../../test-support/temp-dir';
import { findTools, registryOptions } from './needs';

const dirs: { cleanup(): void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));

/** A PATH holding fake executables named `names`. */
function pathWith(...names: string[]): { PATH: string; HOME: string } {
  const dir = tempDir();
  dirs.push(dir);
  const bin = join(dir.path, 'bin');
  mkdirSync(bin);
  for (const n of names) {
    writeFileSync(join(bin, n), '#!/bin/sh\n');
    chmodSync(join(bin, n), 0o755);
  }
  // A non-executable `uv` elsewhere on PATH is not a tool.
  writeFileSync(join(dir.path, 'uv'), '');
  return { PATH: [dir.path, bin].join(':'), HOME: dir.path };
}

const entry = (distribution: RegistryManifestInput['distribution']) => RegistryManifest.parse({ id: 'kimi', name: 'Kimi CLI', version: '1.9.0', description: 'd', distribution });
const kimiBinary = {
  'linux-x86_64': { archive: 'https://github.com/x/releases/download/1.9/kimi-linux.tar.gz', cmd: './kimi', args: ['acp'] },
  'darwin-aarch64': { archive: 'https://github.com/x/releases/download/1.9/kimi-darwin.tar.gz', cmd: './kimi', args: ['acp'] },
};

describe.skipIf(process.platform === 'win32')('what a registry entry needs', () => {
  it('finds npx, uvx and uv on PATH without a shell', async () => {
    const env = pathWith('npx', 'uvx');
    const tools = await findTools(env, 'linux');
    expect(tools.npx).toMatch(/\/bin\/npx$/);
    expect(tools.uvx).toMatch(/\/bin\/uvx$/);
    expect(tools.uv).toBeUndefined();
  });

  it('says an npx entry needs Node, satisfied when npx is on PATH, and prefers it', () => {
    const m = entry({ npx: { package: 'kimi@1.9.0' }, binary: kimiBinary });
    const withNode = registryOptions(m, { npx: '/usr/bin/npx' }, 'linux-x86_64', '/data/agents');
    expect(withNode.options.map((o) => [o.kind, o.need.tool, o.need.satisfied])).toEqual([
      ['npx', 'node', true],
      ['binary', 'download', true],
    ]);
    expect(withNode.preferred).toBe('npx');
    const without = registryOptions(m, {}, 'linux-x86_64', '/data/agents');
    expect(without.options[0]?.need).toMatchObject({ satisfied: false, detail: expect.stringContaining('npx is not on PATH') });
    // Without Node, the download needs nothing missing.
    expect(without.preferred).toBe('binary');
  });

  it('offers a uvx entry through uv tool run where only uv is installed', () => {
    const m = entry({ uvx: { package: 'kimi-cli@1.9.0', args: ['acp'] } });
    const viaUv = registryOptions(m, { uv: '/home/me/.local/bin/uv' }, 'linux-x86_64', '/data/agents');
    expect(viaUv.options).toEqual([expect.objectContaining({ kind: 'uvx', command: 'uv', args: ['tool', 'run', 'kimi-cli@1.9.0', 'acp'] })]);
    expect(viaUv.preferred).toBe('uvx');
    const none = registryOptions(m, {}, 'linux-x86_64', '/data/agents');
    expect(none.options[0]?.need).toMatchObject({ tool: 'uv', satisfied: false });
    expect(none.preferred).toBe('uvx');
  });

  it('offers the binary for this platform with the folder it would run from and the download host', () => {
    const r = registryOptions(entry({ binary: kimiBinary }), {}, 'linux-x86_64', '/data/agents');
    expect(r.options).toEqual([
      {
        kind: 'binary',
        command: '/data/agents/kimi/1.9.0/kimi',
        args: ['acp'],
        archive: 'https://github.com/x/releases/download/1.9/kimi-linux.tar.gz',
        need: { tool: 'download', satisfied: true, detail: 'Downloads Kimi CLI 1.9.0 for linux-x86_64 from github.com' },
      },
    ]);
  });

  it('says why a binary-only entry with no build for this platform can not be added', () => {
    const r = registryOptions(entry({ binary: kimiBinary }), { npx: '/usr/bin/npx' }, 'windows-aarch64', '/data/agents');
    expect(r.options).toEqual([]);
    expect(r.preferred).toBeUndefined();
    expect(r.unavailable).toBe('No build for windows-aarch64 (the registry has darwin-aarch64, linux-x86_64)');
  });
});
